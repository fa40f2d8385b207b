// Where a relist-duration line must break: between two successful relists further apart than a few relist
// periods, nothing was measured (the runtime hung, relists failed), and a straight line across would draw
// a gradual slowdown that never happened. Pure; the chart turns the result into uPlot's clip gaps.

/** How many relist periods without a successful relist make a break in the line. */
export const BREAK_AFTER_PERIODS = 3;

/**
 * Pixel ranges [from, to] to leave undrawn in ys[idx0..idx1]: between consecutive non-null samples more
 * than `maxGapS` apart and more than `minPx` apart on screen (closer than that, a break is invisible and
 * a decimated day view would be all breaks).
 */
export function longGaps(xs: ArrayLike<number>, ys: ArrayLike<number | null | undefined>, idx0: number, idx1: number, maxGapS: number, toPx: (x: number) => number, minPx = 3): Array<[number, number]> {
  const gaps: Array<[number, number]> = [];
  let prev = -1;
  for (let i = Math.max(0, idx0); i <= idx1 && i < xs.length; i++) {
    const y = ys[i];
    if (y === null || y === undefined) continue;
    if (prev >= 0 && xs[i]! - xs[prev]! > maxGapS) {
      const from = toPx(xs[prev]!);
      const to = toPx(xs[i]!);
      if (to - from > minPx) gaps.push([from + 1, to - 1]);
    }
    prev = i;
  }
  return gaps;
}
