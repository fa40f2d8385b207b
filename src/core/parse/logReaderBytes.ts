// A byte-level front end for the log reader, for big files: instead of decoding and splitting every line
// (readline runs at a fraction of grep's speed), each chunk is searched natively for the few literal
// anchors that every tracked message contains; only lines holding one are decoded and classified, the
// others just advance the line count. Lines end at \n (a \r before it is dropped). Fed raw chunks in
// order; results are the same as pushing every line into KubeletLogReader.

import type { KubeletLogReader } from './logReader';
import { MAX_MATCHED_LINE } from './logReaderLine';

/**
 * Each phrase of the reader's prefilter contains one of these (checked by a unit test), so a line
 * without any of them cannot carry an event.
 */
export const LINE_ANCHORS: readonly string[] = ['PLEG', 'kipping pod', 'vent channel is full', 'ontainer runtime', 'ousekeeping took', 'ot ready', 'NodeReady', 'NodeNotReady', 'Kubelet version', '] Version: v'];

const ANCHOR_BYTES = LINE_ANCHORS.map((a) => Buffer.from(a, 'latin1'));
const NL = 0x0a;
/** A line longer than this is cut: the reader only looks at its first MAX_MATCHED_LINE characters. */
const MAX_CARRY = MAX_MATCHED_LINE * 4;

export class LogByteScanner {
  private carry: Buffer = Buffer.alloc(0);
  /** The current line was cut at MAX_CARRY: drop bytes up to its end. */
  private dropping = false;

  constructor(private readonly reader: KubeletLogReader) {}

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
    if (this.carry.length > 0) buf = Buffer.concat([this.carry, buf]);
    const lastNl = buf.lastIndexOf(NL);
    if (lastNl < 0) {
      this.keep(buf);
      return;
    }
    this.scan(buf, lastNl + 1);
    this.keep(buf.subarray(lastNl + 1));
  }

  end(): void {
    if (this.carry.length > 0) this.reader.push(this.decode(this.carry, 0, this.carry.length));
    this.carry = Buffer.alloc(0);
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

  /** Lines of buf[0, end) (end just past a \n): decode only those holding an anchor. */
  private scan(buf: Buffer, end: number): void {
    // Next occurrence of each anchor at or after `from`, recomputed lazily.
    const next = ANCHOR_BYTES.map((a) => buf.indexOf(a, 0));
    let lineStart = 0;
    while (lineStart < end) {
      let hit = -1;
      for (let i = 0; i < next.length; i++) {
        let at = next[i] as number;
        if (at >= 0 && at < lineStart) {
          at = buf.indexOf(ANCHOR_BYTES[i] as Buffer, lineStart);
          next[i] = at;
        }
        if (at >= 0 && at < end && (hit < 0 || at < hit)) hit = at;
      }
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

function countNewlines(buf: Buffer, from: number, to: number): number {
  // A plain loop: one native indexOf per line costs more than looking at every byte here.
  let n = 0;
  for (let i = from; i < to; i++) if (buf[i] === NL) n++;
  return n;
}
