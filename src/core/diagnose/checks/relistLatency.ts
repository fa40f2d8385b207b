// The kubernetes-mixin alert KubeletPlegDurationHigh: p99 of `kubelet_pleg_relist_duration_seconds` ≥ 10 s
// (for 5 min). A sample is only recorded when a relist finishes (#87108), so a relist that is hanging right
// now is not in it: read with `kubelet_pleg_last_seen_seconds` (the "PLEG health" check) for that.
// Kubelet 1.36+ also relists single pods on demand (PLEGOnDemandRelist, PR #137362): `relistPod` holds the
// global relist's lock, so a slow per-pod relist delays the global one by as much. Its histogram,
// `kubelet_pleg_pod_relist_duration_seconds`, is where one slow pod shows before it stalls the global
// relist; it is held to the same 10 s.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext, HistogramView } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { missingNote } from '../sourceNotes';
import { quoted, seconds } from '../textFormat';

export const RELIST_P99_ALERT_SECONDS = 10;

const GLOBAL = 'kubelet_pleg_relist_duration_seconds';
const PER_POD = 'kubelet_pleg_pod_relist_duration_seconds';

function windowText(view: HistogramView): string {
  return view.window === 'interval' ? 'between the scrapes' : 'since the kubelet started';
}

function line(metric: string, view: HistogramView, p99: number, what: string): EvidenceLine {
  return { origin: view.window === 'interval' ? 'metricsLater' : 'metrics', text: `${quoted(metric)} p99 = ${seconds(p99)} over ${view.histogram.count} ${what} ${windowText(view)}` };
}

/**
 * What the per-pod histogram says when it is quiet, for the clear note, with the gate and where it was read
 * (empty before 1.36, when neither is known).
 */
function perPodNote(ctx: CheckContext): string {
  const view = ctx.podRelist;
  const gate = ctx.onDemandRelist;
  const gateText = gate === undefined ? '' : `PLEGOnDemandRelist ${gate.enabled ? 'on' : 'off'} (${gateSource(gate.source)})`;
  if (view === undefined) return gateText === '' ? '' : `; ${gateText}`;
  const also = gateText === '' ? '' : `, ${gateText}`;
  if (view.p99Seconds === undefined) return `; no per-pod relist finished ${windowText(view)}${also}`;
  return `; per-pod relists p99 ${seconds(view.p99Seconds)} (${view.histogram.count} ${windowText(view)})${also}`;
}

export const relistLatencyCheck: Check = {
  id: 'relist-latency',
  title: 'Slow relists (KubeletPlegDurationHigh)',
  run(ctx: CheckContext): CheckOutcome {
    const relist = ctx.relist;
    const podRelist = ctx.podRelist;
    if (relist === undefined && podRelist === undefined) {
      return noEvidence(ctx.metrics !== undefined ? `this kubelet exposes no ${GLOBAL}` : missingNote(ctx.evidence, 'metrics'));
    }
    const p99 = relist?.p99Seconds;
    const podP99 = podRelist?.p99Seconds;
    const slow = p99 !== undefined && p99 >= RELIST_P99_ALERT_SECONDS;
    const podSlow = podP99 !== undefined && podP99 >= RELIST_P99_ALERT_SECONDS;
    if (!slow && !podSlow) {
      const hanging = ctx.plegUnhealthy ? '; a relist hanging now is not counted until it ends (see PLEG health)' : '';
      if (relist === undefined) return clear(`no ${GLOBAL}${perPodNote(ctx)}`);
      if (p99 === undefined) return clear(`no relist finished ${windowText(relist)}${ctx.plegUnhealthy ? ' (a hanging relist is not counted until it ends)' : ''}${perPodNote(ctx)}`);
      return clear(`p99 ${seconds(p99)} < 10s (${relist.histogram.count} relists ${windowText(relist)})${perPodNote(ctx)}${hanging}`);
    }
    const evidence: EvidenceLine[] = [];
    if (relist !== undefined && p99 !== undefined) evidence.push(line(GLOBAL, relist, p99, 'relists'));
    if (podRelist !== undefined && podP99 !== undefined) evidence.push(line(PER_POD, podRelist, podP99, 'per-pod relists'));
    if (podSlow && ctx.onDemandRelist !== undefined) {
      evidence.push({ origin: ctx.onDemandRelist.source === 'configz' ? 'configz' : 'metrics', text: `${quoted(`PLEGOnDemandRelist: ${String(ctx.onDemandRelist.enabled)}`)} (${gateSource(ctx.onDemandRelist.source)})` });
    }
    const perPodSummary =
      'Since 1.36 the kubelet also relists one pod right after syncing it; that per-pod relist holds the ' +
      'lock the periodic relist needs, so every second it spends inspecting a slow pod delays the next ' +
      'relist and the "last seen active" age by as much.';
    return found({
      severity: 'warning',
      title: slow
        ? `Relists are slow: p99 ${seconds(p99)} ≥ 10s (KubeletPlegDurationHigh)${podSlow ? `; per-pod relists p99 ${seconds(podP99)}` : ''}`
        : `Per-pod relists are slow: p99 ${seconds(podP99 ?? 0)} ≥ 10s, and each one holds the relist lock`,
      summary: slow
        ? 'At least 1 % of relists take 10 seconds or more. Each relist lists every container and inspects ' +
          'changed pods one after another; a relist that grows past 3 minutes makes the node NotReady.' +
          (podSlow ? ` ${perPodSummary}` : '')
        : `At least 1 % of per-pod relists take 10 seconds or more. ${perPodSummary} One pod whose status ` +
          'calls are slow shows here before the periodic relist stalls.',
      evidence,
      remediation: [
        { text: 'Compare with the CRI operation latencies to see which call is slow', gate: 'readOnly', command: 'kubectl get --raw "/api/v1/nodes/NODE_NAME/proxy/metrics" | grep kubelet_runtime_operations_duration_seconds_sum' },
        ...(podSlow
          ? [{ text: 'Compare the per-pod and the periodic relist histograms', gate: 'readOnly' as const, command: 'kubectl get --raw "/api/v1/nodes/NODE_NAME/proxy/metrics" | grep -E "kubelet_pleg_(pod_)?relist_duration_seconds_(sum|count)"' }]
          : []),
      ],
      refs: ['kubernetes/kubernetes#87108', 'kubernetes-monitoring/kubernetes-mixin alerts/kubelet.libsonnet', ...(podSlow ? ['kubernetes/kubernetes#137362'] : [])],
    });
  },
};

function gateSource(source: 'metrics' | 'configz' | 'versionDefault'): string {
  if (source === 'metrics') return 'kubernetes_feature_enabled';
  return source === 'configz' ? 'the kubelet config' : 'the default of this kubelet version';
}
