// `pleg-doctor logs` on a file big enough for the scan worker (only the bundled CLI can start one): built
// as the build writes dist/cli.js, run as a user runs it, its output must be the in-process (one-thread)
// output byte for byte; a preloaded hook on worker_threads shows that the worker really ran. (Slow for a
// unit test, a few seconds: the worker starts only for files over 32 MiB.)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTargets } from '../../../esbuild.mjs';
import { runCli } from '../../../src/cli/dispatch';
import { COMMANDS } from '../../../src/cli/registry';
import { memoryIo } from '../cli/memoryIo';

const ROOT = resolve(__dirname, '../../..');
const FIXTURE = join(ROOT, 'test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log');
/** Over the command's WORKER_MIN_BYTES (32 MiB): some fifteen 4 MiB segments, shared by the two threads. */
const COPIES = 80;

let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-logs-worker-'));
  const cli = cliTargets({ production: true, outdir: dir }).filter((t) => t.outfile?.endsWith('/cliRemote.js') !== true);
  await Promise.all(cli.map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, logLevel: 'silent' })));
  // The recording repeated: stretches at every copy, lines crossing read chunks and segment borders.
  const one = readFileSync(FIXTURE);
  writeFileSync(join(dir, 'big.log'), Buffer.concat(new Array<Buffer>(COPIES).fill(one)));
  writeFileSync(join(dir, 'hook.cjs'), "const wt = require('node:worker_threads');\nconst W = wt.Worker;\nwt.Worker = function (...a) { if (wt.isMainThread) process.stderr.write('scan worker started\\n'); return new W(...a); };\n");
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pleg-doctor logs with the scan worker', () => {
  it('prints what the one-thread scan prints', async () => {
    const run = spawnSync(process.execPath, ['--require', join(dir, 'hook.cjs'), join(dir, 'cli.js'), 'logs', join(dir, 'big.log')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 1 << 28,
    });
    expect(run.stderr).toBe('scan worker started\n');
    expect(run.status).toBe(1);

    const io = memoryIo('', dir);
    expect(await runCli(['logs', 'big.log'], io, COMMANDS, '0.0.0')).toBe(1);
    const summary = (JSON.parse(io.out().trimEnd().split('\n').pop() as string) as { summary: { lines: number; plegStretches: unknown[] } }).summary;
    expect(summary.lines).toBe(COPIES * readFileSync(FIXTURE, 'utf8').split('\n').length - COPIES);
    expect(summary.plegStretches.length).toBeGreaterThanOrEqual(COPIES);
    expect(run.stdout).toBe(io.out());
  }, 120_000);
});
