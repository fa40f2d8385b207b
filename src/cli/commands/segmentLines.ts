// A segment's candidate lines as the byte scanner found them, still bytes: what a scan thread hands to the
// main thread, which classifies them (lineShapeMemo.ts) as it sequences. Classifying in one thread pays
// the classifier's warm-up once (3.3 µs a line over a fresh thread's first 25,000 lines, 0.8 µs once V8
// has compiled it), and the hand-over is three typed arrays moved to the other thread without a copy.
// Their memory goes back to the thread that filled them, to be filled again: on the machine this is tuned
// for, touching fresh memory costs about 3.5 ms a megabyte.

/** Line i is bytes[spans[2i], spans[2i + 1]) and is line at[i] of the segment (0-based). */
export interface SegmentLines {
  index: number;
  /** Lines in the segment (a last line without \n counts). */
  lines: number;
  /** Candidate lines held. */
  count: number;
  at: Int32Array;
  spans: Int32Array;
  bytes: Buffer;
}

/** The arrays of a SegmentLines, to be filled again. */
export interface LineBuffers {
  at: Int32Array;
  spans: Int32Array;
  bytes: Buffer;
}

/** A 4 MiB segment of a kubelet journal holds some 200 candidate lines of a few hundred bytes. */
const FIRST_LINES = 256;
const FIRST_BYTES = 64 * 1024;

/** Buffers of their own (never a slice of Node's shared pool), so they can be transferred. */
export function newLineBuffers(lines = FIRST_LINES, bytes = FIRST_BYTES): LineBuffers {
  return { at: new Int32Array(lines), spans: new Int32Array(2 * lines), bytes: Buffer.from(new ArrayBuffer(bytes)) };
}

/** Gathers one segment's candidate lines into LineBuffers, growing them when full. */
export class LineCollector {
  private buffers: LineBuffers = newLineBuffers(1, 16);
  private count = 0;
  private used = 0;
  /** Lines seen so far in the segment. */
  lines = 0;

  /** Starts a segment in `buffers` (a recycled set, or fresh ones). */
  start(buffers: LineBuffers): void {
    this.buffers = buffers;
    this.count = 0;
    this.used = 0;
    this.lines = 0;
  }

  /** The line src[start, end) is the next line of the segment, a candidate. */
  addBytes(src: Buffer, start: number, end: number): void {
    this.room(end - start);
    src.copy(this.buffers.bytes, this.used, start, end);
    this.record(this.used + end - start);
  }

  /** The next line, already decoded (the scanner's JS path, a carried or overlong line): kept as UTF-8. */
  addString(line: string): void {
    this.room(Buffer.byteLength(line, 'utf8'));
    this.record(this.used + this.buffers.bytes.write(line, this.used, 'utf8'));
  }

  skip(n: number): void {
    this.lines += n;
  }

  finish(index: number): SegmentLines {
    const { at, spans, bytes } = this.buffers;
    return { index, lines: this.lines, count: this.count, at, spans, bytes };
  }

  private record(end: number): void {
    const b = this.buffers;
    b.at[this.count] = this.lines;
    b.spans[2 * this.count] = this.used;
    b.spans[2 * this.count + 1] = end;
    this.used = end;
    this.count++;
    this.lines++;
  }

  private room(bytes: number): void {
    const b = this.buffers;
    if (this.count === b.at.length) {
      const at = new Int32Array(2 * b.at.length);
      at.set(b.at);
      const spans = new Int32Array(2 * b.spans.length);
      spans.set(b.spans);
      this.buffers = { ...b, at, spans };
    }
    if (this.used + bytes > this.buffers.bytes.length) {
      const grown = Buffer.from(new ArrayBuffer(Math.max(2 * this.buffers.bytes.length, this.used + bytes)));
      this.buffers.bytes.copy(grown, 0, 0, this.used);
      this.buffers = { ...this.buffers, bytes: grown };
    }
  }
}
