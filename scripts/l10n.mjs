// Generates l10n/bundle.l10n.json with @vscode/l10n-dev from the sources that speak to the user:
// src/extension.ts, src/host and src/core/tree. Those call `t('…')` (src/host/l10n.ts, or the Localize
// handed to src/core/tree), which l10n-dev does not recognise: it looks for `vscode.l10n.t('…')` in a file
// that imports vscode. So each file is handed to l10n-dev with its `t(` calls spelled that way; the
// extraction itself (escapes, template strings, { message, comment } forms) is l10n-dev's.
//
//   node scripts/l10n.mjs          writes l10n/bundle.l10n.json
//   node scripts/l10n.mjs --check  exits 1 naming the difference when the file is not what the sources give
// The zh-cn translation (l10n/bundle.l10n.zh-cn.json) is kept by hand; test/unit/package.commands.test.ts
// checks that every key has one.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getL10nJson } from '@vscode/l10n-dev';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const L10N_SOURCES = ['src/extension.ts', 'src/host', 'src/core/tree'];
export const BUNDLE = 'l10n/bundle.l10n.json';

function tsFiles(path) {
  if (statSync(path).isFile()) return path.endsWith('.ts') ? [path] : [];
  return readdirSync(path)
    .sort()
    .flatMap((name) => tsFiles(join(path, name)));
}

/** A bare `t(` call (not `x.t(`, not `set(`) in the spelling l10n-dev looks for. */
export function asVscodeL10n(source) {
  return `import * as vscode from 'vscode';\n${source.replace(/(?<![\w$.])t\(/gu, 'vscode.l10n.t(')}`;
}

/** The bundle the sources give: message → message, keys sorted, as l10n-dev extracts them. */
export async function generateBundle(root = ROOT) {
  const files = L10N_SOURCES.flatMap((p) => tsFiles(join(root, p)));
  const bundle = await getL10nJson(files.map((f) => ({ extension: '.ts', contents: asVscodeL10n(readFileSync(f, 'utf8')) })));
  const sorted = {};
  for (const key of Object.keys(bundle).sort()) {
    const value = bundle[key];
    // l10n-dev gives { message, comment } for calls that carry a comment; the bundle keeps the message.
    sorted[key] = typeof value === 'string' ? value : value.message;
  }
  return { bundle: sorted, files: files.map((f) => relative(root, f)) };
}

export function bundleText(bundle) {
  return `${JSON.stringify(bundle, null, 2)}\n`;
}

async function main() {
  const { bundle } = await generateBundle();
  const text = bundleText(bundle);
  const path = join(ROOT, BUNDLE);
  if (process.argv.includes('--check')) {
    const current = readFileSync(path, 'utf8');
    if (current === text) return;
    const have = JSON.parse(current);
    const missing = Object.keys(bundle).filter((k) => !(k in have));
    const stale = Object.keys(have).filter((k) => !(k in bundle));
    console.error(`${BUNDLE} is not what the sources give: run npm run l10n\n  missing: ${JSON.stringify(missing)}\n  no longer used: ${JSON.stringify(stale)}`);
    process.exitCode = 1;
    return;
  }
  writeFileSync(path, text);
  console.log(`${BUNDLE}: ${Object.keys(bundle).length} strings`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
