// A byte-level front end for the log reader, for big files: instead of decoding and splitting every line
// (readline runs at a fraction of grep's speed), each chunk is searched natively for the few literal
// anchors that every tracked message contains; only lines holding one are decoded and classified, the
// others just advance the line count. Lines end at \n (a \r before it is dropped). Fed raw chunks in
// order; results are the same as pushing every line into KubeletLogReader.
//
// Two ways to find those lines, with the same results (a property test holds them together). Where the
// runtime has WebAssembly SIMD (Node 20 does), one pass of a generated kernel (scanKernel/) counts the
// newlines and flags every possible anchor at once. On the 1 GB benchmark journal, reading it and
// handing the 113,000 matched lines over took 0.5 s that way and 1.2 s with the key searches below,
// which remain the fallback. A hit counts only when its whole literal is there and the literal's tail
// check (anchorTails.ts) passes; with "PLEG" split into the four phrases that hold it, that leaves the
// 50,000 lines that carry an event.
//
// The key searches (a 1 GB journal): Buffer#indexOf is fast when the needle is short and starts with a
// byte that is rare in kubelet logs (it is then a memchr for that byte plus a compare), and several times
// slower for long needles or common first bytes. So each anchor is searched by a short *key* that starts
// with a rare byte ('PLEG', 'Kubelet', 'wn' of "is down"), and a hit counts only when the whole anchor
// literal is around it. Line ends are found with indexOf(\n) as well, one call per line, and no chunk is
// ever copied whole: the partial line at a chunk's end is joined with the next chunk's first line alone.

import { ANCHOR_TAILS, type AnchorTail } from './anchorTails';
import { MAX_MATCHED_LINE } from './logReaderLine';
import { SimdLineScanner, type LineSink } from './scanKernel/simdLineScanner';

interface Anchor {
  /** The literal every matching phrase contains. */
  literal: string;
  /** The part of it that is searched for (a substring starting with a rare byte). */
  key: string;
}

const ANCHORS: readonly Anchor[] = [
  { literal: 'PLEG is not healthy', key: 'PLEG' },
  { literal: 'GenericPLEG: Unable to retrieve pods', key: 'PLEG' },
  { literal: 'Evented PLEG: ', key: 'PLEG' },
  { literal: 'Fall back to Generic PLEG', key: 'PLEG' },
  { literal: 'kipping pod synchronization', key: 'ynchron' },
  { literal: 'vent channel is full', key: 'vent ch' },
  { literal: 'Container runtime', key: 'Contain' },
  { literal: 'container runtime is down', key: 'wn' },
  { literal: 'ousekeeping took', key: 'keeping' },
  { literal: 'Node became not ready', key: 'Node' },
  { literal: 'NodeNotReady', key: 'Node' },
  { literal: 'NodeReady', key: 'Node' },
  { literal: 'Kubelet version', key: 'Kubelet' },
  { literal: '] Version: v', key: 'Version' },
];

/**
 * Each phrase of the reader's prefilter contains one of these (checked by a unit test), so a line
 * without any of them cannot carry an event.
 */
export const LINE_ANCHORS: readonly string[] = ANCHORS.map((a) => a.literal);

interface KeySearch {
  key: Buffer;
  /** The literals around this key: bytes, where the key sits in each, and what must follow (anchorTails.ts). */
  literals: Array<{ bytes: Buffer; at: number; tail?: AnchorTail }>;
}

const KEYS: readonly KeySearch[] = (() => {
  const byKey = new Map<string, KeySearch>();
  for (const a of ANCHORS) {
    const at = a.literal.indexOf(a.key);
    if (at < 0) throw new Error(`anchor key ${a.key} is not in ${a.literal}`);
    let k = byKey.get(a.key);
    if (k === undefined) byKey.set(a.key, (k = { key: Buffer.from(a.key, 'latin1'), literals: [] }));
    const literal: KeySearch['literals'][number] = { bytes: Buffer.from(a.literal, 'latin1'), at };
    const tail = ANCHOR_TAILS.get(a.literal);
    if (tail !== undefined) literal.tail = tail;
    k.literals.push(literal);
  }
  return [...byKey.values()];
})();

const NL = 0x0a;
/** A line longer than this is cut: the reader only looks at its first MAX_MATCHED_LINE characters. */
const MAX_CARRY = MAX_MATCHED_LINE * 4;

/** True when one of the key's literals surrounds the key found at `hit` (and its tail check passes). */
function literalAt(buf: Buffer, hit: number, k: KeySearch): boolean {
  for (const { bytes, at, tail } of k.literals) {
    const start = hit - at;
    if (start < 0 || start + bytes.length > buf.length) continue;
    let i = 0;
    while (i < bytes.length && buf[start + i] === bytes[i]) i++;
    if (i === bytes.length && (tail === undefined || tail(buf, start + i, buf.length))) return true;
  }
  return false;
}

export interface LogByteScannerOptions {
  /**
   * Use the WebAssembly SIMD kernel (scanKernel/) where the runtime has it (default true). Its single
   * pass replaces the key searches below, which stay as the fallback and as the reference in tests.
   */
  simd?: boolean;
  /** Bytes per kernel call (see SimdLineScanner.create); tests make it small. */
  simdWindow?: number;
}

/** Fills target[offset, offset + length) (or less) and returns the bytes it put there; 0 at the end of the input. */
export type ChunkRead = (target: Uint8Array, offset: number, length: number) => number;

/** fill()'s read size without the SIMD kernel (its own is the kernel's window). */
const FILL_BYTES = 256 * 1024;

export class LogByteScanner {
  private carry: Buffer = Buffer.alloc(0);
  /** fill()'s buffer when it cannot read into the kernel's memory. */
  private scratch: Buffer | undefined;
  /** The current line was cut at MAX_CARRY: drop bytes up to its end. */
  private dropping = false;
  /** Next hit of each key in the buffer being scanned (-1: none left). */
  private readonly next = new Array<number>(KEYS.length);
  private readonly simd: SimdLineScanner | undefined;

  constructor(
    private readonly reader: LineSink,
    options: LogByteScannerOptions = {},
  ) {
    this.simd = options.simd === false ? undefined : SimdLineScanner.create(LINE_ANCHORS, options.simdWindow);
  }

  /** True when chunks go through the SIMD kernel. */
  get usesSimd(): boolean {
    return this.simd !== undefined;
  }

  push(chunk: Uint8Array): void {
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.dropping) {
      const nl = buf.indexOf(NL);
      if (nl < 0) return;
      this.dropping = false;
      buf = buf.subarray(nl + 1);
      this.reader.push(this.decode(this.carry, 0, this.carry.length));
      this.carry = Buffer.alloc(0);
    }
    if (this.carry.length > 0) {
      // Finish the carried line with this chunk's first line only; the rest is scanned in place.
      const nl = buf.indexOf(NL);
      if (nl < 0) {
        this.keep(Buffer.concat([this.carry, buf]));
        return;
      }
      const joined = Buffer.concat([this.carry, buf.subarray(0, nl + 1)]);
      this.carry = Buffer.alloc(0);
      if (joined.length - 1 > MAX_CARRY) {
        // The carried line went past the cut: the reader sees its first MAX_CARRY bytes, as when dropping.
        this.reader.push(this.decode(joined, 0, MAX_CARRY));
      } else this.scan(joined, joined.length);
      buf = buf.subarray(nl + 1);
    }
    const lastNl = buf.lastIndexOf(NL);
    if (lastNl < 0) {
      this.keep(buf);
      return;
    }
    this.scan(buf, lastNl + 1);
    this.keep(buf.subarray(lastNl + 1));
  }

  /**
   * Reads the next chunk with `read` and scans it: the same reader calls as push() of the bytes read.
   * With the SIMD kernel the bytes land straight in its memory, behind the carried partial line, which
   * saves copying every chunk there (a gigabyte for a 1 GB journal). Returns the bytes read, 0 at the end.
   */
  fill(read: ChunkRead): number {
    const simd = this.simd;
    if (simd === undefined || this.dropping || simd.windowBytes > MAX_CARRY || this.carry.length > simd.windowBytes / 2) {
      const scratch = (this.scratch ??= Buffer.allocUnsafe(FILL_BYTES));
      const n = read(scratch, 0, scratch.length);
      if (n > 0) this.push(scratch.subarray(0, n));
      return n;
    }
    const { mem, at } = simd.inputArea();
    const carried = this.carry.length;
    const n = read(mem, at + carried, simd.windowBytes - carried);
    if (n <= 0) return 0;
    if (carried > 0) mem.set(this.carry, at);
    const end = at + carried + n;
    const lastNl = mem.lastIndexOf(NL, end - 1);
    // Kept (keep() copies) before the scan, which zeroes the bytes just past the lines it scans.
    this.keep(mem.subarray(lastNl >= at ? lastNl + 1 : at, end));
    if (lastNl >= at) simd.scanInPlace(lastNl + 1 - at, this.reader);
    return n;
  }

  /** The last line, if it had no \n; the scanner is then ready for another input (the CLI's file segments). */
  end(): void {
    if (this.carry.length > 0) this.reader.push(this.decode(this.carry, 0, this.carry.length));
    this.carry = Buffer.alloc(0);
    this.dropping = false;
  }

  private keep(rest: Buffer): void {
    if (rest.length > MAX_CARRY) {
      this.carry = Buffer.from(rest.subarray(0, MAX_CARRY));
      this.dropping = true;
    } else this.carry = Buffer.from(rest);
  }

  private decode(buf: Buffer, start: number, end: number): string {
    const stop = end > start && buf[end - 1] === 0x0d ? end - 1 : end;
    return buf.toString('utf8', start, stop);
  }

  /** The first anchor hit at or after `from` and before `end`, or -1. */
  private nextHit(buf: Buffer, from: number, end: number): number {
    let best = -1;
    for (let i = 0; i < KEYS.length; i++) {
      const k = KEYS[i] as KeySearch;
      let at = this.next[i] as number;
      // Lazily: a key's next hit is looked for again only once the scan has passed the previous one.
      while (at >= 0 && (at < from || !literalAt(buf, at, k))) {
        if (at >= end) break;
        at = buf.indexOf(k.key, at < from ? from : at + 1);
      }
      this.next[i] = at;
      if (at >= 0 && at < end && (best < 0 || at < best)) best = at;
    }
    return best;
  }

  /** Lines of buf[0, end) (end just past a \n): decode only those holding an anchor. */
  private scan(buf: Buffer, end: number): void {
    if (this.simd === undefined) {
      this.scanKeys(buf, 0, end);
      return;
    }
    for (let at = 0; at < end; ) {
      at = this.simd.scan(buf, at, end, this.reader);
      if (at < end) {
        // One line longer than the kernel's window: rare enough for the key searches.
        const next = buf.indexOf(NL, at) + 1;
        this.scanKeys(buf, at, next);
        at = next;
      }
    }
  }

  /** scan() by one indexOf pass per key, for lines of buf[from, end) (from at a line's start). */
  private scanKeys(buf: Buffer, from: number, end: number): void {
    for (let i = 0; i < KEYS.length; i++) this.next[i] = buf.indexOf((KEYS[i] as KeySearch).key, from);
    let lineStart = from;
    while (lineStart < end) {
      const hit = this.nextHit(buf, lineStart, end);
      if (hit < 0) {
        this.reader.skipLines(countNewlines(buf, lineStart, end));
        return;
      }
      const hitLineStart = buf.lastIndexOf(NL, hit) + 1;
      const skipped = hitLineStart > lineStart ? countNewlines(buf, lineStart, hitLineStart) : 0;
      if (skipped > 0) this.reader.skipLines(skipped);
      const nl = buf.indexOf(NL, hit);
      this.reader.push(this.decode(buf, hitLineStart, nl));
      lineStart = nl + 1;
    }
  }
}

/** \n bytes in buf[from, to): one native memchr per line, much faster than a byte loop in JS. */
function countNewlines(buf: Buffer, from: number, to: number): number {
  let n = 0;
  let at = buf.indexOf(NL, from);
  while (at >= 0 && at < to) {
    n++;
    at = buf.indexOf(NL, at + 1);
  }
  return n;
}
