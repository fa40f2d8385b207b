// A line's points in whole device pixels, with the points that change no pixel left out: a repeat of the
// point before it, and the middle of three points on one horizontal or vertical run that goes one way.
// A decimated day keeps four points per pixel column and series, yet in normal operation the health
// quantity and the kubelet's last-seen age stay within a pixel or two of the axis for hours: most of those
// points repeat their neighbours, and each costs a lineTo to build and a segment to rasterize. Kept in
// reused typed arrays (a fresh array per build was most of a redraw's garbage). Pure (no DOM).

export class PixelPolyline {
  xs = new Float64Array(4096);
  ys = new Float64Array(4096);
  /** 1 where a new piece starts (moveTo), 0 where the point continues the piece (lineTo). */
  starts = new Uint8Array(4096);
  length = 0;

  /** Empties the line, with room for `n` points. */
  reset(n: number): void {
    this.length = 0;
    if (this.xs.length >= n) return;
    const size = 2 ** Math.ceil(Math.log2(n));
    this.xs = new Float64Array(size);
    this.ys = new Float64Array(size);
    this.starts = new Uint8Array(size);
  }

  /** Adds the point (x, y) (whole pixels), starting a new piece there when `start`. */
  push(x: number, y: number, start: boolean): void {
    const { xs, ys, starts } = this;
    const n = this.length;
    if (!start && n > 0) {
      const lx = xs[n - 1]!;
      const ly = ys[n - 1]!;
      if (lx === x && ly === y) return;
      // The last point continues a segment from the one before: drop it when it is on the way.
      if (n > 1 && starts[n - 1] === 0) {
        const ax = xs[n - 2]!;
        const ay = ys[n - 2]!;
        const horizontal = ay === ly && ly === y && (lx - ax) * (x - lx) >= 0;
        const vertical = ax === lx && lx === x && (ly - ay) * (y - ly) >= 0;
        if (horizontal || vertical) {
          xs[n - 1] = x;
          ys[n - 1] = y;
          return;
        }
      }
    }
    xs[n] = x;
    ys[n] = y;
    starts[n] = start || n === 0 ? 1 : 0;
    this.length = n + 1;
  }
}
