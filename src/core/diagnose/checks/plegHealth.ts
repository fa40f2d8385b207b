// The symptom, as the kubelet itself reports it: the Ready message (R1/R2/R3) and, when /metrics answered,
// `now − kubelet_pleg_last_seen_seconds`, which is the live figure (the Ready message is up to 10 s old).
// Unhealthy means strictly more than 3 min (field guide §1 item 6): 3m0s is still healthy. The causes are
// other checks' findings; this one states the symptom once.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import { PLEG_THRESHOLD_SECONDS, type CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { plegAgeLine, readyLine, relistGoroutineLine } from '../signals';
import { missingNote } from '../sourceNotes';
import { age } from '../textFormat';

export const plegHealthCheck: Check = {
  id: 'pleg-health',
  title: 'PLEG health as the kubelet reports it',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const metricAge = ctx.plegLastSeenAgeSeconds;
    const metricUnhealthy = metricAge !== undefined && metricAge > PLEG_THRESHOLD_SECONDS;
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
      if (!reportsPleg) title = `PLEG is unhealthy: the last relist started ${age(metricAge ?? 0)} ago (the Ready condition has not caught up yet)`;
      else if (evented) title = 'EventedPLEG is not healthy: its event channel is full';
      else if (never) title = 'PLEG is not healthy: no relist has succeeded since the kubelet started';
      else {
        const ago = c.plegLastSeenAgoSeconds ?? metricAge;
        const threshold = c.plegThresholdSeconds ?? PLEG_THRESHOLD_SECONDS;
        title = ago !== undefined ? `PLEG is not healthy: last relist started ${age(ago)} ago (threshold ${age(threshold)})` : 'PLEG is not healthy';
      }
      if (reportsPleg && metricAge !== undefined && !metricUnhealthy) {
        lines.push({ origin: 'metrics', text: `PLEG has recovered since the Ready message was written: the last relist started ${age(metricAge)} ago` });
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

    if (c.verdict === 'lease-lost') {
      return metricAge !== undefined
        ? clear(`Ready=Unknown, but the last relist started ${age(metricAge)} ago (≤ 3m0s)`)
        : noEvidence(`Ready=Unknown: the kubelet stopped posting status, so its PLEG state is unknown; ${missingNote(ctx.evidence, 'metrics')}`);
    }
    if (c.readyStatus === 'missing' && metricAge === undefined) {
      return noEvidence(`no Ready condition; ${missingNote(ctx.evidence, 'metrics')}`);
    }
    if (c.verdict === 'startup') return clear('no relist has succeeded yet, but the kubelet started less than 3 min ago (see "Kubelet still starting")');
    if (metricAge !== undefined) return clear(`last relist started ${age(metricAge)} ago (healthy up to and including 3m0s)`);
    return clear(`the Ready message reports no PLEG error (Ready=${c.readyStatus})`);
  },
};
