// openLiveSource is imported by the panel, which is in dist/extension.js: it must not pull the feed
// (ssh2, the CRI client, the kubelet poller, the model) into it; those come from dist/nodeAccess.js.

import { resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../../..');

describe('the live source in the extension bundle', () => {
  it('brings in neither ssh2, the CRI code nor the feed', async () => {
    const result = await esbuild.build({
      entryPoints: ['src/host/timeline/liveSource.ts'],
      absWorkingDir: ROOT,
      bundle: true,
      write: false,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/host/timeline/liveSource.ts');
    const heavy = inputs.filter((f) => /node_modules\/(ssh2|protobufjs)\/|src\/infra\/(cri|timeline)\/|src\/core\/timeline\/liveModel|src\/host\/timeline\/liveSourceFeed/u.test(f));
    expect(heavy).toEqual([]);
  }, 60_000);
});
