// Go string quoting as klog uses it: structured values are written with strconv.Quote (%q), so reading
// them back needs Go's escape rules, including byte escapes (\xNN, octal) that form UTF-8 sequences.

export class GoQuoteError extends Error {
  constructor(
    readonly input: string,
    readonly offset: number,
    reason: string,
  ) {
    super(`invalid Go quoted string at offset ${offset}: ${reason}`);
    this.name = 'GoQuoteError';
  }
}

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
  '\\': 0x5c,
  '"': 0x22,
  "'": 0x27,
};

const utf8Decoder = new TextDecoder('utf-8', { fatal: false });
const utf8Encoder = new TextEncoder();

/**
 * Reads one double-quoted Go string starting at `start` (which must be the opening quote).
 * Returns the decoded value and the offset just past the closing quote.
 */
export function readGoQuoted(text: string, start: number): { value: string; end: number } {
  if (text[start] !== '"') throw new GoQuoteError(text, start, 'expected an opening double quote');
  // Fast path, the common case in kubelet logs: no escape and no surrogate before the closing quote, so
  // the decoded value is the text itself (the byte round trip below would give the same string).
  for (let j = start + 1; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return { value: text.slice(start + 1, j), end: j + 1 };
    if (c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) break;
  }
  const bytes: number[] = [];
  let i = start + 1;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') return { value: utf8Decoder.decode(Uint8Array.from(bytes)), end: i + 1 };
    if (ch !== '\\') {
      // Copy the run up to the next quote or backslash as UTF-8 (surrogate pairs included; a lone
      // surrogate becomes U+FFFD on decoding, as invalid UTF-8 would).
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\\') j++;
      for (const b of utf8Encoder.encode(text.slice(i, j))) bytes.push(b);
      i = j;
      continue;
    }
    const esc = text[i + 1];
    if (esc === undefined) throw new GoQuoteError(text, i, 'backslash at end of input');
    const simple = SIMPLE_ESCAPES[esc];
    if (simple !== undefined) {
      bytes.push(simple);
      i += 2;
    } else if (esc === 'x') {
      bytes.push(hexValue(text, i + 2, 2));
      i += 4;
    } else if (esc === 'u' || esc === 'U') {
      const n = esc === 'u' ? 4 : 8;
      const cp = hexValue(text, i + 2, n);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw new GoQuoteError(text, i, `invalid code point \\${esc}${text.slice(i + 2, i + 2 + n)}`);
      for (const b of utf8Encoder.encode(String.fromCodePoint(cp))) bytes.push(b);
      i += 2 + n;
    } else if (esc >= '0' && esc <= '7') {
      const digits = text.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/u.test(digits)) throw new GoQuoteError(text, i, 'octal escape needs three digits');
      const v = parseInt(digits, 8);
      if (v > 255) throw new GoQuoteError(text, i, 'octal escape above \\377');
      bytes.push(v);
      i += 4;
    } else {
      throw new GoQuoteError(text, i, `unknown escape \\${esc}`);
    }
  }
  throw new GoQuoteError(text, start, 'unterminated string (no closing double quote)');
}

function hexValue(text: string, at: number, n: number): number {
  const digits = text.slice(at, at + n);
  if (digits.length !== n || !/^[0-9a-fA-F]+$/u.test(digits)) throw new GoQuoteError(text, at - 2, `expected ${n} hex digits`);
  return parseInt(digits, 16);
}

/** Decodes a complete Go double-quoted literal (`"a\tb"` → `a<TAB>b`). */
export function goUnquote(literal: string): string {
  const { value, end } = readGoQuoted(literal, 0);
  if (end !== literal.length) throw new GoQuoteError(literal, end, 'text after the closing quote');
  return value;
}

/**
 * Quotes like Go's strconv.Quote for the characters kubelet messages contain: printable Unicode stays
 * as is, quotes and backslashes are escaped, control characters use Go's short or \x / \u forms.
 */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp === 0x07) out += '\\a';
    else if (cp === 0x08) out += '\\b';
    else if (cp === 0x0c) out += '\\f';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0b) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if ((cp >= 0x80 && cp < 0xa0) || cp === 0xad || cp === 0xfeff || (cp >= 0x2028 && cp <= 0x2029)) {
      out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}
