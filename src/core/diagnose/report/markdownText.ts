// Markdown-safe text. Findings may contain `code spans` that the checks wrote on purpose; everything
// outside them is escaped so a node name, pod name or kubelet message can never become a link, an HTML
// tag, a heading or a table column. Newlines are flattened because every use is a single line.

/** Characters that mean something anywhere in a line (emphasis, code, links, HTML, tables, strikethrough). */
const INLINE_SPECIALS = /[\\`*_[\]|<>~&!]/gu;
/** What only means something at the start of a line or after a list marker: headings, quotes, list items. */
const LEADING_BLOCK = /^(\s*)([#>+=-]|\d+[.)])/u;

/** Escapes plain text for inline Markdown (one line); `atLineStart` false skips the block-marker escape. */
export function escapeInline(text: string, atLineStart = true): string {
  const escaped = flatten(text).replace(INLINE_SPECIALS, (ch) =>
    ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '&' ? '&amp;' : `\\${ch}`,
  );
  if (!atLineStart) return escaped;
  return escaped.replace(LEADING_BLOCK, (_m, space: string, mark: string) => `${space}${mark.replace(/([#>+=.)-])$/u, '\\$1')}`);
}

function flatten(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/gu, ' ');
}

/** A code span holding `text` verbatim, whatever backticks it contains (CommonMark: a longer fence). */
export function codeSpan(text: string): string {
  const flat = flatten(text);
  let longest = 0;
  for (const run of flat.match(/`+/gu) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || (flat.startsWith(' ') && flat.endsWith(' ') && flat.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${flat === '' ? ' ' : flat}${pad}${fence}`;
}

/** A fenced block for long or multi-line text; the fence is longer than any backtick run inside. */
export function fencedBlock(text: string, info = 'text'): string {
  let longest = 2;
  for (const run of text.match(/`{3,}/gu) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}${info}\n${text.replace(/\r\n?/gu, '\n')}\n${fence}`;
}

/**
 * Text that may hold single-backtick code spans written by the checks: the spans are kept as code (their
 * content verbatim), the rest escaped. An unpaired backtick is escaped like any other character.
 */
export function richInline(text: string): string {
  const flat = flatten(text);
  let out = '';
  let rest = flat;
  for (;;) {
    const atLineStart = out === '';
    const open = rest.indexOf('`');
    const close = open >= 0 ? rest.indexOf('`', open + 1) : -1;
    if (open < 0 || close < 0) {
      out += escapeInline(rest, atLineStart);
      return out;
    }
    out += escapeInline(rest.slice(0, open), atLineStart) + codeSpan(rest.slice(open + 1, close));
    rest = rest.slice(close + 1);
  }
}

/** A table cell: rich inline text with pipes escaped even inside code spans (GFM splits cells on them first). */
export function tableCell(text: string): string {
  return richInline(text).replace(/(?<!\\)\|/gu, '\\|');
}
