// One build script for every bundle. `--production` minifies, `--watch` rebuilds on change.
// tsc --noEmit does the type checking; esbuild only transpiles and bundles.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** ssh2's optional native crypto and cpu-features are left out: ssh2 falls back to pure JS. */
const nodeExternals = ['vscode', 'cpu-features', '*.node'];

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'info',
  legalComments: 'none',
  loader: { '.proto': 'text' },
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: nodeExternals },
  { ...common, entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js', platform: 'node', format: 'cjs', target: 'node20', external: nodeExternals },
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', external: nodeExternals, banner: { js: '#!/usr/bin/env node' } },
  { ...common, entryPoints: ['src/demo/main.ts'], outfile: 'dist/demo.js', platform: 'node', format: 'cjs', target: 'node20', external: nodeExternals },
  { ...common, entryPoints: ['webview/timeline/main.ts'], outfile: 'dist/webview/timeline.js', platform: 'browser', format: 'iife', target: 'es2022' },
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

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context({ ...t, plugins: [problemMatcherPlugin] })));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
