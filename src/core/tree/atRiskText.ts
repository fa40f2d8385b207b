// The tree's words for node-problem-detector's PLEGAtRisk condition: the row's countdown ("NotReady in
// ~1m25s", the same figure the report's and the timeline's headlines state: src/core/npd/atRiskCondition.ts
// computes it for all three) and the tooltip's paragraph, which also stands next to a NotReady verdict.

import type { PlegAtRisk } from '../npd/atRiskCondition';
import { atRiskCountdown, NPD_HEARTBEAT_PERIOD_S, PLEG_AT_RISK } from '../npd/atRiskCondition';
import { wholeSecondsText } from '../npd/npdPrediction';
import { formatAge } from './humanAge';
import type { Localize } from './localize';
import { codeBlock, escapeMarkdown } from './markdown';
import type { ClockOptions } from './timeText';
import { formatWhen } from './timeText';

/** "NotReady in ~1m25s", "NotReady due", "as of 6m ago" (NPD silent), "NotReady predicted" (no figure). */
export function atRiskPhrase(a: PlegAtRisk, now: Date, t: Localize): string {
  const c = atRiskCountdown(a, now);
  switch (c.kind) {
    case 'in':
      return t('NotReady in ~{0}', wholeSecondsText(c.seconds));
    case 'due':
      return t('NotReady due');
    case 'stale':
      return t('as of {0} ago', formatAge(c.asOfS, t));
    case 'unknown':
      return t('NotReady predicted');
  }
}

/** The tooltip's paragraph on PLEGAtRisk: status, NPD's message verbatim, and how live the countdown is. */
export function atRiskTooltip(a: PlegAtRisk, now: Date, t: Localize, clock?: ClockOptions): string {
  const when = formatWhen(a.since, now, t, clock);
  const head =
    when === undefined
      ? t('node-problem-detector: {0}={1} ({2})', PLEG_AT_RISK, a.status, escapeMarkdown(a.reason ?? t('no reason')))
      : t('node-problem-detector: {0}={1} ({2}) since {3}', PLEG_AT_RISK, a.status, escapeMarkdown(a.reason ?? t('no reason')), escapeMarkdown(when));
  const blocks = [head];
  if (a.message !== '') blocks.push(codeBlock(a.message));
  if (a.status === 'True') {
    const c = atRiskCountdown(a, now);
    const beat = formatWhen(a.lastHeartbeat, now, t, clock) ?? '?';
    switch (c.kind) {
      case 'in':
        blocks.push(t('NotReady in ~{0}: the prediction counted from when node-problem-detector wrote it.', wholeSecondsText(c.seconds)));
        break;
      case 'due':
        blocks.push(t('The predicted NotReady is due: the prediction counted from when node-problem-detector wrote it has run out.'));
        break;
      case 'stale':
        blocks.push(
          t(
            'Not a live countdown: node-problem-detector last synced this condition {0}, longer ago than its heartbeat period ({1}); it may have stopped. The condition is as of then.',
            escapeMarkdown(beat),
            wholeSecondsText(NPD_HEARTBEAT_PERIOD_S),
          ),
        );
        break;
      case 'unknown':
        blocks.push(t('No countdown: the message carries no prediction, or the condition no lastTransitionTime.'));
        break;
    }
  }
  return blocks.join('\n\n');
}
