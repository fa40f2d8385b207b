// Times in the timeline's words are UTC, as its chart's axis. A time on another day than the moment it is
// said of carries its date: "Ready=True since 16:39:14 UTC" must not stand for sixteen days ago.

/** "16:39:14 UTC", or "2026-11-12 16:39:14 UTC" when `epochMs` is not on the UTC day of `refEpochMs`. */
export function utcClock(epochMs: number, refEpochMs?: number): string {
  const iso = new Date(epochMs).toISOString();
  const sameDay = refEpochMs === undefined || new Date(refEpochMs).toISOString().slice(0, 10) === iso.slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 19)} UTC`;
}
