// The symptom, as the kubelet itself reports it: the Ready message (R1/R2/R3) and, when /metrics answered,
// `now − kubelet_pleg_last_seen_seconds`, which is the live figure (the Ready message is up to 10 s old).
// Unhealthy means strictly more than 3 min (field guide §1 item 6): 3m0s is still healthy. The causes are
// other checks' findings; this one states the symptom once. The metric's age is measured against the clock
// plegAge.ts names (the collector's, or what a copied folder's files say about their capture): an age range
// that straddles 3 minutes, or one the node's other evidence contradicts, is unknown, never a failure.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import { PLEG_THRESHOLD_SECONDS, plegFreshByMetric, plegStaleByMetric, type CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { plegAgeLine, plegAgeText, readyLine, relistGoroutineLine } from '../signals';
import { missingNote } from '../sourceNotes';
import { age } from '../textFormat';

export const plegHealthCheck: Check = {
  id: 'pleg-health',
  title: 'PLEG health as the kubelet reports it',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const reading = ctx.plegAge;
    const metricAge = ctx.plegLastSeenAgeSeconds ?? reading?.minSeconds;
    const metricUnhealthy = plegStaleByMetric(ctx);
    const metricHealthy = plegFreshByMetric(ctx);
    const ageText = plegAgeText(ctx) ?? '';
    const clock = reading !== undefined ? `clock: ${reading.clock}` : '';
    const lines: EvidenceLine[] = [];
    const ageLine = plegAgeLine(ctx);
    const goroutine = relistGoroutineLine(ctx);
    const reportsPleg = c.verdict === 'pleg';

    if (reportsPleg || metricUnhealthy) {
      if (c.readyStatus !== 'missing') lines.push(readyLine(ctx));
      if (ageLine !== undefined) lines.push(ageLine);
      if (goroutine !== undefined) lines.push(goroutine);
      const evented = c.errors.some((e) => e.kind === 'evented-pleg-full') && !c.errors.some((e) => e.kind === 'pleg-stale');
      const never = c.plegLastSeenAgoSeconds === null;
      let title: string;
      if (!reportsPleg) title = `PLEG is unhealthy: the last relist started ${ageText} (the Ready condition has not caught up yet)`;
      else if (evented) title = 'EventedPLEG is not healthy: its event channel is full';
      else if (never) title = 'PLEG is not healthy: no relist has succeeded since the kubelet started';
      else {
        const ago = c.plegLastSeenAgoSeconds ?? metricAge;
        const threshold = c.plegThresholdSeconds ?? PLEG_THRESHOLD_SECONDS;
        title = ago !== undefined ? `PLEG is not healthy: last relist started ${age(ago)} ago (threshold ${age(threshold)})` : 'PLEG is not healthy';
      }
      if (reportsPleg && metricHealthy) {
        lines.push({ origin: 'metrics', text: `PLEG has recovered since the Ready message was written: the last relist started ${ageText}` });
      }
      return found({
        severity: 'problem',
        title,
        summary:
          'The kubelet marks the node NotReady while its last successful relist started more than 3 minutes ' +
          'ago, and then skips every pod sync: no pod starts, stops or updates on this node (running containers ' +
          'keep running). The cause is a separate finding below, when the evidence shows one.',
        evidence: lines,
        remediation: [
          {
            text: 'Do not automate restarts or reboots on counting "PLEG is not healthy" lines: that caused reboot loops (gardener #844) and a kubelet restart often helps only briefly (#77728). Fix the cause.',
            gate: 'readOnly',
          },
        ],
        refs: ['kubernetes/kubernetes#45419', 'gardener/gardener#844', 'kubernetes/kubernetes#77728'],
      });
    }

    const undecided = reading !== undefined && !metricHealthy ? undecidedNote(ctx, ageText, clock) : undefined;
    if (c.verdict === 'lease-lost') {
      if (metricHealthy) return clear(`Ready=Unknown, but the last relist started ${ageText} (≤ 3m0s; ${clock})`);
      return noEvidence(`Ready=Unknown: the kubelet stopped posting status, so its PLEG state is unknown; ${undecided ?? missingNote(ctx.evidence, 'metrics')}`);
    }
    if (c.readyStatus === 'missing' && reading === undefined) {
      return noEvidence(`no Ready condition; ${missingNote(ctx.evidence, 'metrics')}`);
    }
    if (c.verdict === 'startup') return clear('no relist has succeeded yet, but the kubelet started less than 3 min ago (see "Kubelet still starting")');
    if (undecided !== undefined) return noEvidence(undecided);
    if (metricHealthy) return clear(`last relist started ${ageText} (healthy up to and including 3m0s; ${clock})`);
    return clear(`the Ready message reports no PLEG error (Ready=${c.readyStatus})`);
  },
};

/** Why the metric decides nothing: a doubted staleness, an age range across 3 minutes, or no clock. */
function undecidedNote(ctx: CheckContext, ageText: string, clock: string): string {
  const doubts = ctx.plegAgeDoubts ?? [];
  const started = `kubelet_pleg_last_seen_seconds says the last relist started ${ageText} (${clock})`;
  if (doubts.length > 0) return `${started}, but ${doubts.join('; ')}: the capture time is in doubt, so the age decides nothing`;
  if (ctx.plegAge?.unknownBecause !== undefined) return `${started}: without a capture time the age of the last relist is unknown`;
  return `${started}: that range reaches past 3m0s, so it cannot tell healthy from unhealthy`;
}
