// The relist-duration line breaks where no relist succeeded for a few periods, and only there.

import { describe, expect, it } from 'vitest';
import { longGaps } from '../../../webview/timeline/lineGaps';

const px = (x: number): number => x * 10;

describe('longGaps', () => {
  it('breaks between successful relists further apart than the limit, across the failed ones (null) between', () => {
    // Relists every second, then a 40 s freeze with failed relists (null), then every second again.
    const xs = [1, 2, 3, 13, 23, 33, 43, 44, 45];
    const ys = [0.01, 0.01, 0.02, null, null, null, 40, 0.01, 0.01];
    expect(longGaps(xs, ys, 0, xs.length - 1, 3, px)).toEqual([[31, 429]]);
  });

  it('joins samples within the limit, even across nulls (scrapes, failed relists)', () => {
    const xs = [1, 1.5, 2, 2.5, 3];
    const ys = [0.01, null, 0.02, null, 0.01];
    expect(longGaps(xs, ys, 0, 4, 3, px)).toEqual([]);
  });

  it('draws no break narrower than a few pixels (a decimated day view)', () => {
    const xs = [0, 100, 200];
    const ys = [1, 1, 1];
    expect(longGaps(xs, ys, 0, 2, 3, (x) => x / 100)).toEqual([]);
    expect(longGaps(xs, ys, 0, 2, 3, (x) => x / 10)).toEqual([[1, 9], [11, 19]]);
  });

  it('looks only at idx0..idx1', () => {
    const xs = [0, 100, 101, 102, 300];
    const ys = [1, 1, 1, 1, 1];
    expect(longGaps(xs, ys, 1, 3, 3, px)).toEqual([]);
  });
});
