// The relist-duration line breaks where no relist succeeded for a few periods, and only there.

import { describe, expect, it } from 'vitest';
import { breaksBetween } from '../../../../webview/timeline/lineGaps';

/** Indices of the non-null samples that start a new piece of line (the first always does). */
function starts(xs: number[], ys: Array<number | null>, maxGapS: number, toPx: (x: number) => number): number[] {
  const out: number[] = [];
  let prev = -1;
  ys.forEach((y, i) => {
    if (y === null) return;
    if (prev < 0 || breaksBetween(xs[i]! - xs[prev]!, toPx(xs[i]!) - toPx(xs[prev]!), maxGapS)) out.push(i);
    prev = i;
  });
  return out;
}

const px = (x: number): number => x * 10;

describe('breaksBetween', () => {
  it('breaks between successful relists further apart than the limit, across the failed ones (null) between', () => {
    // Relists every second, then a 40 s freeze with failed relists (null), then every second again.
    const xs = [1, 2, 3, 13, 23, 33, 43, 44, 45];
    const ys = [0.01, 0.01, 0.02, null, null, null, 40, 0.01, 0.01];
    expect(starts(xs, ys, 3, px)).toEqual([0, 6]);
  });

  it('joins samples within the limit, even across nulls (scrapes, failed relists)', () => {
    expect(starts([1, 1.5, 2, 2.5, 3], [0.01, null, 0.02, null, 0.01], 3, px)).toEqual([0]);
  });

  it('draws no break narrower than a few pixels (a decimated day view)', () => {
    const xs = [0, 100, 200];
    const ys = [1, 1, 1];
    expect(starts(xs, ys, 3, (x) => x / 100)).toEqual([0]);
    expect(starts(xs, ys, 3, (x) => x / 10)).toEqual([0, 1, 2]);
  });

  it('needs both: a long gap in time and on screen', () => {
    expect(breaksBetween(10, 100, 3)).toBe(true);
    expect(breaksBetween(3, 100, 3)).toBe(false);
    expect(breaksBetween(10, 3, 3)).toBe(false);
  });
});
