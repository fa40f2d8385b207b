// Escaping for cluster-supplied text placed in tooltip Markdown: a node name or kubelet message must never
// turn into a link, an image or a heading.

const SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&]/g;

export function escapeMarkdown(text: string): string {
  return text.replace(SPECIAL, (ch) => `\\${ch}`).replace(/\r?\n/g, ' ');
}

/** A fenced code block that no backtick run inside `text` can close early. */
export function codeBlock(text: string, language = 'text'): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Inline code that no backtick run inside `text` can close early. */
export function inlineCode(text: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${fence}`;
}
