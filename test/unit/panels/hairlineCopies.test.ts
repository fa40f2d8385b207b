// A line wider than one device pixel is drawn as hairline copies side by side (hairlineCopies.ts, used by ownLines.ts): the copies
// must cover the width asked for, horizontally and vertically, and never repeat an offset.

import { describe, expect, it } from 'vitest';
import { copyOffsets } from '../../../webview/timeline/hairlineCopies';

describe('copyOffsets', () => {
  it('is one copy at one device pixel or less', () => {
    expect(copyOffsets(1)).toEqual([[0, 0]]);
    expect(copyOffsets(0.4)).toEqual([[0, 0]]);
  });

  it('spans the rounded width along both axes, centred on the line, without repeats', () => {
    for (const width of [1.5, 2, 3, 4, 5]) {
      const t = Math.round(width);
      const offsets = copyOffsets(width);
      const xs = [...new Set(offsets.filter(([, dy]) => dy === 0).map(([dx]) => dx))].sort((a, b) => a - b);
      const ys = [...new Set(offsets.filter(([dx]) => dx === 0).map(([, dy]) => dy))].sort((a, b) => a - b);
      expect(xs).toHaveLength(t);
      expect(ys).toHaveLength(t);
      expect(xs.at(-1)! - xs[0]!).toBe(t - 1);
      expect(Math.abs(xs[0]! + xs.at(-1)!)).toBeLessThanOrEqual(1);
      expect(new Set(offsets.map((o) => o.join(','))).size).toBe(offsets.length);
      expect(offsets).toHaveLength(2 * t - 1);
    }
  });
});
