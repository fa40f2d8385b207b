// One build script for every bundle. `--production` minifies, `--watch` rebuilds on change.
// tsc --noEmit does the type checking; esbuild only transpiles and bundles.
// Imported by the bundle tests (test/unit/esbuild.*.test.ts: extensionTargets), so the build runs only when this is the script Node started.
import * as esbuild from 'esbuild';
import { pathToFileURL } from 'node:url';

/** ssh2's optional native crypto and cpu-features are left out: ssh2 falls back to pure JS. */
const nodeExternals = ['vscode', 'cpu-features', '*.node'];

const common = (production) => ({
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
  loader: { '.proto': 'text' },
});

/**
 * One `vscode` namespace object per bundle. Each `import * as vscode from 'vscode'` of an external CommonJS
 * module would otherwise copy every property of the API object again (esbuild's __toESM, once per importing
 * file: 27 copies at activation); through this one ESM re-export the copy is made once.
 * @type {import('esbuild').Plugin}
 */
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) => (args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' }));
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({ contents: 'export * from "vscode";', loader: 'js' }));
  },
};

const nodeTarget = (production, entry, outfile) => ({ ...common(production), entryPoints: [entry], outfile, platform: 'node', format: 'cjs', target: 'node20', external: nodeExternals });

/** Kept in step with ACTIVATION_START_GLOBAL, ACTIVATION_START_CPU_GLOBAL and THREAD_CPU_EXPRESSION (a unit test compares them). */
export const ACTIVATION_BANNER =
  'globalThis.__plegDoctorActivationStart=performance.now();' +
  'globalThis.__plegDoctorActivationCpu=((u)=>u.user+u.system)(process.threadCpuUsage?process.threadCpuUsage():process.cpuUsage());';

/**
 * What the VS Code extension host loads: extension.js at activation, and the bundles
 * src/host/bundles/loader.ts requires by path on first use (the Kubernetes client; ssh2 + CRI; the LSP client).
 * @param {{ production: boolean, outdir?: string }} options
 * @returns {import('esbuild').BuildOptions[]}
 */
export function extensionTargets({ production, outdir = 'dist' }) {
  return [
    // The first statement of the bundle marks when the extension host began running it, in wall and thread
    // CPU time (src/host/activationProbe.ts).
    { ...nodeTarget(production, 'src/extension.ts', `${outdir}/extension.js`), banner: { js: ACTIVATION_BANNER } },
    nodeTarget(production, 'src/host/bundles/kubeEntry.ts', `${outdir}/kube.js`),
    nodeTarget(production, 'src/host/bundles/nodeAccessEntry.ts', `${outdir}/nodeAccess.js`),
    nodeTarget(production, 'src/host/bundles/languageClientEntry.ts', `${outdir}/languageClient.js`),
  ].map((t) => ({ ...t, plugins: [vscodeOnce] }));
}

/**
 * The `pleg-doctor` command: dist/cli.js, dist/cliRemote.js that it requires by path only for the
 * commands that reach a cluster or a node (src/cli/registry.ts), so `logs` never parses client-node.
 * @param {{ production: boolean, outdir?: string }} options
 * @returns {import('esbuild').BuildOptions[]}
 */
export function cliTargets({ production, outdir = 'dist' }) {
  return [
    { ...nodeTarget(production, 'src/cli/main.ts', `${outdir}/cli.js`), banner: { js: '#!/usr/bin/env node' } },
    nodeTarget(production, 'src/cli/remoteCommands.ts', `${outdir}/cliRemote.js`),
    // The node agent alone; client-node stays out (src/cli/agentCommand.ts says why it is never imported).
    { ...nodeTarget(production, 'src/cli/agentCommand.ts', `${outdir}/cliAgent.js`), external: [...nodeExternals, '@kubernetes/client-node'] },
  ];
}

/** @type {(production: boolean) => import('esbuild').BuildOptions[]} */
const targets = (production) => [
  ...extensionTargets({ production }),
  nodeTarget(production, 'src/server/main.ts', 'dist/server.js'),
  ...cliTargets({ production }),
  nodeTarget(production, 'src/demo/main.ts', 'dist/demo.js'),
  nodeTarget(production, 'src/worker/simWorker.ts', 'dist/simWorker.js'),
  { ...common(production), entryPoints: ['webview/timeline/main.ts'], outfile: 'dist/webview/timeline.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

/** Reports build results in the shape the `$esbuild-watch` problem matcher expects. */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/** No top-level await: tsx loads this file as CommonJS when the bench imports extensionTargets. */
async function main() {
  const production = process.argv.includes('--production');
  if (process.argv.includes('--watch')) {
    const contexts = await Promise.all(targets(production).map((t) => esbuild.context({ ...t, plugins: [...(t.plugins ?? []), problemMatcherPlugin] })));
    await Promise.all(contexts.map((c) => c.watch()));
  } else {
    await Promise.all(targets(production).map((t) => esbuild.build(t)));
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch(() => {
    // esbuild has printed the errors (logLevel 'info'); only the exit code is left to set.
    process.exitCode = 1;
  });
}
