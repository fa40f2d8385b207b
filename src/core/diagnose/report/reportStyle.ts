// The two forms a report is written in: Markdown (the editor's preview, `diagnose -o md`, an evidence
// bundle's report.md) and plain text (`diagnose` at a terminal, where `\[`, `&lt;` and `list\_` would be
// noise). One renderer (renderMarkdown.ts) lays the report out; a style decides how each piece is spelt.
// Every cluster-supplied string goes through `inline`/`code`/`block`, so in Markdown it is escaped
// (markdownText.ts) and in plain text it is printed as it is.

import { codeSpan, escapeInline, fencedBlock, richInline, tableCell } from './markdownText';

export interface ReportStyle {
  heading(level: 1 | 2 | 3, text: string): string;
  /** Text that may hold single-backtick code spans written by the checks. */
  inline(text: string): string;
  /** Plain text from the cluster (no code spans meant). */
  plain(text: string): string;
  code(text: string): string;
  strong(text: string): string;
  emphasis(text: string): string;
  /** Long or multi-line text, verbatim. */
  block(text: string): string[];
  /** A command the reader may run, after the line that says what it does. */
  command(text: string): string;
  table(header: readonly string[], rows: readonly (readonly string[])[]): string[];
  rule(): string;
}

export const MARKDOWN_STYLE: ReportStyle = {
  heading: (level, text) => `${'#'.repeat(level)} ${text}`,
  inline: richInline,
  plain: (text) => escapeInline(text),
  code: codeSpan,
  strong: (text) => `**${text}**`,
  emphasis: (text) => `*${text}*`,
  block: (text) => [fencedBlock(text)],
  command: (text) => ` ${codeSpan(text)}`,
  table: (header, rows) => [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(tableCell).join(' | ')} |`)],
  rule: () => '---',
};

/** Removes the backticks of the checks' code spans: a terminal shows the text, not the markup. */
function unquoteSpans(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/gu, ' ').replace(/`([^`]*)`/gu, '$1');
}

/** Columns no wider than this are padded to line up; a wider last column just runs on. */
const TEXT_TABLE_COLUMN_MAX = 48;

export const TEXT_STYLE: ReportStyle = {
  heading: (level, text) => (level === 1 ? `${text}\n${'='.repeat(Math.min(text.length, 100))}` : level === 2 ? `${text}\n${'-'.repeat(Math.min(text.length, 100))}` : `* ${text}`),
  inline: unquoteSpans,
  plain: (text) => text.replace(/[\r\n\u2028\u2029]+/gu, ' '),
  code: (text) => text,
  strong: (text) => text,
  emphasis: (text) => text,
  block: (text) => text.replace(/\r\n?/gu, '\n').split('\n').map((l) => `    ${l}`),
  command: (text) => `\n      $ ${text.replace(/[\r\n]+/gu, ' ')}`,
  table: (header, rows) => {
    const cells = [header, ...rows].map((r) => r.map(unquoteSpans));
    const widths = header.map((_, i) => Math.min(TEXT_TABLE_COLUMN_MAX, Math.max(...cells.map((r) => (r[i] ?? '').length))));
    return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ').trimEnd());
  },
  rule: () => '',
};
