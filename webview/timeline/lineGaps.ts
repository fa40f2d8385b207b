// Where a relist-duration line must break: between two successful relists further apart than a few relist
// periods, nothing was measured (the runtime hung, relists failed), and a straight line across would draw
// a gradual slowdown that never happened. Pure; the line builder (ownLines.ts) starts a new piece there.

/** How many relist periods without a successful relist make a break in the line. */
export const BREAK_AFTER_PERIODS = 3;

/**
 * True when the line breaks between two consecutive samples `gapS` seconds and `gapPx` pixels apart: more
 * than `maxGapS` apart in time and more than `minPx` apart on screen (closer than that, a break is
 * invisible, and a decimated day view would be all breaks).
 */
export function breaksBetween(gapS: number, gapPx: number, maxGapS: number, minPx = 3): boolean {
  return gapS > maxGapS && gapPx > minPx;
}
