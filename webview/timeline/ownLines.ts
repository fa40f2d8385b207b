// The path builder for the top chart's lines: what made uPlot's own linear builder slow here, and what
// this one does instead.
// - With decimated columns it walks every row of every series, skipping the other series' nulls one by
//   one. This builder walks the series' own picks instead (decimate.ts, OwnPoints): about 2,700 points
//   for a day, not 5,000 rows per series. With the full data in view it walks the rows itself.
// - Without a GPU the frame's commit rasterizes the strokes in software, and a dense zigzag stroked
//   wider than one device pixel is expensive: a day's jittery durations took 22 ms at 1.5 px, and
//   every line took 2-6 times longer on a HiDPI screen (1 CSS px is 2 device px). One device pixel is
//   a hairline, which Skia draws fast. So every line is stroked as a hairline, and a wider line is
//   that hairline with copies shifted across it, one per further device pixel (hairlineCopies.ts).
// - The points are whole device pixels, and those that change no pixel are left out (pixelPolyline.ts).
// Breaks follow lineGaps.ts (breaksBetween), given `breakAfterS`.

import type uPlot from 'uplot';
import type { OwnPoints } from './decimate';
import { drawSideCopies } from './hairlineCopies';
import { breaksBetween } from './lineGaps';
import { lowerBound } from './lowerBound';
import { PixelPolyline } from './pixelPolyline';

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

/** The drawn points of a build, reused from build to build. */
const line = new PixelPolyline();

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
    const breaks = Number.isFinite(maxGapS);
    line.reset(to - from);
    let prevX = Number.NaN;
    let prevPx = Number.NaN;
    for (let i = from; i < to; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      const x = xs[i]!;
      const xPx = xPos(x);
      line.push(Math.round(xPx), Math.round(yPos(y)), breaks && breaksBetween(x - prevX, xPx - prevPx, maxGapS));
      prevX = x;
      prevPx = xPx;
    }
    const stroke = new Path2D();
    const { xs: lx, ys: ly, starts, length } = line;
    for (let k = 0; k < length; k++) {
      if (starts[k] === 1) stroke.moveTo(lx[k]!, ly[k]!);
      else stroke.lineTo(lx[k]!, ly[k]!);
    }
    drawSideCopies(stroke, lx, ly, starts, length, options.cssWidth() * devicePixelRatio);
    return { stroke, fill: null, clip: null, band: null, flags: 0 };
  };
}
