// Compact ages for tree descriptions ("for 12m"). One unit only, floored, so that a description changes
// at most once a minute for the first hour and the e2e suite can compare it exactly.

import type { Localize } from './localize';

export function formatAge(seconds: number, t: Localize): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  if (s < 60) return t('{0}s', s);
  if (s < 3600) return t('{0}m', Math.floor(s / 60));
  if (s < 86_400) return t('{0}h', Math.floor(s / 3600));
  return t('{0}d', Math.floor(s / 86_400));
}

/** Seconds from an ISO 8601 time (or Date) to now; undefined when absent or unparsable. */
export function secondsSince(when: string | Date | undefined, now: Date): number | undefined {
  if (when === undefined) return undefined;
  const ms = when instanceof Date ? when.getTime() : Date.parse(when);
  if (Number.isNaN(ms)) return undefined;
  return Math.max(0, (now.getTime() - ms) / 1000);
}
