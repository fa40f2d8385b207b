// Line-level pieces of the Prometheus text format 0.0.4 for prometheusText.ts: the error type, floats, and
// the HELP/TYPE comments (a few hundred lines per body, so plain string code). Sample lines, the bulk of a
// body, are scanned in place by prometheusSample.ts. Every rejection names the line number and quotes it.

import type { MetricType } from './prometheusTypes';

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
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * The float in `s[from, to)`, written as Go's `strconv.ParseFloat` accepts it and Prometheus writes it:
 * `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`, NaN, ±Inf. Scanned by char code so a sample line's
 * value needs no substring when it is a plain integer (counts and bucket values mostly are).
 */
export function scanPrometheusFloat(s: string, from: number, to: number): number | undefined {
  let p = from;
  let c = s.charCodeAt(p);
  const signed = from < to && (c === 43 || c === 45); // + -
  if (signed) c = s.charCodeAt(++p);
  let intDigits = 0;
  let whole = 0;
  while (p < to && isDigit(c)) {
    whole = whole * 10 + (c - 48);
    intDigits++;
    c = s.charCodeAt(++p);
  }
  let fracDigits = 0;
  const dot = p < to && c === 46;
  if (dot) {
    c = s.charCodeAt(++p);
    while (p < to && isDigit(c)) {
      fracDigits++;
      c = s.charCodeAt(++p);
    }
  }
  if (intDigits + fracDigits === 0) return specialFloat(s.slice(from, to));
  const exponent = p < to && (c === 101 || c === 69); // e E
  if (exponent) {
    c = s.charCodeAt(++p);
    if (p < to && (c === 43 || c === 45)) c = s.charCodeAt(++p);
    let expDigits = 0;
    while (p < to && isDigit(c)) {
      expDigits++;
      c = s.charCodeAt(++p);
    }
    if (expDigits === 0) return undefined;
  }
  if (p !== to) return undefined;
  // Up to 15 digits an integer is exact in a double; anything else gets JavaScript's correctly rounded parse.
  if (!signed && !dot && !exponent && intDigits <= 15) return whole;
  return Number(s.slice(from, to));
}

function specialFloat(token: string): number | undefined {
  const special = SPECIAL_FLOAT.exec(token);
  if (special === null) return undefined;
  if ((special[2] ?? '').toLowerCase() === 'nan') return NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}

/** A Go `strconv.ParseFloat` value as Prometheus writes it: decimals, exponents, NaN, ±Inf. */
export function parsePrometheusFloat(token: string): number | undefined {
  return scanPrometheusFloat(token, 0, token.length);
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

function skipBlanks(s: string, from: number): number {
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
