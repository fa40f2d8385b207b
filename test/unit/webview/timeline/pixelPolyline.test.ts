// A line in whole pixels with the points that change no pixel left out: it must cover exactly the
// pixels the full line covers, and be no longer.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PixelPolyline } from '../../../../webview/timeline/pixelPolyline';

type Point = [number, number, boolean];

/**
 * The pixels a polyline's segments pass through (Bresenham), as "x,y" keys. A segment of zero length draws
 * nothing, as on a canvas (butt caps), and so does a piece's lone point.
 */
function coverage(points: ReadonlyArray<Point>): Set<string> {
  const out = new Set<string>();
  for (let k = 1; k < points.length; k++) {
    const [x1, y1, start] = points[k]!;
    if (start) continue;
    let [x0, y0] = points[k - 1]!;
    if (x0 === x1 && y0 === y1) continue;
    const dx = Math.abs(x1 - x0);
    const dy = -Math.abs(y1 - y0);
    const sx = x0 < x1 ? 1 : -1;
    const sy = y0 < y1 ? 1 : -1;
    let err = dx + dy;
    for (;;) {
      out.add(`${x0},${y0}`);
      if (x0 === x1 && y0 === y1) break;
      const e2 = 2 * err;
      if (e2 >= dy) {
        err += dy;
        x0 += sx;
      }
      if (e2 <= dx) {
        err += dx;
        y0 += sy;
      }
    }
  }
  return out;
}

function simplified(points: ReadonlyArray<Point>): Point[] {
  const line = new PixelPolyline();
  line.reset(points.length);
  for (const [x, y, start] of points) line.push(x, y, start);
  return Array.from({ length: line.length }, (_v, k) => [line.xs[k]!, line.ys[k]!, line.starts[k] === 1]);
}

describe('pixel polyline', () => {
  it('drops repeats and the middles of straight horizontal and vertical runs, keeps turns and breaks', () => {
    const points: Point[] = [
      [0, 5, true],
      [1, 5, false],
      [1, 5, false], // a repeat
      [2, 5, false],
      [3, 5, false], // the run 0..3 at y 5 is one segment
      [3, 2, false],
      [3, 0, false], // down the column: one segment
      [3, 4, false], // a turn back up: kept, it covers nothing new but must not drop (3, 0)
      [4, 4, true], // a break
      [4, 4, false], // a repeat of the break's point
    ];
    expect(simplified(points)).toEqual([
      [0, 5, true],
      [3, 5, false],
      [3, 0, false],
      [3, 4, false],
      [4, 4, true],
    ]);
  });

  it('covers exactly the pixels of the full line, with at most as many points, in the first point-sized buffer or a grown one', () => {
    const point = fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 }), fc.boolean());
    fc.assert(
      fc.property(fc.array(point, { maxLength: 80 }), (raw) => {
        const points: Point[] = raw.map(([x, y, start], k) => [x, y, start || k === 0]);
        const out = simplified(points);
        expect(out.length).toBeLessThanOrEqual(points.length);
        expect([...coverage(out)].sort()).toEqual([...coverage(points)].sort());
      }),
    );
    const long: Point[] = Array.from({ length: 10_000 }, (_v, k) => [k, k % 2, k === 0]);
    expect(simplified(long)).toHaveLength(10_000);
  });
});
