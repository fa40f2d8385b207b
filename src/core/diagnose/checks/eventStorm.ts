// Root cause 6: rollouts churn pods faster than the serial per-pod status refresh can follow (#95750).
// Any rise of `kubelet_pleg_discard_events` means the 1000-event channel saturated (or its consumer
// stalled) and events were dropped. A high rate of status calls between the scrapes shows the churn itself.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { STATUS_OPERATIONS, operation } from '../signals';
import { missingNote } from '../sourceNotes';
import { quoted, seconds } from '../textFormat';

/** Status calls per second that mean many pods change every relist (a healthy node makes a handful). */
export const CHURN_STATUS_CALLS_PER_SECOND = 20;

export const eventStormCheck: Check = {
  id: 'event-storm',
  title: 'Event storm during rollouts',
  run(ctx: CheckContext): CheckOutcome {
    const m = ctx.metrics;
    if (m === undefined) return noEvidence(missingNote(ctx.evidence, 'metrics'));
    const lines: EvidenceLine[] = [];
    const name = quoted('kubelet_pleg_discard_events');
    if (ctx.discardDelta !== undefined && ctx.discardDelta > 0) {
      lines.push({ origin: 'metricsLater', text: `${name} rose by ${ctx.discardDelta}${ctx.intervalSeconds !== undefined ? ` in ${seconds(ctx.intervalSeconds)}` : ''} (now ${m.plegDiscardEvents ?? '?'})` });
    } else if (ctx.earlierMetrics === undefined && (m.plegDiscardEvents ?? 0) > 0) {
      lines.push({ origin: 'metrics', text: `${name} = ${m.plegDiscardEvents ?? 0} since the kubelet started (one scrape: no rate)` });
    }
    if (ctx.intervalSeconds !== undefined && ctx.intervalSeconds > 0) {
      const calls = STATUS_OPERATIONS.reduce((sum, n) => sum + (operation(ctx, n)?.totalDelta ?? 0), 0);
      const rate = calls / ctx.intervalSeconds;
      if (rate >= CHURN_STATUS_CALLS_PER_SECOND) {
        lines.push({ origin: 'metricsLater', text: `${calls} pod and container status calls in ${seconds(ctx.intervalSeconds)} (${Math.round(rate)}/s): many pods change on every relist` });
      }
    }
    if (lines.length === 0) {
      const discards = m.plegDiscardEvents ?? 0;
      return clear(ctx.earlierMetrics !== undefined ? `no PLEG event discarded between the scrapes (${discards} since start)` : `no PLEG event discarded since the kubelet started`);
    }
    return found({
      cause: 6,
      severity: ctx.plegUnhealthy ? 'problem' : 'warning',
      title: ctx.discardDelta !== undefined && ctx.discardDelta > 0 ? 'PLEG is dropping events: its channel is full' : 'Pod churn on the node is high',
      summary:
        'The relist refreshes the status of every changed pod one after another, and hands events to a ' +
        '1000-slot channel. During large rollouts the relist grows long and, once the channel is full, events ' +
        'are dropped, so pod updates arrive late.',
      evidence: lines,
      remediation: [
        { text: 'Throttle rollouts (maxSurge / maxUnavailable) and spread pods across nodes', gate: 'readOnly' },
        { text: 'Watch the relist duration and discards while a rollout runs', gate: 'readOnly', command: 'kubectl get --raw "/api/v1/nodes/NODE_NAME/proxy/metrics" | grep -E "kubelet_pleg_(discard|relist_duration)"' },
      ],
      refs: ['kubernetes/kubernetes#95750', 'kubernetes/kubernetes#95816'],
    });
  },
};
