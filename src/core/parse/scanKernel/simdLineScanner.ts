// The fast path of the byte scanner: runs of complete lines are copied into the kernel's memory, the
// kernel (kernelCode.ts) reports the newline count and the bytes where a fingerprint may end, and only
// those candidates are checked here against the whole literal, from the fingerprint's first byte. The
// result is the same sequence of reader calls as LogByteScanner's JS scan: each line holding an anchor
// is decoded and pushed, and the lines between are skipped by count.

import { FINGERPRINT_BYTES, FINGERPRINTS, literalAround, nibbleTables, verifier, type Verifier } from './fingerprints';
import { CONSTANTS_AT, CONSTANTS_BYTES, KERNEL_READS_PAST, kernelConstants, scanKernel } from './kernelCode';
import { wasmModule } from './wasmBinary';

/** The part of the reader the scanner drives. */
export interface LineSink {
  push(line: string): void;
  skipLines(n: number): void;
  /**
   * The line bytes[start, end) (without its \n, or a \r before it), not decoded: where a sink has this,
   * the kernel's lines go here instead of to push(), valid only during the call.
   */
  pushBytes?(bytes: Buffer, start: number, end: number): void;
}

// The one WebAssembly surface used here (the project's TypeScript libs do not declare it).
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { memory: { buffer: ArrayBuffer }; scan: (input: number, len: number, out: number) => number } };
};

/** Bytes copied to the kernel per call: the CLI's read size, so a chunk is one call. */
export const KERNEL_WINDOW = 256 * 1024;
const IN_AT = CONSTANTS_AT + CONSTANTS_BYTES;
/** The kernel reads past the window (this much is zeroed after it); records start after, 16-aligned. */
const PAD = Math.ceil(KERNEL_READS_PAST / 16) * 16;
const NL = 0x0a;

/** Compiled kernels by window size, null where WebAssembly or its SIMD extension is missing. */
const compiled = new Map<number, object | null>();

function kernelModule(window: number): object | null {
  let module = compiled.get(window);
  if (module !== undefined) return module;
  module = null;
  if (typeof WebAssembly === 'object') {
    // A record (16 bytes) per block at most, after the window and its padding.
    const pages = Math.ceil((IN_AT + window + PAD + window + 16) / 65536);
    const bytes = wasmModule(pages, [scanKernel()]);
    if (WebAssembly.validate(bytes)) module = new WebAssembly.Module(bytes);
  }
  compiled.set(window, module);
  return module;
}

/** Newlines among the bits of `mask` below bit `j`. */
function bitsBelow(mask: number, j: number): number {
  let x = mask & ((1 << j) - 1);
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export class SimdLineScanner {
  private readonly scanFn: (input: number, len: number, out: number) => number;
  private readonly mem: Buffer;
  private readonly words: Int32Array;
  private readonly verify: Verifier = verifier(FINGERPRINTS);
  private readonly outAt: number;

  private constructor(
    module: object,
    private readonly window: number,
  ) {
    this.outAt = IN_AT + window + PAD;
    const { exports } = new WebAssembly.Instance(module);
    this.scanFn = exports.scan;
    // The memory has a fixed size, so these views are never detached by growth.
    this.mem = Buffer.from(exports.memory.buffer);
    this.words = new Int32Array(exports.memory.buffer);
    this.mem.set(kernelConstants(nibbleTables(FINGERPRINTS)), CONSTANTS_AT);
  }

  /**
   * A scanner, or undefined where the kernel cannot run (the caller keeps its JS scan). `window` (bytes
   * per kernel call, a multiple of 16) is small only in tests, to cross window borders often.
   */
  static create(literals: readonly string[], window = KERNEL_WINDOW): SimdLineScanner | undefined {
    const covered = new Set(FINGERPRINTS.map((f) => f.literal));
    const missing = literals.filter((l) => !covered.has(l));
    if (missing.length > 0 || covered.size !== literals.length) throw new Error(`scan kernel fingerprints do not match the anchors (${missing.join(', ')})`);
    if (window % 16 !== 0 || window < 16) throw new Error(`scan kernel window must be a positive multiple of 16, got ${window}`);
    const module = kernelModule(window);
    return module === null ? undefined : new SimdLineScanner(module, window);
  }

  /**
   * Lines of buf[0, end) (end just past a \n) to the sink. Returns the offset up to which lines were
   * handled: less than `end` only when a single line is longer than the kernel's window, which the
   * caller then handles itself before calling again.
   */
  scan(buf: Buffer, from: number, end: number, sink: LineSink): number {
    let at = from;
    while (at < end) {
      let stop = end;
      if (end - at > this.window) {
        stop = buf.lastIndexOf(NL, at + this.window - 1) + 1;
        if (stop <= at) return at;
      }
      this.scanWindow(buf, at, stop, sink);
      at = stop;
    }
    return at;
  }

  /** Bytes the input area takes: what inputArea() may be filled with at most. */
  get windowBytes(): number {
    return this.window;
  }

  /**
   * The kernel's input area, for a caller that reads straight into it (no copy of every chunk): fill
   * `mem[at, at + len)`, then call scanInPlace(len). The view stays valid (the memory never grows).
   */
  inputArea(): { mem: Buffer; at: number } {
    return { mem: this.mem, at: IN_AT };
  }

  /** As scan(), for whole lines already in inputArea()[0, len) (len ≤ windowBytes, ending just past a \n). */
  scanInPlace(len: number, sink: LineSink): void {
    if (len > this.window) throw new Error(`scanInPlace: ${len} bytes is more than the ${this.window}-byte window`);
    this.scanWindow(undefined, 0, len, sink);
  }

  /** buf[from, to) is copied to the input area first; without buf, the area already holds it. */
  private scanWindow(buf: Buffer | undefined, from: number, to: number, sink: LineSink): void {
    const mem = this.mem;
    const len = to - from;
    if (buf !== undefined) mem.set(buf.subarray(from, to), IN_AT);
    mem.fill(0, IN_AT + len, IN_AT + len + KERNEL_READS_PAST);
    const records = this.scanFn(IN_AT, len, this.outAt);
    const total = this.words[0] as number;
    const words = this.words;
    const inEnd = IN_AT + len;
    let line = 0;
    let doneTo = IN_AT;
    for (let r = 0, w = this.outAt >> 2; r < records; r++, w += 4) {
      const block = IN_AT + (words[w] as number);
      let cand = words[w + 1] as number;
      while (cand !== 0) {
        const j = 31 - Math.clz32(cand & -cand);
        cand &= cand - 1;
        // The kernel flags a fingerprint's last byte; its first may be in the block before. No \n lies
        // between them, so the line counted at the last byte (below) is the first byte's line.
        const pos = block + j - (FINGERPRINT_BYTES - 1);
        if (pos < doneTo || pos >= inEnd || !literalAround(this.verify, mem, pos, IN_AT, inEnd)) continue;
        const lineIndex = (words[w + 2] as number) + bitsBelow(words[w + 3] as number, j);
        if (lineIndex > line) sink.skipLines(lineIndex - line);
        const start = mem.lastIndexOf(NL, pos) + 1;
        const lineStart = start > IN_AT ? start : IN_AT;
        const nl = mem.indexOf(NL, pos);
        const stop = nl > lineStart && mem[nl - 1] === 0x0d ? nl - 1 : nl;
        if (sink.pushBytes !== undefined) sink.pushBytes(mem, lineStart, stop);
        else sink.push(mem.toString('utf8', lineStart, stop));
        line = lineIndex + 1;
        doneTo = nl + 1;
      }
    }
    if (total > line) sink.skipLines(total - line);
  }
}
