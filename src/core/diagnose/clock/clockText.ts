// How capture times read in notes and evidence lines: UTC, to the millisecond only where it means something.

/** `2026-11-22T03:05:44.403Z` → `2026-11-22T03:05:44Z`; milliseconds are noise in a window's text. */
export function isoSeconds(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** `03:05:44.403Z`: for two ends of a window on one day. */
export function isoMillis(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  return new Date(ms).toISOString();
}
