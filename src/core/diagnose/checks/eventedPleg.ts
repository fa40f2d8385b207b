// Root cause 12: the alpha EventedPLEG gate. Unhealthy only when its channel is exactly full (R3); rising
// connection errors mean it keeps falling back to relisting; ≤1.31 reads the runtime's nanosecond
// `createdAt` as seconds and can freeze a pod's status; containerd before 1.7 has no events API at all.

import { clear, found, noEvidence, notApplicable, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { splitRuntimeVersion } from '../knownVersions';
import { readyLine } from '../signals';
import { missingNote } from '../sourceNotes';
import { quoted } from '../textFormat';

function containerdBefore17(ctx: CheckContext): string | undefined {
  const texts: string[] = [];
  if (ctx.probes?.containerdVersion.status === 'ok') texts.push(`containerd://${ctx.probes.containerdVersion.value.version}`);
  if (ctx.classification.versions.runtime !== undefined) texts.push(ctx.classification.versions.runtime);
  for (const t of texts) {
    const v = splitRuntimeVersion(t);
    if (v?.runtime !== 'containerd') continue;
    const [major = 0, minor = 0] = v.version.split('.').map(Number);
    if (major < 1 || (major === 1 && minor < 7)) return t;
  }
  return undefined;
}

export const eventedPlegCheck: Check = {
  id: 'evented-pleg',
  title: 'EventedPLEG trouble',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const r3 = c.errors.some((e) => e.kind === 'evented-pleg-full');
    const gate = ctx.configz?.featureGates?.['EventedPLEG'];
    const evented = ctx.metrics?.eventedPleg;
    const errorsRising =
      evented !== undefined && ctx.earlierMetrics?.eventedPleg !== undefined && evented.connectionErrors > ctx.earlierMetrics.eventedPleg.connectionErrors;
    if (ctx.configz !== undefined && gate !== true && !r3) return notApplicable('the EventedPLEG feature gate is off');
    if (ctx.configz === undefined && !r3 && !errorsRising && !(evented !== undefined && evented.connectionErrors > 0)) {
      return noEvidence(`cannot tell whether the EventedPLEG gate is on: ${missingNote(ctx.evidence, 'configz')}`);
    }
    const lines: EvidenceLine[] = [];
    let severity: 'problem' | 'warning' = 'warning';
    if (gate === true) lines.push({ origin: 'configz', text: `${quoted('featureGates.EventedPLEG: true')} (alpha, off by default)` });
    if (r3) {
      lines.push(readyLine(ctx));
      severity = 'problem';
    }
    if (evented !== undefined && evented.connectionErrors > 0) {
      const before = ctx.earlierMetrics?.eventedPleg?.connectionErrors;
      lines.push({
        origin: errorsRising ? 'metricsLater' : 'metrics',
        text: `${quoted('kubelet_evented_pleg_connection_error_count')} = ${evented.connectionErrors}${before !== undefined ? ` (was ${before})` : ''}`,
      });
    }
    const minor = ctx.kubelet?.minor;
    const oldKubelet = minor !== undefined && minor <= 31 && gate === true;
    if (oldKubelet) lines.push({ origin: 'node', text: `kubelet 1.${minor} reads the runtime's nanosecond createdAt as seconds: a pod's cached status can freeze` });
    const oldContainerd = gate === true ? containerdBefore17(ctx) : undefined;
    if (oldContainerd !== undefined) {
      lines.push({ origin: 'node', text: `${quoted(oldContainerd)} has no GetContainerEvents (needs containerd ≥ 1.7): every stream fails` });
      if (ctx.plegUnhealthy) severity = 'problem';
    }
    if (errorsRising && ctx.plegUnhealthy) severity = 'problem';
    if (!r3 && !errorsRising && !oldKubelet && oldContainerd === undefined) {
      return clear(`gate on, ${evented !== undefined ? `${evented.connectionErrors} connection errors (not rising)` : 'no evented connection metrics'}`);
    }
    return found({
      cause: 12,
      severity,
      title: r3 ? 'EventedPLEG’s event channel is full' : 'EventedPLEG is enabled where it misbehaves',
      summary:
        'EventedPLEG (alpha) turns runtime events into pod events and relists only every 5 minutes. It ' +
        'reports unhealthy when its channel is exactly full, falls back to relisting after 5 failed event ' +
        'streams, and before 1.32 it misreads event timestamps so pod status can stop updating.',
      evidence: lines,
      remediation: [
        { text: 'Turn the EventedPLEG feature gate off in the kubelet configuration, then restart the kubelet', gate: 'disruptive' },
        { text: 'Or upgrade the kubelet to 1.32+ and containerd to 1.7+', gate: 'destructive' },
      ],
      refs: ['kubernetes/kubernetes pkg/kubelet/pleg/evented.go'],
    });
  },
};
