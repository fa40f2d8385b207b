// Loads the demo cluster (src/demo, TypeScript) into this process: esbuild bundles it to one ES module in
// the run dir, which is then imported. The e2e drives the stand-in directly (the flip), while VS Code only
// ever sees a kubeconfig.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { REPO } from './tools.mjs';

export async function loadDemoModules(runDir) {
  const outfile = join(runDir, 'standIn.mjs');
  await esbuild.build({
    stdin: {
      contents: [
        "export { startDemo } from './src/demo/demoRunner';",
        "export { demoKubeconfigYaml } from './src/demo/demoKubeconfig';",
        "export { makeNode } from './src/demo/nodeFactory';",
        "export { DEMO_CONTEXTS, demoNodeAt, findDemoNode, nodeMomentAt, plegNotReadyNodeAt } from './src/demo/demoCluster';",
      ].join('\n'),
      resolveDir: REPO,
      sourcefile: 'e2e-stand-in.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    external: ['vscode', 'cpu-features', '*.node'],
  });
  return import(pathToFileURL(outfile).href);
}
