// The what-if runs in a real worker thread built from src/worker/simWorker.ts the way esbuild.mjs builds it.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_WHAT_IF, runWhatIf } from '../../../../src/core/timeline/whatIf/whatIfTimeline';
import { SimRunCancelledError, SimWorkerClient } from '../../../../src/host/timeline/simWorkerClient';

let dir: string;
let script: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sim-worker-'));
  script = join(dir, 'simWorker.js');
  await esbuild.build({ entryPoints: ['src/worker/simWorker.ts'], outfile: script, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'silent' });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run that takes the worker many seconds: 1,000 pods × 50 containers changing constantly for a day. */
const HEAVY = { ...DEFAULT_WHAT_IF, pods: 1000, containersPerPod: 50, rpcLatencyMs: 0, changedPodsPerRelist: 1000, freezeForS: 0, durationS: 86_400 };

describe('SimWorkerClient', () => {
  it('answers with the same result as the simulator run in place', async () => {
    const params = { ...DEFAULT_WHAT_IF, pods: 20, durationS: 400 };
    const client = new SimWorkerClient(script);
    const { data } = await client.run(params);
    expect(data).toEqual(runWhatIf(params));
    expect(client.busy).toBe(false);
  });

  it('keeps the calling thread free while it simulates, and cancel() stops the run', async () => {
    const client = new SimWorkerClient(script);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    const run = client.run(HEAVY);
    await new Promise((resolve) => setTimeout(resolve, 300));
    clearInterval(timer);
    expect(client.busy).toBe(true);
    // A simulation on this thread would have starved the timer.
    expect(ticks).toBeGreaterThan(5);
    client.cancel();
    await expect(run).rejects.toBeInstanceOf(SimRunCancelledError);
    expect(client.busy).toBe(false);
  });

  it('a new request cancels the one in progress', async () => {
    const client = new SimWorkerClient(script);
    const first = client.run(HEAVY);
    const second = client.run({ ...DEFAULT_WHAT_IF, pods: 5, durationS: 60 });
    await expect(first).rejects.toBeInstanceOf(SimRunCancelledError);
    const { data } = await second;
    expect(data.durationMs).toBe(60_000);
    client.dispose();
  });

  it('dispose() (the panel closing) stops the run in progress', async () => {
    const client = new SimWorkerClient(script);
    const run = client.run(HEAVY);
    client.dispose();
    await expect(run).rejects.toBeInstanceOf(SimRunCancelledError);
    expect(client.busy).toBe(false);
  });

  it('reports a simulator error as a rejection naming the cause', async () => {
    const client = new SimWorkerClient(script);
    // The worker is reached directly here, past the protocol's validation: the scenario parser refuses it.
    await expect(client.run({ ...DEFAULT_WHAT_IF, pods: -5 })).rejects.toThrow(/pods/);
  });

  it('a missing worker bundle is an error, not a hang', async () => {
    const client = new SimWorkerClient(join(dir, 'absent.js'));
    await expect(client.run(DEFAULT_WHAT_IF)).rejects.toThrow(/absent\.js|Cannot find module/);
  });
});
