// The body of a structured klog line: `"message" key="quoted" n=3 list=["a"] obj={"k":1}`.
// klog writes the message and string values with Go's %q, numbers and booleans bare, and slices, maps
// and structs as JSON-like text, so a value is a quoted string, a bracketed block or a bare token.

import { readGoQuoted } from './klogQuote';

export interface KlogField {
  key: string;
  /** Decoded value: the unquoted string for quoted values, the raw text otherwise. */
  value: string;
  /** True when the value was a Go-quoted string. */
  quoted: boolean;
  /** Offsets of the value's text (quotes included) in the string that was parsed. */
  start: number;
  end: number;
}

export interface StructuredBody {
  msg: string;
  msgStart: number;
  msgEnd: number;
  fields: KlogField[];
}

const KEY = /[^\s="]+/uy;

/**
 * Parses a structured body starting at `offset` of `text`; returns undefined when the body is not in
 * structured form (printf-style lines such as `Exec probe response: ""`), so callers keep the raw text.
 */
export function parseStructuredBody(text: string, offset = 0): StructuredBody | undefined {
  if (text[offset] !== '"') return undefined;
  let msg;
  try {
    msg = readGoQuoted(text, offset);
  } catch {
    return undefined;
  }
  const fields: KlogField[] = [];
  let i = msg.end;
  while (i < text.length) {
    if (text[i] !== ' ') return undefined;
    while (text[i] === ' ') i++;
    if (i >= text.length) break;
    KEY.lastIndex = i;
    const key = KEY.exec(text);
    if (!key || text[i + key[0].length] !== '=') return undefined;
    const valueStart = i + key[0].length + 1;
    const value = readValue(text, valueStart);
    if (!value) return undefined;
    fields.push({ key: key[0], value: value.value, quoted: value.quoted, start: valueStart, end: value.end });
    i = value.end;
  }
  return { msg: msg.value, msgStart: offset, msgEnd: msg.end, fields };
}

function readValue(text: string, at: number): { value: string; quoted: boolean; end: number } | undefined {
  const first = text[at];
  if (first === undefined) return { value: '', quoted: false, end: at };
  if (first === '"') {
    try {
      const q = readGoQuoted(text, at);
      return { value: q.value, quoted: true, end: q.end };
    } catch {
      return undefined;
    }
  }
  if (first === '[' || first === '{') {
    const end = balancedEnd(text, at);
    if (end === undefined) return undefined;
    return { value: text.slice(at, end), quoted: false, end };
  }
  let end = at;
  while (end < text.length && text[end] !== ' ') end++;
  return { value: text.slice(at, end), quoted: false, end };
}

/** End offset of a bracketed block, skipping brackets inside JSON strings. */
function balancedEnd(text: string, at: number): number | undefined {
  const stack: string[] = [];
  let i = at;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) return undefined;
    } else if (ch === '[' || ch === '{') {
      stack.push(ch === '[' ? ']' : '}');
    } else if (ch === ']' || ch === '}') {
      if (stack.pop() !== ch) return undefined;
      if (stack.length === 0) return i + 1;
    }
    i++;
  }
  return undefined;
}
