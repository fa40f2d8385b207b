// A local ESLint rule: no module may reach itself through relative imports (static, `import type`,
// `export … from`, `import()` and `require()` alike: a type-only cycle still ties the modules into one
// unit to read and to move). eslint-plugin-import is not a dependency; this walks the graph itself, reading
// each imported file's imports with TypeScript's own pre-processor (ts.preProcessFile), the same scan
// `tsc` does to find a program's files.

import { readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/** Per file: its mtime when read, and the files it imports (resolved, relative imports only). */
const cache = new Map();

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.d.ts', '/index.ts'];

/** The file a relative specifier names, or undefined (a package, or a file that does not exist). */
function resolveSpecifier(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...EXTENSIONS.map((e) => base + e)];
  // TypeScript's ESM style: `./x.js` names ./x.ts.
  if (/\.m?js$/u.test(base)) candidates.push(base.replace(/\.(m?)js$/u, '.$1ts'));
  for (const c of candidates) {
    try {
      if (statSync(c).isFile()) return c;
    } catch {
      // not this one: try the next candidate
    }
  }
  return undefined;
}

function importsOfText(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const out = [];
  for (const f of importedFiles) {
    const target = resolveSpecifier(file, f.fileName);
    if (target !== undefined && /\.(m?ts|tsx)$/u.test(target)) out.push(target);
  }
  return out;
}

function importsOf(file) {
  let mtime;
  try {
    mtime = statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = cache.get(file);
  if (hit !== undefined && hit.mtime === mtime) return hit.imports;
  const imports = importsOfText(file, readFileSync(file, 'utf8'));
  cache.set(file, { mtime, imports });
  return imports;
}

/** A shortest import path from `start` back to `goal` (both included), or undefined. */
function pathBack(start, goal, ownImports) {
  const parent = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const next of file === goal ? ownImports : importsOf(file)) {
      if (next === goal) {
        const path = [goal];
        for (let at = file; at !== null; at = parent.get(at)) path.unshift(at);
        return path;
      }
      if (parent.has(next)) continue;
      parent.set(next, file);
      queue.push(next);
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'A module may not import itself through other modules.' },
    schema: [],
    messages: { cycle: 'Import cycle: {{path}}. Break it with a leaf module (types or constants that import nothing of the cycle).' },
  },
  create(context) {
    const file = context.filename;
    const root = context.cwd;
    const sources = [];
    const visit = (node) => {
      if (node.source && typeof node.source.value === 'string') sources.push(node);
    };
    return {
      ImportDeclaration: visit,
      ExportNamedDeclaration: visit,
      ExportAllDeclaration: visit,
      ImportExpression: visit,
      'Program:exit'() {
        // The file as it is in the editor, not as it was saved.
        const own = importsOfText(file, context.sourceCode.text);
        for (const node of sources) {
          const target = resolveSpecifier(file, node.source.value);
          if (target === undefined) continue;
          const path = pathBack(target, file, own);
          if (path === undefined) continue;
          context.report({ node, messageId: 'cycle', data: { path: [file, ...path].map((f) => relative(root, f)).join(' → ') } });
        }
      },
    };
  },
};

export const localPlugin = { rules: { 'no-import-cycle': noImportCycle } };
