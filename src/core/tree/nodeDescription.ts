// The one-line description next to a node's name, e.g. "PLEG · 3m". It starts with the verdict's short
// name and stays short, so the verdict shows at the default side bar width (and the e2e suite and screen
// readers get it first); the Ready status, times and the kubelet's message are in the tooltip.

import type { NodeClassification } from '../classify/types';
import type { FlapSummary } from './flapHistory';
import { flapCountText, isFlapping } from './flapHistory';
import { formatAge, secondsSince } from './humanAge';
import type { Localize } from './localize';
import { verdictShortName } from './verdictPresentation';
import { atRiskPhrase } from './atRiskText';
import type { PlegAtRisk } from '../npd/atRiskCondition';

export const DESCRIPTION_SEPARATOR = ' · ';

/** "NotReady for 3m", "Unknown for 40s", "Ready", ... from the Ready condition alone. */
export function readyPhrase(c: NodeClassification, now: Date, t: Localize): string {
  const seconds = secondsSince(c.since, now);
  const age = seconds === undefined ? undefined : formatAge(seconds, t);
  switch (c.readyStatus) {
    case 'True':
      return age === undefined ? t('Ready') : t('Ready for {0}', age);
    case 'False':
      return age === undefined ? t('NotReady') : t('NotReady for {0}', age);
    case 'Unknown':
      return age === undefined ? t('Unknown') : t('Unknown for {0}', age);
    case 'missing':
      return t('no Ready condition');
  }
}

/**
 * "PLEG at risk · NotReady in ~1m25s": the countdown, not the Ready age, is what an at-risk row is about.
 * The timeline's headline states the same words (src/host/timeline/timelineHeadline.ts).
 */
export function atRiskRowText(a: PlegAtRisk, now: Date, t: Localize): string {
  return [verdictShortName('pleg-at-risk', t), atRiskPhrase(a, now, t)].join(DESCRIPTION_SEPARATOR);
}

export function describeNode(c: NodeClassification, now: Date, t: Localize, flaps?: FlapSummary): string {
  const parts: string[] = [];
  const seconds = secondsSince(c.since, now);
  if (c.verdict === 'ready') {
    // Healthy nodes carry no age: 5,000 "Ready for 3d" rows would need refreshing every tick for nothing.
    // A flapping one does: "Ready · 40s · 8 flaps" says the Ready spell is a short one.
    parts.push(verdictShortName('ready', t));
    if (isFlapping(flaps) && seconds !== undefined) parts.push(formatAge(seconds, t));
  } else if (c.verdict === 'pleg-at-risk' && c.atRisk !== undefined) {
    parts.push(atRiskRowText(c.atRisk, now, t));
  } else if (c.readyStatus === 'missing') {
    parts.push(verdictShortName(c.verdict, t), t('no Ready condition'));
  } else {
    parts.push(verdictShortName(c.verdict, t));
    if (seconds !== undefined) parts.push(formatAge(seconds, t));
  }
  if (c.cordoned) parts.push(t('cordoned'));
  parts.push(...c.pressures);
  if (isFlapping(flaps)) parts.push(flapCountText(flaps, t));
  return parts.join(DESCRIPTION_SEPARATOR);
}
