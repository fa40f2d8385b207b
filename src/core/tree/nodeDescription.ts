// The one-line description next to a node's name, e.g. "PLEG · NotReady for 3m". It starts with the
// verdict's short name so that the e2e suite and screen readers get the verdict first.

import type { NodeClassification } from '../classify/types';
import { formatAge, secondsSince } from './humanAge';
import type { Localize } from './localize';
import { verdictShortName } from './verdictPresentation';

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

export function describeNode(c: NodeClassification, now: Date, t: Localize): string {
  const parts: string[] = [];
  if (c.verdict === 'ready') {
    // Healthy nodes carry no age: 5,000 "Ready for 3d" rows would need refreshing every tick for nothing.
    parts.push(verdictShortName('ready', t));
  } else if (c.verdict === 'not-ready-other' && c.readyStatus === 'False') {
    // The short name would only repeat "NotReady".
    parts.push(readyPhrase(c, now, t));
  } else {
    parts.push(verdictShortName(c.verdict, t), readyPhrase(c, now, t));
  }
  if (c.cordoned) parts.push(t('cordoned'));
  parts.push(...c.pressures);
  return parts.join(DESCRIPTION_SEPARATOR);
}
