// The path builder for the top chart's lines. Two things make uPlot's own linear builder slow here:
// - With decimated columns it walks every row of every series, skipping the other series' nulls one by
//   one. This builder walks the series' own picks instead (decimate.ts, OwnPoints): about 2,700 points
//   for a day, not 5,000 rows per series. With the full data in view it walks the rows itself.
// - Without a GPU the frame's commit rasterizes the strokes in software, and a dense zigzag stroked
//   wider than one device pixel is expensive: a day's jittery durations took 22 ms at 1.5 px, and
//   every line took 2-6 times longer on a HiDPI screen (1 CSS px is 2 device px). One device pixel is
//   a hairline, which Skia draws fast. So every line is stroked as a hairline, and a wider line is
//   that hairline copied side by side: 1, 3 or 5 copies in a plus shape for 1, 2 or 3 device px.
// Breaks follow lineGaps.ts (breaksBetween), given `breakAfterS`.

import type uPlot from 'uplot';
import type { OwnPoints } from './decimate';
import { copyOffsets } from './hairlineCopies';
import { breaksBetween } from './lineGaps';
import { lowerBound } from './lowerBound';

export interface LineOptions {
  /** The line's width in CSS px (read at each build: it may change with the data's density). */
  cssWidth: () => number;
  /** Break the line between points further apart than this (s); no breaks when absent. */
  breakAfterS?: () => number;
}

/** The series' stroke width to give uPlot: one device pixel, so its stroke is a hairline. */
export function hairline(): number {
  return 1 / devicePixelRatio;
}

/**
 * Canvas position of a value on one scale, as an affine map: uPlot's position is linear in the value
 * (distr 1) or in its log10 (distr 3, the duration axis), so two of its own valToPos calls fix the map.
 * Written out, it costs a multiply per point instead of a call through the scale's lookup.
 */
function affinePosition(u: uPlot, scale: string): (v: number) => number {
  const distr = u.scales[scale]?.distr ?? 1;
  if (distr === 3) {
    const at1 = u.valToPos(1, scale, true);
    const per = u.valToPos(10, scale, true) - at1;
    return (v) => at1 + per * Math.log10(v);
  }
  if (distr !== 1) return (v) => u.valToPos(v, scale, true);
  const at0 = u.valToPos(0, scale, true);
  const per = u.valToPos(1, scale, true) - at0;
  return (v) => at0 + per * v;
}

/** The drawn points of the last build, reused: a fresh array per build was most of a redraw's garbage. */
let pxs = new Float64Array(4096);
let pys = new Float64Array(4096);
let starts = new Uint8Array(4096);

function ensureRoom(n: number): void {
  if (pxs.length >= n) return;
  const size = 2 ** Math.ceil(Math.log2(n));
  pxs = new Float64Array(size);
  pys = new Float64Array(size);
  starts = new Uint8Array(size);
}

export function ownLinePaths(own: (seriesIdx: number) => OwnPoints | undefined, options: LineOptions): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const yScale = u.series[seriesIdx]?.scale;
    const { min, max } = u.scales['x'] ?? {};
    if (yScale === undefined || min === undefined || max === undefined || min === null || max === null) return null;
    // The series' own picks, or its non-null rows of the full data.
    const points = own(seriesIdx);
    const xs: ArrayLike<number> = points?.xs ?? u.data[0];
    const ys: ArrayLike<number | null | undefined> = points?.ys ?? (u.data[seriesIdx] as ArrayLike<number | null | undefined>);
    // One point past each edge, so lines leave the plot as they would with every point drawn.
    let from: number;
    let to: number;
    if (points !== undefined) {
      from = Math.max(0, lowerBound(xs.length, (i) => xs[i]! < min) - 1);
      to = Math.min(xs.length, lowerBound(xs.length, (i) => xs[i]! <= max) + 1);
    } else {
      // The rows hold other series' samples too: back and forth to this series' nearest sample.
      from = Math.max(0, idx0 - 1);
      while (from > 0 && (ys[from] === null || ys[from] === undefined)) from--;
      to = Math.min(xs.length, idx1 + 2);
      while (to < xs.length && (ys[to - 1] === null || ys[to - 1] === undefined)) to++;
    }
    const maxGapS = options.breakAfterS?.() ?? Number.POSITIVE_INFINITY;
    const xPos = affinePosition(u, 'x');
    const yPos = affinePosition(u, yScale);
    ensureRoom(to - from);
    let n = 0;
    let prevX = Number.NaN;
    let prevPx = Number.NaN;
    for (let i = from; i < to; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      const x = xs[i]!;
      const xPx = xPos(x);
      starts[n] = n === 0 || breaksBetween(x - prevX, xPx - prevPx, maxGapS) ? 1 : 0;
      pxs[n] = Math.round(xPx);
      pys[n] = Math.round(yPos(y));
      n++;
      prevX = x;
      prevPx = xPx;
    }
    const stroke = new Path2D();
    for (const [dx, dy] of copyOffsets(options.cssWidth() * devicePixelRatio)) {
      for (let k = 0; k < n; k++) {
        if (starts[k] === 1) stroke.moveTo(pxs[k]! + dx, pys[k]! + dy);
        else stroke.lineTo(pxs[k]! + dx, pys[k]! + dy);
      }
    }
    return { stroke, fill: null, clip: null, band: null, flags: 0 };
  };
}
