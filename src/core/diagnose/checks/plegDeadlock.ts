// Root cause 4: before 1.14 the relist sent events on a blocking channel; once 1000 events queued and the
// sync loop stalled, relist froze for good (#72482). The goroutine dump decides: the relist goroutine in
// `chan send`. From 1.14 the send never blocks (discards are counted instead; see "Event storm").

import { clear, found, noEvidence, notApplicable, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine, Remediation } from '../diagnosis';
import { relistGoroutineLine } from '../signals';
import { missingNote } from '../sourceNotes';
import { kubeletBeforeDeadlockFix } from '../knownVersions';

const REMEDIATION: Remediation[] = [
  { text: 'Upgrade the kubelet to 1.14 or later, where the send cannot block (PR #72709)', gate: 'destructive' },
  { text: 'Stopgap: restart the kubelet (the deadlock never heals by itself)', gate: 'disruptive', command: 'systemctl restart kubelet' },
];
const REFS = ['kubernetes/kubernetes#72482', 'kubernetes/kubernetes#72709'];

export const plegDeadlockCheck: Check = {
  id: 'pleg-deadlock',
  title: 'PLEG blocked sending events',
  run(ctx: CheckContext): CheckOutcome {
    const version = ctx.kubelet;
    const versionText = ctx.classification.versions.kubelet ?? (version !== undefined ? `1.${version.minor}` : undefined);
    const relist = ctx.goroutines?.relist;
    const old = kubeletBeforeDeadlockFix(ctx);
    if (relist?.blockedIn === 'chan send') {
      const lines: EvidenceLine[] = [];
      const line = relistGoroutineLine(ctx);
      if (line !== undefined) lines.push(line);
      if (versionText !== undefined) lines.push({ origin: 'node', text: `kubelet ${versionText}${old ? ' (< 1.14: the event channel send blocks)' : ''}` });
      return found({
        cause: 4,
        severity: 'problem',
        title: 'PLEG is blocked sending events to a stalled sync loop',
        summary: 'The relist goroutine waits to hand an event to the sync loop, which has stopped draining the channel; no relist completes again until the kubelet restarts.',
        evidence: lines,
        remediation: REMEDIATION,
        refs: REFS,
      });
    }
    if (version !== undefined && !old) return notApplicable(`kubelet 1.${version.minor} ≥ 1.14: the event send never blocks`);
    if (old && ctx.plegUnhealthy) {
      return found({
        cause: 4,
        severity: 'warning',
        title: `Possible PLEG deadlock: kubelet ${versionText ?? '< 1.14'} can block forever sending events`,
        summary:
          'Kubelets before 1.14 freeze the relist when the sync loop stops draining 1000 queued events. This finding is version-driven: ' +
          'nothing but a goroutine dump (relist in `chan send`) shows the deadlock itself, and none was read.',
        evidence: [
          { origin: 'node', text: `kubelet ${versionText ?? '< 1.14'} with PLEG unhealthy` },
          { origin: 'goroutines', text: missingNote(ctx.evidence, 'goroutines') },
        ],
        remediation: [{ text: 'Take a goroutine dump and look for (*GenericPLEG).relist in [chan send, N minutes]', gate: 'readOnly', command: 'kubectl get --raw "/api/v1/nodes/NODE_NAME/proxy/debug/pprof/goroutine?debug=2"' }, ...REMEDIATION],
        refs: REFS,
      });
    }
    if (relist !== undefined) return clear(`the relist goroutine waits in ${relist.blockedIn}, not in a channel send`);
    if (old && version !== undefined) return clear(`kubelet 1.${version.minor} < 1.14, but PLEG is healthy`);
    return noEvidence(`kubelet version unknown; ${missingNote(ctx.evidence, 'goroutines')}`);
  },
};
