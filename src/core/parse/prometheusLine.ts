// Line-level lexing of the Prometheus text format 0.0.4 for prometheusText.ts: sample lines (name, labels
// with their three escapes, value, optional timestamp) and the HELP/TYPE comments. Every rejection names
// the line number and quotes the line.

import type { MetricType, Sample } from './prometheusText';

export class PrometheusTextError extends Error {
  override readonly name = 'PrometheusTextError';
  constructor(
    readonly line: number,
    reason: string,
    content: string,
  ) {
    const shown = content.length > 160 ? `${content.slice(0, 160)}…` : content;
    super(`Prometheus text line ${line}: ${reason}: ${JSON.stringify(shown)}`);
  }
}

const METRIC_TYPES: ReadonlySet<string> = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;
const INTEGER = /^-?\d+$/;

/** A Go `strconv.ParseFloat` value as Prometheus writes it: decimals, exponents, NaN, ±Inf. */
export function parsePrometheusFloat(token: string): number | undefined {
  if (FLOAT.test(token)) return Number(token);
  const special = SPECIAL_FLOAT.exec(token);
  if (special === null) return undefined;
  if ((special[2] ?? '').toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

export interface Declaration {
  type?: MetricType;
  help?: string;
}

const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isNameStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isNameChar = (c: string): boolean => isNameStart(c) || (c >= '0' && c <= '9');

/** Reads a metric name (letters, digits, `_`, `:`) at `from`; returns its end index (== from when none). */
function metricNameEnd(s: string, from: number): number {
  let i = from;
  const first = s[i];
  if (first === undefined || !(isNameStart(first) || first === ':')) return from;
  i++;
  for (let c = s[i]; c !== undefined && (isNameChar(c) || c === ':'); c = s[++i]);
  return i;
}

function labelNameEnd(s: string, from: number): number {
  let i = from;
  const first = s[i];
  if (first === undefined || !isNameStart(first)) return from;
  i++;
  for (let c = s[i]; c !== undefined && isNameChar(c); c = s[++i]);
  return i;
}

export function skipBlanks(s: string, from: number): number {
  let i = from;
  while (isBlank(s[i])) i++;
  return i;
}

/** Handles `# HELP` / `# TYPE`; other comments are ignored. Returns the declared name, if any. */
export function parseComment(line: string, from: number, lineNo: number, declarations: Map<string, Declaration>): string | undefined {
  let i = skipBlanks(line, from);
  const keywordStart = i;
  while (i < line.length && !isBlank(line[i])) i++;
  const keyword = line.slice(keywordStart, i);
  if (keyword !== 'HELP' && keyword !== 'TYPE') return undefined;
  i = skipBlanks(line, i);
  const nameEnd = metricNameEnd(line, i);
  if (nameEnd === i) throw new PrometheusTextError(lineNo, `# ${keyword} without a valid metric name`, line);
  const name = line.slice(i, nameEnd);
  if (nameEnd < line.length && !isBlank(line[nameEnd]) && line.slice(nameEnd) !== '\r') {
    throw new PrometheusTextError(lineNo, `invalid character in metric name after "${name}"`, line);
  }
  const declaration = declarations.get(name) ?? {};
  const isNew = !declarations.has(name);
  if (keyword === 'HELP') {
    if (declaration.help !== undefined) throw new PrometheusTextError(lineNo, `second HELP line for ${name}`, line);
    declaration.help = unescapeHelp(line.slice(skipBlanks(line, nameEnd)));
  } else {
    if (declaration.type !== undefined) throw new PrometheusTextError(lineNo, `second TYPE line for ${name}`, line);
    const typeToken = line.slice(nameEnd).trim().toLowerCase();
    if (typeToken === '') throw new PrometheusTextError(lineNo, `# TYPE ${name} without a type`, line);
    if (!METRIC_TYPES.has(typeToken)) throw new PrometheusTextError(lineNo, `unknown metric type "${typeToken}"`, line);
    declaration.type = typeToken as MetricType;
  }
  declarations.set(name, declaration);
  return isNew ? name : undefined;
}

/** HELP text knows `\\` and `\n`; any other backslash is kept as written (it is prose, not data). */
function unescapeHelp(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\([\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : '\\'));
}

export function parseSampleLine(line: string, start: number, lineNo: number): Sample {
  const nameEnd = metricNameEnd(line, start);
  if (nameEnd === start) throw new PrometheusTextError(lineNo, 'expected a metric name', line);
  const name = line.slice(start, nameEnd);
  let i = nameEnd;
  const entries: [string, string][] = [];
  if (line[i] === '{') {
    i = parseLabels(line, i + 1, lineNo, entries);
  } else if (!isBlank(line[i])) {
    throw new PrometheusTextError(lineNo, `invalid character after metric name "${name}"`, line);
  }
  i = skipBlanks(line, i);
  const valueStart = i;
  while (i < line.length && !isBlank(line[i]) && line[i] !== '\r') i++;
  const valueToken = line.slice(valueStart, i);
  if (valueToken === '') throw new PrometheusTextError(lineNo, `missing value for ${name}`, line);
  const value = parsePrometheusFloat(valueToken);
  if (value === undefined) throw new PrometheusTextError(lineNo, `invalid value "${valueToken}"`, line);
  const sample: Sample = { name, labels: Object.fromEntries(entries), value };
  i = skipBlanks(line, i);
  const rest = line.slice(i).replace(/[ \t\r]+$/, '');
  if (rest !== '') {
    if (!INTEGER.test(rest)) throw new PrometheusTextError(lineNo, `invalid timestamp "${rest}"`, line);
    const timestampMs = Number(rest);
    if (!Number.isSafeInteger(timestampMs)) throw new PrometheusTextError(lineNo, `timestamp out of range "${rest}"`, line);
    sample.timestampMs = timestampMs;
  }
  return sample;
}

/** Parses `name="value",…}` from `from` (just after `{`); returns the index after `}`. */
function parseLabels(line: string, from: number, lineNo: number, entries: [string, string][]): number {
  let i = from;
  for (;;) {
    i = skipBlanks(line, i);
    if (line[i] === '}') return i + 1;
    const nameEnd = labelNameEnd(line, i);
    if (nameEnd === i) throw new PrometheusTextError(lineNo, `expected a label name at column ${i + 1}`, line);
    const labelName = line.slice(i, nameEnd);
    // A handful of labels per line: a scan is cheaper than a Set per line.
    if (entries.some((e) => e[0] === labelName)) throw new PrometheusTextError(lineNo, `duplicate label "${labelName}"`, line);
    i = skipBlanks(line, nameEnd);
    if (line[i] !== '=') throw new PrometheusTextError(lineNo, `expected "=" after label "${labelName}"`, line);
    i = skipBlanks(line, i + 1);
    if (line[i] !== '"') throw new PrometheusTextError(lineNo, `expected a quoted value for label "${labelName}"`, line);
    i++;
    let value = '';
    let chunkStart = i;
    for (;;) {
      const c = line[i];
      if (c === undefined) throw new PrometheusTextError(lineNo, `unterminated value of label "${labelName}"`, line);
      if (c === '"') break;
      if (c === '\\') {
        const next = line[i + 1];
        let decoded: string;
        if (next === '\\') decoded = '\\';
        else if (next === '"') decoded = '"';
        else if (next === 'n') decoded = '\n';
        else throw new PrometheusTextError(lineNo, `invalid escape "\\${next ?? ''}" in label "${labelName}"`, line);
        value += line.slice(chunkStart, i) + decoded;
        i += 2;
        chunkStart = i;
        continue;
      }
      i++;
    }
    value += line.slice(chunkStart, i);
    entries.push([labelName, value]);
    i = skipBlanks(line, i + 1);
    if (line[i] === ',') {
      i++;
      continue;
    }
    if (line[i] === '}') return i + 1;
    throw new PrometheusTextError(lineNo, `expected "," or "}" after label "${labelName}"`, line);
  }
}
