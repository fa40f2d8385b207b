// The heavy parts of the extension are separate bundles beside dist/extension.js (see esbuild.mjs):
// dist/kube.js (the Kubernetes client and Diagnose Node, which reads through it), dist/nodeAccess.js
// (ssh2, the CRI client and the snapshot flow) and dist/languageClient.js (the kubelet-log language
// client). They are required by path on first
// use: a require whose argument esbuild cannot resolve at build time stays a run-time require, so
// activation parses neither. `await import()` would not do: esbuild inlines it into a CommonJS bundle.
// dist/kube.js's loader is kubeLoader.ts: the kube bundle holds commands that load the others.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as LanguageClientBundle from './languageClientEntry';
import type * as NodeAccessBundle from './nodeAccessEntry';

/** The file names esbuild.mjs writes next to extension.js; the build test checks each exists. */
export const LAZY_BUNDLES = { kube: 'kube.js', nodeAccess: 'nodeAccess.js', languageClient: 'languageClient.js' } as const;

export function requireBundle<T>(file: string): T {
  // Node caches the module: the second call returns the same exports without parsing again.
  const nodeRequire = createRequire(__filename);
  return nodeRequire(join(__dirname, file)) as T;
}

/**
 * The cluster session asks for the gateway inside activate(): without this turn of the event loop the
 * require (the biggest parse of the extension) would run before activate() returns.
 */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The SSH pool, the CRI snapshot flow and the Take CRI Snapshot command. */
export async function loadNodeAccessBundle(): Promise<typeof NodeAccessBundle> {
  await nextTurn();
  return requireBundle<typeof NodeAccessBundle>(LAZY_BUNDLES.nodeAccess);
}

/** vscode-languageclient, for the kubelet-log language server. */
export async function loadLanguageClientBundle(): Promise<typeof LanguageClientBundle> {
  await nextTurn();
  return requireBundle<typeof LanguageClientBundle>(LAZY_BUNDLES.languageClient);
}
