// The pod lanes' event marks, written as pixels into a bitmap of one pixel row per lane, then drawn onto
// the chart stretched to each lane's bar, without smoothing. A day in view puts about 2,000 marks on the
// lanes (one per pixel column and lane); drawn as that many fillRects they cost the frame's commit
// 10–15 ms of software rasterization (no GPU in code-server's headless Chromium, or on many remote
// desktops). A bitmap as tall as the plot was faster but still cost 1–2 ms a redraw to clear, fill,
// upload and blend its half million pixels; a row per lane is 1/14 of that, and a mark is three pixels.
// Marks are whole device pixels wide; a later mark covers an earlier one where they overlap.

/** A CSS colour as the 32-bit RGBA pixel an ImageData on this machine stores (its byte order). */
function pixelOf(color: string, probe: OffscreenCanvasRenderingContext2D): number {
  probe.clearRect(0, 0, 1, 1);
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  return new Uint32Array(probe.getImageData(0, 0, 1, 1).data.buffer)[0]!;
}

export class MarkLayer {
  private canvas: OffscreenCanvas | undefined;
  private ctx: OffscreenCanvasRenderingContext2D | undefined;
  private image: ImageData | undefined;
  private pixels: Uint32Array | undefined;
  /** Per row, whether anything was filled in it since begin(). */
  private used = new Uint8Array(0);
  private readonly colors = new Map<string, number>();
  private probe: OffscreenCanvasRenderingContext2D | undefined;

  /** Starts a frame of `width` device pixels and `rows` lanes, all transparent. */
  begin(width: number, rows: number): void {
    const w = Math.max(1, Math.ceil(width));
    const h = Math.max(1, rows);
    if (this.image === undefined || this.image.width !== w || this.image.height !== h) {
      this.canvas = new OffscreenCanvas(w, h);
      this.ctx = this.canvas.getContext('2d') ?? undefined;
      this.image = new ImageData(w, h);
      this.pixels = new Uint32Array(this.image.data.buffer);
      this.used = new Uint8Array(h);
    } else {
      this.pixels!.fill(0);
      this.used.fill(0);
    }
  }

  /** Fills [x, x + w) of `row` (device pixels from the layer's left, rounded) with a colour's `value` (see valueOf). */
  fill(x: number, row: number, w: number, value: number): void {
    const image = this.image;
    const pixels = this.pixels;
    if (image === undefined || pixels === undefined || row < 0 || row >= image.height) return;
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(image.width, Math.round(x + w));
    if (x0 >= x1) return;
    const start = row * image.width;
    for (let i = start + x0, end = start + x1; i < end; i++) pixels[i] = value;
    this.used[row] = 1;
  }

  /**
   * Draws what was filled since begin() onto `target`: each row with a mark stretched over
   * [top(row), top(row) + height), the layer's left edge at `left` (device pixels).
   */
  drawOnto(target: CanvasRenderingContext2D, left: number, top: (row: number) => number, height: number): void {
    const { ctx, canvas, image } = this;
    if (ctx === undefined || canvas === undefined || image === undefined || !this.used.includes(1)) return;
    ctx.putImageData(image, 0, 0);
    target.save();
    // Stretched, a row must stay its exact colours: no blending between rows or into the gap below.
    target.imageSmoothingEnabled = false;
    const x = Math.round(left);
    for (let row = 0; row < image.height; row++) {
      if (this.used[row] === 1) target.drawImage(canvas, 0, row, image.width, 1, x, Math.round(top(row)), image.width, Math.round(height));
    }
    target.restore();
  }

  /** The pixel value fill() writes for a CSS colour. */
  valueOf(color: string): number {
    let value = this.colors.get(color);
    if (value === undefined) {
      this.probe ??= new OffscreenCanvas(1, 1).getContext('2d', { willReadFrequently: true }) ?? undefined;
      if (this.probe === undefined) throw new Error('the webview cannot make a 2D canvas for the pod lanes');
      value = pixelOf(color, this.probe);
      this.colors.set(color, value);
    }
    return value;
  }
}
