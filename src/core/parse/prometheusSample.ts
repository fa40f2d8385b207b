// Sample lines of the Prometheus text format 0.0.4, scanned in place in the whole body: a 5 MB /metrics
// has ~50,000 of them, and a substring, a label array and a regex per line made the old parser spend a
// third of its time collecting garbage. The scanner reads char codes between the line's bounds, reuses the
// previous line's metric and label names when the text repeats them (it nearly always does: samples of one
// family follow each other), and allocates only what the result holds: the Sample, its labels object and
// the label values. Every rejection names the line number and quotes the line, as before.

import { PrometheusTextError, scanPrometheusFloat } from './prometheusLine';
import type { Sample } from './prometheusText';

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
  private readonly previousLabelNames: string[] = [];
  private readonly previousLabelValues: string[] = [];
  private previousLabels: Record<string, string> = {};
  private previousLabelCount = 0;
  private manyLabels = new Set<string>();
  private readonly labelNames: string[] = [];
  private readonly names = new Map<string, string>();
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
    let p = start;
    let c = text.charCodeAt(p);
    if (!(isLetterOrUnderscore(c) || c === COLON)) fail('expected a metric name');
    p++;
    while (p < end && isMetricChar(text.charCodeAt(p))) p++;
    const name = this.metricName(start, p);
    let labelCount = 0;
    let sameNamesAsBefore = true;
    let labelHashSum = 0;
    c = p < end ? text.charCodeAt(p) : -1;
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
        p++;
        while (p < end && isLabelChar(text.charCodeAt(p))) p++;
        const labelName = this.labelName(labelCount, labelStart, p);
        if (this.seenBefore(labelName, labelCount)) fail(`duplicate label "${labelName}"`);
        this.labelNames[labelCount] = labelName;
        const nameHash = hashRange(text, labelStart, p, 2166136261);
        p = skipBlanks(text, p, end);
        if (p >= end || text.charCodeAt(p) !== EQUALS) fail(`expected "=" after label "${labelName}"`);
        p = skipBlanks(text, p + 1, end);
        if (p >= end || text.charCodeAt(p) !== QUOTE) fail(`expected a quoted value for label "${labelName}"`);
        p++;
        const valueStart = p;
        let value = '';
        let chunkStart = p;
        for (;;) {
          if (p >= end) fail(`unterminated value of label "${labelName}"`);
          c = text.charCodeAt(p);
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            const next = p + 1 < end ? text.charCodeAt(p + 1) : -1;
            let decoded: string;
            if (next === BACKSLASH) decoded = '\\';
            else if (next === QUOTE) decoded = '"';
            else if (next === 110) decoded = '\n'; // n
            else decoded = fail(`invalid escape "\\${next === -1 ? '' : text[p + 1]}" in label "${labelName}"`);
            value += text.slice(chunkStart, p) + decoded;
            p += 2;
            chunkStart = p;
            continue;
          }
          p++;
        }
        if (chunkStart === valueStart) value = this.labelValue(labelCount, valueStart, p);
        else value += text.slice(chunkStart, p);
        this.previousLabelValues[labelCount] = value;
        if (labelName !== this.previousLabelNames[labelCount]) sameNamesAsBefore = false;
        labelHashSum = (labelHashSum + finish(hashRange(text, valueStart, p, Math.imul(nameHash ^ 61, 16777619)))) | 0;
        labelCount++;
        p = skipBlanks(text, p + 1, end);
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
    const sample: Sample = { name, labels, value: value as number };

    p = skipBlanks(text, p, end);
    let restEnd = end;
    while (restEnd > p && ((c = text.charCodeAt(restEnd - 1)) === SPACE || c === TAB || c === CR)) restEnd--;
    if (restEnd > p) sample.timestampMs = timestamp(text, p, restEnd, fail);

    this.seriesHash = (finish(hashRange(text, start, start + name.length, 2166136261)) ^ labelHashSum) & 0x3fffffff;
    return sample;
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

  /** The metric name in `[from, to)`, as the same string object every time the text repeats it. */
  private metricName(from: number, to: number): string {
    const previous = this.previousName;
    if (previous.length === to - from && this.text.startsWith(previous, from)) return previous;
    const name = this.intern(this.text.slice(from, to));
    this.previousName = name;
    return name;
  }

  private labelName(index: number, from: number, to: number): string {
    const previous = this.previousLabelNames[index];
    if (previous !== undefined && previous.length === to - from && this.text.startsWith(previous, from)) return previous;
    return this.intern(this.text.slice(from, to));
  }

  /** A label value without escapes in `[from, to)`, reusing the previous line's value at the same position. */
  private labelValue(index: number, from: number, to: number): string {
    const previous = this.previousLabelValues[index];
    if (previous !== undefined && previous.length === to - from && this.text.startsWith(previous, from)) return previous;
    return this.text.slice(from, to);
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
