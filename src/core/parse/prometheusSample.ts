// Sample lines of the Prometheus text format 0.0.4, scanned in place in the whole body: a 5 MB /metrics
// has ~50,000 of them, and a substring, a label array and a regex per line made the old parser spend a
// third of its time collecting garbage. The scanner reads char codes between the line's bounds, finds a
// label value's closing quote natively, and reuses the previous line's metric name, label names and label
// values, with their hashes, when the text repeats them (it nearly always does: samples of one family follow
// each other). It allocates only what the result holds: the Sample, its labels object and the label values
// (repeated values share one string). Every rejection names the line number and quotes the line, as before.

import { PrometheusTextError, scanPrometheusFloat } from './prometheusLine';
import type { Sample } from './prometheusTypes';

const SPACE = 32;
const TAB = 9;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const EQUALS = 61;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COLON = 58;

const MAX_INTERNED_VALUES = 50_000;
const UNSET_VALUE = undefined as unknown as number;

const isBlank = (c: number): boolean => c === SPACE || c === TAB;
const isLetterOrUnderscore = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
const isLabelChar = (c: number): boolean => isLetterOrUnderscore(c) || (c >= 48 && c <= 57);
const isMetricChar = (c: number): boolean => isLabelChar(c) || c === COLON;

/** Whether two samples are the same series: same name and label set, whatever the order of the labels. */
export function sameSeries(a: Sample, b: Sample): boolean {
  if (a.name !== b.name) return false;
  const names = Object.keys(a.labels);
  if (names.length !== Object.keys(b.labels).length) return false;
  for (const n of names) if (!Object.hasOwn(b.labels, n) || a.labels[n] !== b.labels[n]) return false;
  return true;
}

// FNV-1a over a range of char codes, then a multiply-xorshift finish so that summing label hashes (the
// series hash must not depend on label order) does not cancel structure.
function hashRange(text: string, from: number, to: number, seed: number): number {
  let h = seed;
  for (let p = from; p < to; p++) h = Math.imul(h ^ text.charCodeAt(p), 16777619);
  return h;
}

function finish(h: number): number {
  let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

export class SampleScanner {
  /**
   * A hash of the last sample's series (name and label set, independent of label order and spacing); equal
   * series have equal hashes, and the caller confirms a match with sameSeries. Label values are hashed as
   * written: each decoded value has exactly one written form (only `\`, `"` and newline are escaped, and
   * nothing else may be), so equal values hash alike without decoding.
   */
  seriesHash = 0;
  private previousName = '';
  private previousNameHash = 0;
  private readonly previousLabelNames: string[] = [];
  private readonly previousLabelValues: string[] = [];
  /** Per position: the hash of the previous line's label name, and of its name and value together. */
  private readonly previousNameHashes: number[] = [];
  private readonly previousLabelHashes: number[] = [];
  private previousLabels: Record<string, string> = {};
  private previousLabelCount = 0;
  private manyLabels = new Set<string>();
  private readonly labelNames: string[] = [];
  private readonly names = new Map<string, string>();
  private readonly values = new Map<string, string>();
  /** Where the next backslash at or after the current label value is (Infinity: none left in the text). */
  private nextBackslash = -1;
  /** Whether the label value closingQuote just found holds escapes (and so must be decoded). */
  private escaped = false;
  private lineNo = 0;
  private lineStart = 0;
  private lineEnd = 0;

  constructor(private readonly text: string) {}

  // Bound once, not a closure per line.
  private readonly fail = (reason: string): never => {
    throw new PrometheusTextError(this.lineNo, reason, this.text.slice(this.lineStart, this.lineEnd));
  };

  /** Scans the sample whose first non-blank character is at `start`; the line is `[lineStart, end)`. */
  scan(start: number, end: number, lineStart: number, lineNo: number): Sample {
    const text = this.text;
    this.lineNo = lineNo;
    this.lineStart = lineStart;
    this.lineEnd = end;
    const fail = this.fail;
    let p = this.metricNameEnd(start, end);
    const name = this.previousName;
    let labelCount = 0;
    let sameNamesAsBefore = true;
    let labelHashSum = 0;
    let c = p < end ? text.charCodeAt(p) : -1;
    if (c === OPEN_BRACE) {
      p++;
      for (;;) {
        p = skipBlanks(text, p, end);
        c = p < end ? text.charCodeAt(p) : -1;
        if (c === CLOSE_BRACE) {
          p++;
          break;
        }
        if (!isLetterOrUnderscore(c)) fail(`expected a label name at column ${p - lineStart + 1}`);
        const labelStart = p;
        p = this.labelNameEnd(labelCount, labelStart, end);
        const labelName = this.labelNames[labelCount] as string;
        if (this.seenBefore(labelName, labelCount)) fail(`duplicate label "${labelName}"`);
        const sameName = labelName === this.previousLabelNames[labelCount];
        if (!sameName) sameNamesAsBefore = false;
        p = skipBlanks(text, p, end);
        if (p >= end || text.charCodeAt(p) !== EQUALS) fail(`expected "=" after label "${labelName}"`);
        p = skipBlanks(text, p + 1, end);
        if (p >= end || text.charCodeAt(p) !== QUOTE) fail(`expected a quoted value for label "${labelName}"`);
        p++;
        const close = this.closingQuote(p, end, labelName);
        if (sameName && !this.escaped && this.sameAsPreviousValue(labelCount, p, close)) {
          // The previous line's value in this position, with its hash: nothing to read or allocate.
          labelHashSum = (labelHashSum + (this.previousLabelHashes[labelCount] as number)) | 0;
        } else {
          this.previousLabelValues[labelCount] = this.escaped ? this.unescape(p, close, labelName) : this.internValue(text.slice(p, close));
          const labelHash = finish(hashRange(text, p, close, Math.imul((this.previousNameHashes[labelCount] as number) ^ 61, 16777619)));
          this.previousLabelHashes[labelCount] = labelHash;
          labelHashSum = (labelHashSum + labelHash) | 0;
        }
        labelCount++;
        p = skipBlanks(text, close + 1, end);
        c = p < end ? text.charCodeAt(p) : -1;
        if (c === COMMA) {
          p++;
          continue;
        }
        if (c === CLOSE_BRACE) {
          p++;
          break;
        }
        fail(`expected "," or "}" after label "${labelName}"`);
      }
    } else if (!isBlank(c)) {
      fail(`invalid character after metric name "${name}"`);
    }
    const labels = this.labelsObject(labelCount, sameNamesAsBefore && labelCount === this.previousLabelCount);
    this.rememberLabelNames(labelCount);

    p = skipBlanks(text, p, end);
    const valueStart = p;
    while (p < end && !isBlank((c = text.charCodeAt(p))) && c !== CR) p++;
    if (p === valueStart) fail(`missing value for ${name}`);
    const value = scanPrometheusFloat(text, valueStart, p);
    if (value === undefined) fail(`invalid value "${text.slice(valueStart, p)}"`);
    // Created with `value` undefined, then set: V8 then keeps the field tagged, so an integer value (most
    // counters and bucket counts) sits in the object and only a fractional one gets a heap number. A field
    // that only ever held numbers would box every value: a megabyte of boxes per 5 MB body for the GC.
    const sample: Sample = { name, labels, value: UNSET_VALUE };
    sample.value = value as number;

    // Nearly every line ends right after its value; only then is there a timestamp or trailing blanks to read.
    if (p < end) {
      p = skipBlanks(text, p, end);
      let restEnd = end;
      while (restEnd > p && ((c = text.charCodeAt(restEnd - 1)) === SPACE || c === TAB || c === CR)) restEnd--;
      if (restEnd > p) sample.timestampMs = timestamp(text, p, restEnd, fail);
    }

    this.seriesHash = (this.previousNameHash ^ labelHashSum) & 0x3fffffff;
    return sample;
  }

  /**
   * Reads the metric name at `start` and returns where it ends; the name (the same string object every time
   * the text repeats it) and its hash are left in previousName/previousNameHash. The line before nearly
   * always has the same name: then one native compare replaces reading the name char by char.
   */
  private metricNameEnd(start: number, end: number): number {
    const text = this.text;
    const previous = this.previousName;
    // `previous` holds only name characters, so a match cannot run past the end of the line.
    if (previous.length > 0 && text.startsWith(previous, start) && !isMetricChar(text.charCodeAt(start + previous.length))) {
      return start + previous.length;
    }
    const c = start < end ? text.charCodeAt(start) : -1;
    if (!(isLetterOrUnderscore(c) || c === COLON)) this.fail('expected a metric name');
    let p = start + 1;
    while (p < end && isMetricChar(text.charCodeAt(p))) p++;
    this.previousName = this.intern(text.slice(start, p));
    this.previousNameHash = finish(hashRange(text, start, p, 2166136261));
    return p;
  }

  /** Reads the label name at `start` (its first character checked) into labelNames[index]; returns its end. */
  private labelNameEnd(index: number, start: number, end: number): number {
    const text = this.text;
    const previous = this.previousLabelNames[index];
    if (previous !== undefined && text.startsWith(previous, start) && !isLabelChar(text.charCodeAt(start + previous.length))) {
      this.labelNames[index] = previous;
      return start + previous.length;
    }
    let p = start + 1;
    while (p < end && isLabelChar(text.charCodeAt(p))) p++;
    this.labelNames[index] = this.intern(text.slice(start, p));
    this.previousNameHashes[index] = hashRange(text, start, p, 2166136261);
    return p;
  }

  /**
   * The index of the quote closing the label value that starts at `from`. Found natively; escaped quotes
   * (a backslash before the quote) are skipped. The next backslash in the text is remembered rather than
   * searched for again per value, which keeps a body with one backslash near its end linear.
   */
  private closingQuote(from: number, end: number, labelName: string): number {
    const text = this.text;
    if (this.nextBackslash < from) {
      const found = text.indexOf('\\', from);
      this.nextBackslash = found === -1 ? Infinity : found;
    }
    this.escaped = false;
    let p = from;
    for (;;) {
      const found = text.indexOf('"', p);
      // Without a quote on this line, the escapes up to its end are still checked first: a bad escape is
      // the error the line reports, as when the value was read char by char.
      const quote = found === -1 || found >= end ? end : found;
      let q = p;
      if (this.nextBackslash < quote) {
        // Walk the escapes before the quote, two characters each.
        this.escaped = true;
        for (q = this.nextBackslash; ; q = this.nextBackslash) {
          const next = q + 1 < end ? text.charCodeAt(q + 1) : -1;
          if (next !== BACKSLASH && next !== QUOTE && next !== 110) {
            this.fail(`invalid escape "\\${next === -1 ? '' : text[q + 1]}" in label "${labelName}"`);
          }
          q += 2;
          const backslash = text.indexOf('\\', q);
          this.nextBackslash = backslash === -1 ? Infinity : backslash;
          if (this.nextBackslash >= quote) break;
        }
      }
      // q is past the last escape before the quote; if that escape was `\"`, the quote was part of it.
      if (q <= quote) {
        if (quote === end) this.fail(`unterminated value of label "${labelName}"`);
        return quote;
      }
      p = q;
    }
  }

  /** The decoded value of `[from, to)`, which holds at least one (already validated) escape. */
  private unescape(from: number, to: number, labelName: string): string {
    const text = this.text;
    let value = '';
    let chunkStart = from;
    for (let p = from; p < to; p++) {
      if (text.charCodeAt(p) !== BACKSLASH) continue;
      const next = text.charCodeAt(p + 1);
      const decoded = next === BACKSLASH ? '\\' : next === QUOTE ? '"' : next === 110 ? '\n' : this.fail(`invalid escape in label "${labelName}"`);
      value += text.slice(chunkStart, p) + decoded;
      p++;
      chunkStart = p + 1;
    }
    return value + text.slice(chunkStart, to);
  }

  /** Whether `[from, to)` is written exactly as the previous line's value at the same position. */
  private sameAsPreviousValue(index: number, from: number, to: number): boolean {
    const previous = this.previousLabelValues[index];
    return previous !== undefined && previous.length === to - from && this.text.startsWith(previous, from);
  }

  /**
   * Whether the line's first `count` labels include `labelName`. A handful of labels per line: a scan is
   * cheaper than a Set per line; past 16 (hostile input, not a kubelet) a Set keeps the line linear.
   */
  private seenBefore(labelName: string, count: number): boolean {
    if (count < 16) {
      for (let j = 0; j < count; j++) if (this.labelNames[j] === labelName) return true;
      return false;
    }
    if (count === 16) this.manyLabels = new Set(this.labelNames.slice(0, 16));
    const seen = this.manyLabels.has(labelName);
    this.manyLabels.add(labelName);
    return seen;
  }

  /**
   * The labels as an object. When the line has the same label names as the line before (the rule: one
   * family's samples follow each other), the previous object is cloned by spread, which copies its shape,
   * and only its values are replaced; adding the properties one by one costs a shape transition each.
   */
  private labelsObject(count: number, sameNames: boolean): Record<string, string> {
    let labels: Record<string, string>;
    if (sameNames && count > 0) {
      labels = { ...this.previousLabels };
      for (let j = 0; j < count; j++) setLabel(labels, this.labelNames[j] as string, this.previousLabelValues[j] as string);
    } else {
      labels = {};
      for (let j = 0; j < count; j++) setLabel(labels, this.labelNames[j] as string, this.previousLabelValues[j] as string);
    }
    this.previousLabels = labels;
    this.previousLabelCount = count;
    return labels;
  }

  private rememberLabelNames(count: number): void {
    for (let j = 0; j < count; j++) this.previousLabelNames[j] = this.labelNames[j] as string;
  }

  /**
   * Label values repeat across a body (every histogram series lists the same `le` bounds, every series of a
   * family the same few operations): keeping one copy of each means the result holds a few thousand strings
   * instead of one per label, which is most of what the garbage collector has to copy while the body is
   * read. A body of mostly distinct values (hostile, or ids) stops being interned at a bound.
   */
  private internValue(s: string): string {
    const known = this.values.get(s);
    if (known !== undefined) return known;
    if (this.values.size < MAX_INTERNED_VALUES) this.values.set(s, s);
    return s;
  }

  private intern(s: string): string {
    const known = this.names.get(s);
    if (known !== undefined) return known;
    this.names.set(s, s);
    return s;
  }
}

function skipBlanks(text: string, from: number, end: number): number {
  let p = from;
  while (p < end && isBlank(text.charCodeAt(p))) p++;
  return p;
}

function setLabel(labels: Record<string, string>, name: string, value: string): void {
  // A plain assignment to `__proto__` would replace the prototype instead of adding a label.
  if (name === '__proto__') Object.defineProperty(labels, name, { value, enumerable: true, writable: true, configurable: true });
  else labels[name] = value;
}

function timestamp(text: string, from: number, to: number, fail: (reason: string) => never): number {
  const rest = text.slice(from, to);
  let p = text.charCodeAt(from) === 45 ? from + 1 : from; // -
  if (p === to) fail(`invalid timestamp "${rest}"`);
  for (; p < to; p++) {
    const c = text.charCodeAt(p);
    if (c < 48 || c > 57) fail(`invalid timestamp "${rest}"`);
  }
  const ms = Number(rest);
  if (!Number.isSafeInteger(ms)) fail(`timestamp out of range "${rest}"`);
  return ms;
}
