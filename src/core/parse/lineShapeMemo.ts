// classifyLogLine for a line still in the scanner's bytes, remembered by the whole line's shape. The byte
// scanner hands over the ~50,000 lines per GB of journal that hold an anchor; nearly all are a kubelet in
// trouble repeating a few messages, where only the numbers change. Decoding each to a string, reading
// its header with regexes, building the body's shape key by a native replace and filling the body's
// template costs about twice as much as this: a line of a known shape costs a hash of some of its bytes,
// one pass to compare it with the remembered shape, a few digits read at fixed places and the template
// filled (bench/README.md, "Measurements behind the log reader").
//
// Why the shape decides (lineEventsMemo.ts makes the same argument for bodies): the shape of a line is
// its bytes with every ASCII digit made '0'. classifyLogLine is blind to which digit stands where in
// everything but the values it reads: the prefilter and the header patterns hold no literal digit and no
// class that tells one digit from another, so two lines of one shape pass or fail them alike, and the
// header's fields and the body sit at the same places. What does depend on the digits is read from the
// line itself: the klog time (and its validity check, after which classifyLogLine may take another path:
// such a line goes the whole way here too), the pid, the clock text and the body template's slots.
// Only ASCII lines are remembered (their bytes are their characters); any other line and a line longer
// than LINE_SHAPE_MEMO_MAX_BYTES go the whole way, and so do lines whose body has no template (a body
// with a backslash, which may start a Go escape that spells a character with digits, has none). A
// property test holds this equal to classifyLogLine on lines of real and random shapes.

import { PID_EXACT_DIGITS, readFastHeader } from './klogFastHeader';
import { klogTimeValid } from './klogHeader';
import { bodyTemplate, fillBodyTemplate, type BodyTemplate } from './lineEventsMemo';
import { classifyLogLine, klogBodyEvents, passesPrefilter, type LineFacts } from './logReaderLine';

/** Longer lines are decoded and classified each time (a kubelet line with an event is a few hundred bytes). */
export const LINE_SHAPE_MEMO_MAX_BYTES = 1024;
/** Shapes remembered at most; emptied when full, so memory stays bounded on any input. */
export const LINE_SHAPE_MEMO_ENTRIES = 1024;

/** Where a line of the shape keeps what classifyLogLine reads from the digits. */
interface LineTemplate {
  klogAt: number;
  bodyAt: number;
  pidAt: number;
  pidEnd: number;
  body: BodyTemplate;
}

interface Entry {
  /** The shape's bytes (the line with every ASCII digit made '0'). */
  shape: Uint8Array;
  /** 'none': no line of the shape has facts; null: lines of the shape are classified the whole way. */
  template: LineTemplate | 'none' | null;
}

const ZERO = 0x30;

function templateOf(line: string): LineTemplate | 'none' | null {
  if (!passesPrefilter(line)) return 'none';
  const fast = readFastHeader(line);
  if (fast === undefined) return null;
  const body = bodyTemplate(line.slice(fast.bodyAt), klogBodyEvents);
  return body === null ? null : { klogAt: fast.klogAt, bodyAt: fast.bodyAt, pidAt: fast.pidAt, pidEnd: fast.pidEnd, body };
}

function shapeOf(bytes: Uint8Array, start: number, end: number): Uint8Array {
  const shape = bytes.slice(start, end);
  for (let i = 0; i < shape.length; i++) if ((shape[i] as number) - ZERO >>> 0 < 10) shape[i] = ZERO;
  return shape;
}

function sameShape(shape: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (shape.length !== end - start) return false;
  for (let i = start, j = 0; i < end; i++, j++) {
    const c = bytes[i] as number;
    if ((c - ZERO >>> 0 < 10 ? ZERO : c) !== shape[j]) return false;
  }
  return true;
}

export class LineShapeMemo {
  /** Shapes by a hash of some of their bytes (lines of one length may share it). */
  private readonly byHash = new Map<number, Entry[]>();
  private size = 0;
  private answered = 0;

  /** Lines answered from a remembered shape so far (tests: a memo that never answers proves nothing). */
  get hits(): number {
    return this.answered;
  }

  /** classifyLogLine of the line bytes[start, end) (UTF-8, without its \n or a \r before it). */
  classify(bytes: Buffer, start: number, end: number): LineFacts | undefined {
    const length = end - start;
    if (length > LINE_SHAPE_MEMO_MAX_BYTES) return classifyLogLine(bytes.toString('utf8', start, end));
    // The hash takes some 32 bytes spread over the line (sameShape compares them all); a small integer,
    // which a Map looks up fastest.
    let h = length;
    for (let i = start, step = (length >> 5) + 1; i < end; i += step) {
      const c = bytes[i] as number;
      h = Math.imul(h ^ (c - ZERO >>> 0 < 10 ? ZERO : c), 0x01000193);
    }
    h &= 0x3fffffff;
    const entries = this.byHash.get(h);
    let entry: Entry | undefined;
    // A line of a remembered shape is ASCII, as the shape is.
    if (entries !== undefined) for (let i = 0; i < entries.length && entry === undefined; i++) if (sameShape((entries[i] as Entry).shape, bytes, start, end)) entry = entries[i];
    if (entry !== undefined) {
      const t = entry.template;
      if (t === 'none') {
        this.answered++;
        return undefined;
      }
      if (t !== null) {
        const facts = fill(t, bytes, start);
        if (facts !== false) {
          this.answered++;
          return facts;
        }
      }
      return classifyLogLine(latin1Slice(bytes, start, end));
    }
    for (let i = start; i < end; i++) {
      const c = bytes[i] as number;
      if (c >= 0x80) return classifyLogLine(bytes.toString('utf8', start, end));
    }
    const line = latin1Slice(bytes, start, end);
    if (this.size >= LINE_SHAPE_MEMO_ENTRIES) {
      this.byHash.clear();
      this.size = 0;
    }
    const added: Entry = { shape: shapeOf(bytes, start, end), template: templateOf(line) };
    // Looked up again: the memo may have been emptied just above.
    const list = this.byHash.get(h);
    if (list === undefined) this.byHash.set(h, [added]);
    else list.push(added);
    this.size++;
    return classifyLogLine(line);
  }
}

/**
 * Buffer's own latin1 decoder, which toString('latin1', …) calls after an argument check and a switch
 * (measurable at three calls a line); toString where a runtime lacks it.
 */
const latin1Slice: (bytes: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as { latin1Slice?: unknown }).latin1Slice === 'function'
    ? (bytes, start, end) => (bytes as Buffer & { latin1Slice(start: number, end: number): string }).latin1Slice(start, end)
    : (bytes, start, end) => bytes.toString('latin1', start, end);

/** The number written by the ASCII digits bytes[from, to). */
function digits(bytes: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (bytes[i] as number) - ZERO;
  return n;
}

/** classifyLogLine's facts for a line of the template's shape, or false where it must go the whole way. */
function fill(t: LineTemplate, bytes: Buffer, start: number): LineFacts | undefined | false {
  const k = start + t.klogAt;
  const month = digits(bytes, k + 1, k + 3);
  const day = digits(bytes, k + 3, k + 5);
  const hour = digits(bytes, k + 6, k + 8);
  const minute = digits(bytes, k + 9, k + 11);
  const second = digits(bytes, k + 12, k + 14);
  // Past readFastHeader's validity check, classifyLogLine takes the general path.
  if (!klogTimeValid(month, day, hour, minute, second)) return false;
  const micros = digits(bytes, k + 15, k + 21);
  const pid = t.pidEnd - t.pidAt <= PID_EXACT_DIGITS ? digits(bytes, start + t.pidAt, start + t.pidEnd) : Number(latin1Slice(bytes, start + t.pidAt, start + t.pidEnd));
  const bodyStart = start + t.bodyAt;
  const events = t.body.slots.length === 0 ? fillBodyTemplate(t.body, unread) : fillBodyTemplate(t.body, (at, length) => latin1Slice(bytes, bodyStart + at, bodyStart + at + length));
  if (events === undefined) return false;
  if (events.length === 0) return undefined;
  return { events, time: { yearless: { month, day, hour, minute, second, micros } }, clock: latin1Slice(bytes, k + 6, k + 14), pid };
}

/** For templates without slots: nothing is read. */
const unread = (): string => '';
