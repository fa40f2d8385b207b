// The extension bundle stays small: the Kubernetes client, ssh2 + the CRI code and the language client
// are separate bundles that src/host/bundles/loader.ts requires on first use. This builds the production
// bundles (minified, as the VSIX ships them) into a temporary directory and reads what went where.

import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionTargets } from '../../esbuild.mjs';
import { LAZY_BUNDLES } from '../../src/host/bundles/loader';

const ROOT = resolve(__dirname, '../..');
const MAX_EXTENSION_BYTES = 1_500_000;

/** A string literal that survives minification, the package whose code it marks, and the bundle it belongs in. */
const MARKERS = [
  { pkg: '@kubernetes/client-node', text: 'No active cluster!', bundle: LAZY_BUNDLES.kube },
  { pkg: 'ssh2', text: 'SSH-2.0-ssh2js', bundle: LAZY_BUNDLES.nodeAccess },
  { pkg: 'protobufjs', text: 'runtime.v1.RuntimeService', bundle: LAZY_BUNDLES.nodeAccess },
  { pkg: 'vscode-languageclient', text: 'Pending response rejected since connection got disposed', bundle: LAZY_BUNDLES.languageClient },
];

let dir: string;
let extensionInputs: string[];
const read = (file: string): string => readFileSync(join(dir, file), 'utf8');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-bundle-'));
  const results = await Promise.all(extensionTargets({ production: true, outdir: dir }).map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, metafile: true, logLevel: 'silent' })));
  const outputs = results.flatMap((r) => Object.entries(r.metafile.outputs));
  const extension = outputs.find(([file]) => file.endsWith('/extension.js'));
  if (extension === undefined) throw new Error('esbuild wrote no extension.js');
  extensionInputs = Object.keys(extension[1].inputs);
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the production extension bundle', () => {
  it(`is at most ${MAX_EXTENSION_BYTES / 1e6} MB`, () => {
    expect(statSync(join(dir, 'extension.js')).size).toBeLessThanOrEqual(MAX_EXTENSION_BYTES);
  });

  it('builds every bundle the loader requires by path', () => {
    for (const file of Object.values(LAZY_BUNDLES)) expect(statSync(join(dir, file)).size, file).toBeGreaterThan(0);
  });

  it.each(MARKERS)('holds no $pkg code; $bundle does', ({ pkg, text, bundle }) => {
    expect(extensionInputs.filter((input) => input.includes(`node_modules/${pkg}/`))).toEqual([]);
    expect(read('extension.js')).not.toContain(text);
    // The marker must be real: found in the bundle that carries the package.
    expect(read(bundle)).toContain(text);
  });

  it('requires the lazy bundles by a path computed at run time, never by a literal esbuild could inline', () => {
    const extension = read('extension.js');
    for (const file of Object.values(LAZY_BUNDLES)) expect(extension).toContain(`"${file}"`);
    expect(extensionInputs).toContain('src/host/bundles/loader.ts');
    expect(extensionInputs.filter((input) => /src\/host\/lazy(Kube|NodeAccess|LanguageClient)\.ts$/.test(input))).toEqual([]);
  });
});
