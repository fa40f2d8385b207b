// The production webview bundle stays within the 300 KB budget (size, not time), and takes only
// the vscode-elements components the page uses.

import { resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const BUDGET_BYTES = 300 * 1024;

describe('timeline webview bundle', () => {
  it('is at most 300 KB minified, with only the components it imports', async () => {
    const result = await esbuild.build({ absWorkingDir: ROOT, entryPoints: ['webview/timeline/main.ts'], outdir: 'out/webview-size', write: false, bundle: true, minify: true, legalComments: 'none', platform: 'browser', format: 'iife', target: 'es2022', metafile: true, logLevel: 'silent' });
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    expect(js).toBeDefined();
    expect(js!.contents.byteLength).toBeLessThanOrEqual(BUDGET_BYTES);
    const components = new Set(Object.keys(result.metafile.inputs).flatMap((f) => /@vscode-elements\/elements\/dist\/(vscode-[\w-]+)\//u.exec(f)?.[1] ?? []));
    // Each used element may pull in its own helpers (the select brings its list), never the whole library.
    for (const used of ['vscode-button', 'vscode-textfield', 'vscode-single-select', 'vscode-option', 'vscode-label', 'vscode-tabs', 'vscode-tab-header', 'vscode-tab-panel']) expect(components).toContain(used);
    expect(components.has('vscode-tree')).toBe(false);
    expect(components.has('vscode-table')).toBe(false);
  });
});
