// How a line wider than one device pixel is drawn as hairlines (see ownLines.ts for why): the line
// itself, and for each further device pixel of width one copy shifted a pixel across it. "Across" is
// chosen per segment: sideways (x) where the segment is steep, up or down (y) where it is flat. The
// plus shape used before (copies shifted along both axes, whatever the slope) stroked 3 copies for a
// line 2 device pixels wide (1 CSS px on a HiDPI screen) where 2 do; on a jittery relist-duration line
// that was 2.3 ms of a redraw's rasterizing. Pure (no DOM): it draws into anything with moveTo/lineTo.

export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
}

/** Offsets (device px) of the copies besides the line itself that make it `devicePx` wide, centred on it. */
export function sideOffsets(devicePx: number): number[] {
  const t = Math.max(1, Math.round(devicePx));
  const lo = -Math.floor((t - 1) / 2);
  const out: number[] = [];
  for (let d = lo; d < lo + t; d++) if (d !== 0) out.push(d);
  return out;
}

/**
 * Draws the copies that widen a polyline to `devicePx` (its points and piece starts as PixelPolyline
 * keeps them; the line itself is drawn by the caller). A copy runs on without a moveTo while the
 * segments keep the same orientation.
 */
export function drawSideCopies(sink: PathSink, xs: ArrayLike<number>, ys: ArrayLike<number>, starts: ArrayLike<number>, length: number, devicePx: number): void {
  for (const d of sideOffsets(devicePx)) {
    // The orientation of the segment this copy drew last and ends at: 1 steep, 0 flat, -1 none.
    let drawn = -1;
    for (let k = 1; k < length; k++) {
      if (starts[k] === 1) {
        drawn = -1;
        continue;
      }
      const x0 = xs[k - 1]!;
      const y0 = ys[k - 1]!;
      const x1 = xs[k]!;
      const y1 = ys[k]!;
      const steep = Math.abs(y1 - y0) > Math.abs(x1 - x0) ? 1 : 0;
      const ox = steep === 1 ? d : 0;
      const oy = steep === 1 ? 0 : d;
      if (drawn !== steep) sink.moveTo(x0 + ox, y0 + oy);
      sink.lineTo(x1 + ox, y1 + oy);
      drawn = steep;
    }
  }
}
