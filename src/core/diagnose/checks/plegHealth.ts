// The symptom, as the kubelet itself reports it: the Ready message (R1/R2/R3) and, when /metrics answered,
// `now − kubelet_pleg_last_seen_seconds`, which is the live figure (the Ready message is up to 10 s old).
// Unhealthy means strictly more than 3 min (docs/pleg-health.md, row 5): 3m0s is still healthy. The causes are
// other checks' findings; this one states the symptom once. The metric's age is measured against the clock
// plegAge.ts names (the collector's, or what a copied folder's files say about their capture): an age range
// that straddles 3 minutes, or one the node's other evidence contradicts, is unknown, never a failure.
// The kubelet log, when read, adds the PLEG stretch with its line numbers; where the log (read with the
// rest) shows a recovery the other sources missed, or PLEG unhealthy at its end while they say healthy,
// the finding says so as a warning instead of failing on one side; and a healthy node whose log holds PLEG
// stretches gets them as history.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import { PLEG_THRESHOLD_SECONDS, plegFreshByMetric, plegStaleByMetric, type CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { notReadyHistoryLine, plegStretchLine, plegUnhealthyAtLogEnd, recoveryInLog } from '../logSignals';
import { plegAgeLine, plegAgeText, readyLine, relistGoroutineLine } from '../signals';
import { missingNote } from '../sourceNotes';
import { age, plural } from '../textFormat';

const REFS = ['kubernetes/kubernetes#45419', 'gardener/gardener#844', 'kubernetes/kubernetes#77728'];
const NO_RESTART_LOOPS = {
  text: 'Do not automate restarts or reboots on counting "PLEG is not healthy" lines: that caused reboot loops (gardener #844) and a kubelet restart often helps only briefly (#77728). Fix the cause.',
  gate: 'readOnly',
} as const;

/** The log's PLEG stretches as evidence: the latest in full, the others counted. */
function stretchLines(ctx: CheckContext): EvidenceLine[] {
  const log = ctx.kubeletLog;
  const latest = log?.plegStretches[log.plegStretches.length - 1];
  if (log === undefined || latest === undefined) return [];
  const lines = [plegStretchLine(latest)];
  const others = log.plegStretches.length - 1;
  if (others > 0) {
    const longest = Math.max(...log.plegStretches.map((s) => s.durationSeconds));
    lines.push({ origin: 'kubeletLog', text: `kubelet log: ${plural(others, 'earlier PLEG stretch', 'earlier PLEG stretches')} (the longest of all ${age(longest)})` });
  }
  return lines;
}

/** PLEG is healthy by the Ready message and the metric: the log may still say otherwise, or show history. */
function healthyButLog(ctx: CheckContext, healthyBecause: string): CheckOutcome | undefined {
  const log = ctx.kubeletLog;
  if (log === undefined || log.plegStretches.length === 0) return undefined;
  const lines = [...stretchLines(ctx)];
  const history = notReadyHistoryLine(log);
  if (history !== undefined) lines.push(history);
  if (log.contemporaneous && plegUnhealthyAtLogEnd(log)) {
    return found({
      severity: 'warning',
      title: 'The kubelet log shows PLEG unhealthy up to its end, but the node’s status does not',
      summary: `${healthyBecause}, yet the kubelet log read in the same collection reports "PLEG is not healthy" until its last minute. One of the two is out of date (a Ready condition the kubelet could not post, or a clock that is off): diagnose again in a minute.`,
      evidence: lines,
      remediation: [NO_RESTART_LOOPS],
      refs: REFS,
    });
  }
  return found({
    severity: 'warning',
    title: `PLEG is healthy now, but the kubelet log shows ${plural(log.plegStretches.length, 'PLEG stretch', 'PLEG stretches')}`,
    summary: `${healthyBecause}. Earlier in the log PLEG was past its 3-minute threshold: the node went NotReady and skipped every pod sync meanwhile. If it comes back, the other findings and the lines before each stretch (relist failures, runtime errors) name the cause.`,
    evidence: lines,
    remediation: [NO_RESTART_LOOPS],
    refs: REFS,
  });
}

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
        // One number for one fact: the newest reading of the relist's age (the /metrics scrape, which the
        // evidence line below gives too) before the Ready message's, which is as old as the last status post.
        const ago = metricAge ?? c.plegLastSeenAgoSeconds ?? undefined;
        const threshold = c.plegThresholdSeconds ?? PLEG_THRESHOLD_SECONDS;
        title = ago !== undefined ? `PLEG is not healthy: last relist started ${age(ago)} ago (threshold ${age(threshold)})` : 'PLEG is not healthy';
      }
      if (reportsPleg && metricHealthy) {
        lines.push({ origin: 'metrics', text: `PLEG has recovered since the Ready message was written: the last relist started ${ageText}` });
      }
      lines.push(...stretchLines(ctx));
      // A log read with the rest that shows the recovery outweighs a Ready message or a metric that does
      // not (either may be stale or skewed): a warning that says both, not a failure on one of them.
      const log = ctx.kubeletLog;
      const recovered = log !== undefined && log.contemporaneous ? recoveryInLog(log) : undefined;
      if (recovered !== undefined) {
        lines.push(recovered.evidence);
        return found({
          severity: 'warning',
          title: 'PLEG was reported unhealthy, but the kubelet log shows it recovered',
          summary:
            'The Ready condition or the PLEG metric still says PLEG is past its 3-minute threshold, while the kubelet log read in the same collection shows it healthy again: no PLEG or sync-skip line since. One of them is out of date (a status the kubelet could not post yet, or a clock that is off): diagnose again in a minute before acting.',
          evidence: lines,
          remediation: [NO_RESTART_LOOPS],
          refs: REFS,
        });
      }
      return found({
        severity: 'problem',
        title,
        summary:
          'The kubelet marks the node NotReady while its last successful relist started more than 3 minutes ' +
          'ago, and then skips every pod sync: no pod starts, stops or updates on this node (running containers ' +
          'keep running). The cause is a separate finding below, when the evidence shows one.',
        evidence: lines,
        remediation: [NO_RESTART_LOOPS],
        refs: REFS,
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
    const healthy = metricHealthy ? `The last relist started ${ageText}` : `The Ready message reports no PLEG error (Ready=${c.readyStatus})`;
    const fromLog = healthyButLog(ctx, healthy);
    if (fromLog !== undefined) return fromLog;
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
