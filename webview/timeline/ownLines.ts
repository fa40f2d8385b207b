// A line path builder for the top chart's series when it draws decimated columns: the line is built from
// the series' own picks (decimate.ts, OwnPoints), so each series walks its own ~2,700 points of a day
// instead of every row of every series (uPlot's builder skips the other series' nulls one by one, which
// was most of a live update's script time). With the full data in view it is uPlot's own linear builder.
// Breaks follow lineGaps.ts: between consecutive points more than `breakAfterS()` apart and more than
// `minBreakPx` apart on screen.

import uPlot from 'uplot';
import type { OwnPoints } from './decimate';
import { lowerBound } from './lowerBound';

export function ownLinePaths(own: (seriesIdx: number) => OwnPoints | undefined, breakAfterS?: () => number, minBreakPx = 3): uPlot.Series.PathBuilder {
  const linear = uPlot.paths.linear!();
  return (u, seriesIdx, idx0, idx1) => {
    const points = own(seriesIdx);
    const yScale = u.series[seriesIdx]?.scale;
    const { min, max } = u.scales['x'] ?? {};
    if (points === undefined || yScale === undefined || min === undefined || max === undefined) return linear(u, seriesIdx, idx0, idx1);
    const { xs, ys } = points;
    // One point past each edge, so lines leave the plot as they would with the full data.
    const from = Math.max(0, lowerBound(xs.length, (i) => xs[i]! < min) - 1);
    const to = Math.min(xs.length, lowerBound(xs.length, (i) => xs[i]! <= max) + 1);
    const maxGapS = breakAfterS?.() ?? Number.POSITIVE_INFINITY;
    const stroke = new Path2D();
    let prevX = Number.NaN;
    let prevPx = Number.NaN;
    for (let i = from; i < to; i++) {
      const x = xs[i]!;
      const px = u.valToPos(x, 'x', true);
      const py = Math.round(u.valToPos(ys[i]!, yScale, true));
      if (i === from || (x - prevX > maxGapS && px - prevPx > minBreakPx)) stroke.moveTo(Math.round(px), py);
      else stroke.lineTo(Math.round(px), py);
      prevX = x;
      prevPx = px;
    }
    return { stroke, fill: null, clip: null, band: null, flags: 0 };
  };
}
