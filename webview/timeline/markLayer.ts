// The pod lanes' event marks, written as pixels into one bitmap and drawn onto the chart with a single
// drawImage. A day in view puts about 2,000 marks on the lanes (one per pixel column and lane); drawn
// as that many fillRects they cost the frame's commit 10–15 ms of software rasterization (no GPU in
// code-server's headless Chromium, or on many remote desktops), as one bitmap well under 1 ms.
// Marks are whole device pixels; a later mark covers an earlier one where they overlap.

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
  private readonly colors = new Map<string, number>();
  private probe: OffscreenCanvasRenderingContext2D | undefined;
  private drawn = false;

  /** Starts a frame of `width` × `height` device pixels, all transparent. */
  begin(width: number, height: number): void {
    const w = Math.max(1, Math.ceil(width));
    const h = Math.max(1, Math.ceil(height));
    if (this.image === undefined || this.image.width !== w || this.image.height !== h) {
      this.canvas = new OffscreenCanvas(w, h);
      this.ctx = this.canvas.getContext('2d') ?? undefined;
      this.image = new ImageData(w, h);
      this.pixels = new Uint32Array(this.image.data.buffer);
    } else {
      this.pixels!.fill(0);
    }
    this.drawn = false;
  }

  /** Fills [x, x + w) × [y, y + h) (device pixels from the layer's top left, rounded) with `color`. */
  fill(x: number, y: number, w: number, h: number, color: string): void {
    const image = this.image;
    const pixels = this.pixels;
    if (image === undefined || pixels === undefined) return;
    const x0 = Math.max(0, Math.round(x));
    const x1 = Math.min(image.width, Math.round(x + w));
    const y0 = Math.max(0, Math.round(y));
    const y1 = Math.min(image.height, Math.round(y + h));
    if (x0 >= x1 || y0 >= y1) return;
    const value = this.pixel(color);
    // Marks are a few pixels wide: a plain loop, not a fill() call per row (28,000 calls for a day in view).
    for (let row = y0, start = y0 * image.width; row < y1; row++, start += image.width) {
      for (let i = start + x0, end = start + x1; i < end; i++) pixels[i] = value;
    }
    this.drawn = true;
  }

  /** Draws what was filled since begin() onto `target` with the layer's top left at (left, top). */
  drawOnto(target: CanvasRenderingContext2D, left: number, top: number): void {
    if (!this.drawn || this.ctx === undefined || this.canvas === undefined || this.image === undefined) return;
    this.ctx.putImageData(this.image, 0, 0);
    target.drawImage(this.canvas, Math.round(left), Math.round(top));
  }

  private pixel(color: string): number {
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
