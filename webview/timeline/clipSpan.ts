// A time window's pixel span clipped to the plot: after a drag-zoom a window that began before the view
// (or ends after it) must stop at the plot's edges, not run over the lane labels or the right axis.

/**
 * [x0, x1) in canvas pixels, cut to [left, right); a window narrower than a pixel inside the plot stays
 * one pixel wide (it happened, it must show). Null when nothing of it is in the plot.
 */
export function clipSpan(x0: number, x1: number, left: number, right: number): [number, number] | null {
  if (!(x1 >= x0) || x1 < left || x0 >= right) return null;
  const from = Math.max(x0, left);
  const to = Math.min(Math.max(x1, from + 1), right);
  return to > from ? [from, to] : null;
}
