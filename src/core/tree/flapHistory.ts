// How often a node went NotReady lately, from its NodeNotReady events: the kubelet records one per Ready
// transition (the node controller one when the kubelet goes silent). A real event recorder folds repeats
// into one event with a count, firstTimestamp and lastTimestamp; the demo's stand-in writes one event per
// flap. Both count the same here; a folded event that began before the window counts as "at least".

import type { KubeEvent } from '../kube/objects';
import type { Localize } from './localize';

/** The window "flapped N× in 30 min" looks back over. */
export const FLAP_WINDOW_S = 30 * 60;
/** A node is shown as flapping from this many NotReady transitions in the window. */
export const FLAPPING_FROM = 2;

export interface FlapSummary {
  /** NotReady transitions in the window. */
  count: number;
  /** True when a folded event started before the window, so only part of its count could be placed in it. */
  atLeast: boolean;
  windowS: number;
}

function timeMs(value: string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function isNotReadyEvent(event: KubeEvent): boolean {
  return event.reason === 'NodeNotReady';
}

export function countFlaps(events: readonly KubeEvent[], now: Date, windowS = FLAP_WINDOW_S): FlapSummary {
  const since = now.getTime() - windowS * 1000;
  let count = 0;
  let atLeast = false;
  for (const e of events) {
    if (!isNotReadyEvent(e)) continue;
    const last = timeMs(e.lastTimestamp) ?? timeMs(e.eventTime) ?? timeMs(e.firstTimestamp);
    if (last === undefined || last < since || last > now.getTime() + 60_000) continue;
    const n = e.count !== undefined && e.count > 1 ? e.count : 1;
    const first = timeMs(e.firstTimestamp) ?? last;
    if (n > 1 && first < since) {
      // Only the last occurrence is known to fall inside the window.
      count += 1;
      atLeast = true;
    } else count += n;
  }
  return { count, atLeast, windowS };
}

export function isFlapping(summary: FlapSummary | undefined): summary is FlapSummary {
  return summary !== undefined && summary.count >= FLAPPING_FROM;
}

/** "flapped 3× in 30 min" (or "flapped ≥3× in 30 min" when the count is a lower bound). */
export function flapText(summary: FlapSummary, t: Localize): string {
  const minutes = Math.round(summary.windowS / 60);
  return summary.atLeast ? t('flapped ≥{0}× in {1} min', summary.count, minutes) : t('flapped {0}× in {1} min', summary.count, minutes);
}

/** The row's short form, "8 flaps" ("≥8 flaps" as a lower bound): a description must fit the default side
 * bar width next to the node name; the window (30 min) is in the tooltip's flap line. */
export function flapCountText(summary: FlapSummary, t: Localize): string {
  return summary.atLeast ? t('≥{0} flaps', summary.count) : t('{0} flaps', summary.count);
}

/** "3×", "≥3×" or "–" (no NotReady transition in the window): the count alone, for a table column. */
export function flapCount(summary: FlapSummary): string {
  return summary.count === 0 ? '–' : `${summary.atLeast ? '≥' : ''}${summary.count}×`;
}
