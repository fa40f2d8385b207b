import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTIVATION_BANNER, extensionTargets } from '../../../esbuild.mjs';
import {
  ACTIVATE_CALLED,
  ACTIVATION_START_CPU_GLOBAL,
  ACTIVATION_START_GLOBAL,
  EVALUATED,
  THREAD_CPU_EXPRESSION,
  markActivation,
  reportActivationTime,
} from '../../../src/host/activationProbe';

describe('activation probe (bench/activationHost.mjs reads it from code-server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-probe-'));
  const file = join(dir, 'probe.jsonl');
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[ACTIVATION_START_GLOBAL];
    delete (globalThis as Record<string, unknown>)[ACTIVATION_START_CPU_GLOBAL];
    rmSync(file, { force: true });
  });

  it('dist/extension.js starts by setting the start mark the probe reads', () => {
    const extension = extensionTargets({ production: true }).find((t) => String(t.outfile).endsWith('/extension.js'));
    expect(extension?.banner?.['js']).toBe(ACTIVATION_BANNER);
    expect(ACTIVATION_BANNER).toBe(`globalThis.${ACTIVATION_START_GLOBAL}=performance.now();globalThis.${ACTIVATION_START_CPU_GLOBAL}=${THREAD_CPU_EXPRESSION};`);
  });

  it('the banner\'s CPU mark is this thread\'s CPU time in µs, so the probe can subtract its own readings from it', () => {
    const read = new Function(`return ${THREAD_CPU_EXPRESSION};`) as () => number;
    // Spin until the reading has advanced by 200,000 units, then compare with the wall time that took. CPU time
    // never runs ahead of the wall clock by more than the cores it can use (Node 20 has no threadCpuUsage, so
    // the expression falls back to the whole process's, GC and compiler threads included), and on a loaded
    // machine it falls behind it. CI once saw 20 ms of it in 8.9 ms of wall time on 2 cores, hence 200 ms and a
    // factor 2 of margin, which still tells the units apart.
    // So µs → at least 200 ms / cores of wall time and well under the 10 s cap; ns would take 0.2 ms; ms would
    // hit the cap.
    const before = read();
    const wallStart = performance.now();
    while (read() - before < 200_000 && performance.now() - wallStart < 10_000) {
      // busy
    }
    const wallMs = performance.now() - wallStart;
    expect(read() - before).toBeGreaterThanOrEqual(200_000);
    expect(wallMs).toBeGreaterThanOrEqual((200 / availableParallelism()) * 0.5);
    expect(wallMs).toBeLessThan(10_000);
  });

  it('appends one line per activation when PLEG_DOCTOR_ACTIVATION_PROBE is set, nothing otherwise', () => {
    reportActivationTime({});
    expect(existsSync(file)).toBe(false);
    (globalThis as Record<string, unknown>)[ACTIVATION_START_GLOBAL] = performance.now() - 12;
    reportActivationTime({ PLEG_DOCTOR_ACTIVATION_PROBE: file });
    reportActivationTime({ PLEG_DOCTOR_ACTIVATION_PROBE: file });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { ms: number; pid: number });
    expect(lines).toHaveLength(2);
    expect(lines[0]!.ms).toBeGreaterThanOrEqual(12);
    expect(lines[0]!.pid).toBe(process.pid);
  });

  it('counts bundle evaluation and activate() as the extension\'s time, not the host\'s gap between them', async () => {
    (globalThis as Record<string, unknown>)[ACTIVATION_START_GLOBAL] = performance.now();
    (globalThis as Record<string, unknown>)[ACTIVATION_START_CPU_GLOBAL] = (new Function(`return ${THREAD_CPU_EXPRESSION};`) as () => number)();
    markActivation(EVALUATED);
    // The host's gap: busy for 40 ms, which must count in neither the extension's wall time nor its CPU.
    const spinUntil = performance.now() + 40;
    while (performance.now() < spinUntil) {
      // busy
    }
    markActivation(ACTIVATE_CALLED);
    markActivation('session');
    reportActivationTime({ PLEG_DOCTOR_ACTIVATION_PROBE: file });
    const line = JSON.parse(readFileSync(file, 'utf8')) as { ms: number; wallMs: number; requireMs: number; activateMs: number; hostGapMs: number; cpuMs: number; steps: Record<string, number> };
    expect(line.cpuMs).toBeGreaterThanOrEqual(0);
    expect(line.cpuMs).toBeLessThan(20);
    expect(line.hostGapMs).toBeGreaterThanOrEqual(35);
    expect(line.wallMs).toBeGreaterThanOrEqual(35);
    expect(line.ms).toBeLessThan(line.wallMs);
    expect(line.ms).toBeCloseTo(line.requireMs + line.activateMs, 5);
    expect(Object.keys(line.steps)).toEqual([EVALUATED, ACTIVATE_CALLED, 'session']);
  });

  it('says so when the bundle had no banner', () => {
    reportActivationTime({ PLEG_DOCTOR_ACTIVATION_PROBE: file });
    expect(readFileSync(file, 'utf8')).toMatch(/"error":"no start mark/u);
  });
});
