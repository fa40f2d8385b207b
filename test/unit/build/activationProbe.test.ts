import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extensionTargets } from '../../../esbuild.mjs';
import { ACTIVATE_CALLED, ACTIVATION_START_GLOBAL, EVALUATED, markActivation, reportActivationTime } from '../../../src/host/activationProbe';

describe('activation probe (bench/activationHost.mjs reads it from code-server)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-probe-'));
  const file = join(dir, 'probe.jsonl');
  afterEach(() => {
    delete (globalThis as Record<string, unknown>)[ACTIVATION_START_GLOBAL];
    rmSync(file, { force: true });
  });

  it('dist/extension.js starts by setting the start mark the probe reads', () => {
    const extension = extensionTargets({ production: true }).find((t) => String(t.outfile).endsWith('/extension.js'));
    expect(extension?.banner?.['js']).toBe(`globalThis.${ACTIVATION_START_GLOBAL}=performance.now();`);
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
    markActivation(EVALUATED);
    await new Promise((r) => setTimeout(r, 40));
    markActivation(ACTIVATE_CALLED);
    markActivation('session');
    reportActivationTime({ PLEG_DOCTOR_ACTIVATION_PROBE: file });
    const line = JSON.parse(readFileSync(file, 'utf8')) as { ms: number; wallMs: number; requireMs: number; activateMs: number; hostGapMs: number; steps: Record<string, number> };
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
