// The kubernetes-mixin alert KubeletPlegDurationHigh: p99 of `kubelet_pleg_relist_duration_seconds` ≥ 10 s
// (for 5 min). A sample is only recorded when a relist finishes (#87108), so a relist that is hanging right
// now is not in it: read with `kubelet_pleg_last_seen_seconds` (the "PLEG health" check) for that.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import { missingNote } from '../sourceNotes';
import { quoted, seconds } from '../textFormat';

export const RELIST_P99_ALERT_SECONDS = 10;

export const relistLatencyCheck: Check = {
  id: 'relist-latency',
  title: 'Slow relists (KubeletPlegDurationHigh)',
  run(ctx: CheckContext): CheckOutcome {
    const relist = ctx.relist;
    if (relist === undefined) {
      return noEvidence(ctx.metrics !== undefined ? 'this kubelet exposes no kubelet_pleg_relist_duration_seconds' : missingNote(ctx.evidence, 'metrics'));
    }
    const window = relist.window === 'interval' ? 'between the scrapes' : 'since the kubelet started';
    const p99 = relist.p99Seconds;
    if (p99 === undefined) return clear(`no relist finished ${window}${ctx.plegUnhealthy ? ' (a hanging relist is not counted until it ends)' : ''}`);
    const text = `${quoted('kubelet_pleg_relist_duration_seconds')} p99 = ${seconds(p99)} over ${relist.histogram.count} relists ${window}`;
    if (p99 < RELIST_P99_ALERT_SECONDS) {
      const hanging = ctx.plegUnhealthy ? '; a relist hanging now is not counted until it ends (see PLEG health)' : '';
      return clear(`p99 ${seconds(p99)} < 10s (${relist.histogram.count} relists ${window})${hanging}`);
    }
    return found({
      severity: 'warning',
      title: `Relists are slow: p99 ${seconds(p99)} ≥ 10s (KubeletPlegDurationHigh)`,
      summary:
        'At least 1 % of relists take 10 seconds or more. Each relist lists every container and inspects ' +
        'changed pods one after another; a relist that grows past 3 minutes makes the node NotReady.',
      evidence: [{ origin: relist.window === 'interval' ? 'metricsLater' : 'metrics', text }],
      remediation: [
        { text: 'Compare with the CRI operation latencies to see which call is slow', gate: 'readOnly', command: 'kubectl get --raw "/api/v1/nodes/NODE_NAME/proxy/metrics" | grep kubelet_runtime_operations_duration_seconds_sum' },
      ],
      refs: ['kubernetes/kubernetes#87108', 'kubernetes-monitoring/kubernetes-mixin alerts/kubelet.libsonnet'],
    });
  },
};
