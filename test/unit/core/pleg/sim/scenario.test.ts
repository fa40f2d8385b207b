import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { projectRelist } from '../../../../../src/core/pleg/cost/projection';
import { aggregateError, readyCondition, runtimeErrorMessages } from '../../../../../src/core/pleg/sim/runtimeErrors';
import { EventQueue } from '../../../../../src/core/pleg/sim/eventQueue';
import { SeededRandom } from '../../../../../src/core/pleg/sim/prng';
import { parseScenario, ScenarioError } from '../../../../../src/core/pleg/sim/scenario';
import { simulate, SimulationCancelledError } from '../../../../../src/core/pleg/sim/simulate';
import { simulateCommand } from '../../../../../src/cli/commands/simulate';
import { CliUsageError, type CliIo } from '../../../../../src/cli/io';

const scenarios = new URL('../../../../fixtures/scenarios/', import.meta.url);

describe('parseScenario', () => {
  it('fills defaults and reads Go durations', () => {
    const s = parseScenario({ duration: '10m', kubelet: { runtimeRequestTimeout: '2m0s', relistPeriod: 1000 } });
    expect(s.durationMs).toBe(600_000);
    expect(s.kubelet.runtimeRequestTimeoutMs).toBe(120_000);
    expect(s.kubelet.relistThresholdMs).toBe(180_000);
    expect(s.kubelet.nodeStatusUpdateFrequencyMs).toBe(10_000);
    expect(s.pods).toEqual({ count: 4, containersPerPod: { min: 1, max: 1 }, sandboxesPerPod: 1 });
    expect(s.latency.status).toEqual({ kind: 'lognormal', medianMs: 1, p99Ms: 8 });
  });

  it.each([
    [{}, /\$\.duration: is required/u],
    [{ duration: 1, bogus: 1 }, /\$\.bogus: unknown field/u],
    [{ duration: '5 minutes' }, /\$\.duration: invalid Go duration/u],
    [{ duration: 1, pods: { count: -1 } }, /\$\.pods\.count: must be ≥ 0/u],
    [{ duration: 1, pods: { count: 2, containersPerPod: [1] } }, /lists 1 pods but \$\.pods\.count is 2/u],
    [{ duration: 1, latency: { listContainers: { kind: 'gamma' } } }, /\$\.latency\.listContainers\.kind: must be constant/u],
    [{ duration: 1, latency: { status: { kind: 'uniform', minMs: 5, maxMs: 1 } } }, /maxMs: must be ≥ minMs/u],
    [{ duration: 1, runtimeHangs: [{ startMs: 10, durationMs: 10 }, { startMs: 15, durationMs: 1 }] }, /runtimeHangs\[1\]: windows must be sorted/u],
    [{ duration: 1, runtimeHangs: [{ startMs: 10, durationMs: 10, factor: 2 }] }, /only slowdowns have a factor/u],
    [{ duration: 1, startTime: 'yesterday' }, /\$\.startTime: must be an RFC 3339 time/u],
    [{ duration: 1, kubeletVersion: '2.0' }, /\$\.kubeletVersion: not a kubelet version/u],
    [{ duration: 1, seed: 1.5 }, /\$\.seed: must be an integer/u],
    [[], /\$: must be an object/u],
  ])('rejects %j naming the path', (input, message) => {
    expect(() => parseScenario(input)).toThrow(ScenarioError);
    expect(() => parseScenario(input)).toThrow(message);
  });

  it('accepts every shipped example scenario', () => {
    for (const f of ['frozen-runtime.json', 'busy-node-24h.json', 'slow-inspection.json']) {
      expect(() => parseScenario(JSON.parse(readFileSync(new URL(f, scenarios), 'utf8')))).not.toThrow();
    }
  });
});

describe('kubelet error joining', () => {
  it('matches utilerrors.NewAggregate: bracketed only for several distinct messages', () => {
    expect(aggregateError([])).toBeUndefined();
    expect(aggregateError(['a'])).toBe('a');
    expect(aggregateError(['a', 'b'])).toBe('[a, b]');
    expect(aggregateError(['a', 'a'])).toBe('a');
  });

  it('orders runtime status before health checks, and is down exactly at the threshold', () => {
    const base = { runtimeSyncThresholdMs: 30_000, failingChecks: [['PLEG', 'pleg has yet to be successful']] as const };
    expect(aggregateError(runtimeErrorMessages({ ...base, nowMs: 0, lastRuntimeSyncMs: null }))).toBe(
      '[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]',
    );
    expect(runtimeErrorMessages({ ...base, failingChecks: [], nowMs: 29_999, lastRuntimeSyncMs: 0 })).toEqual([]);
    expect(runtimeErrorMessages({ ...base, failingChecks: [], nowMs: 30_000, lastRuntimeSyncMs: 0 })).toEqual(['container runtime is down']);
    expect(readyCondition([])).toEqual({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
  });
});

describe('scheduler and PRNG', () => {
  it('runs events in time order, ties in insertion order', () => {
    const q = new EventQueue();
    const seen: string[] = [];
    for (const [at, name] of [[5, 'a'], [1, 'b'], [5, 'c'], [0, 'd'], [3, 'e']] as const) q.schedule(at, () => seen.push(name));
    while (q.size > 0) q.pop()?.run(0);
    expect(seen).toEqual(['d', 'b', 'e', 'a', 'c']);
    expect(() => q.schedule(Number.NaN, () => undefined)).toThrow(/cannot schedule/u);
  });

  it('replays a seed and spreads values over [0, 1)', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const xs = Array.from({ length: 10_000 }, () => a.next());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b.next()));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.48);
    expect(mean).toBeLessThan(0.52);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(() => new SeededRandom(-1)).toThrow(/seed/u);
  });
});

describe('simulate', () => {
  it('a slow ContainerStatus on churned pods makes relists long and the node flap, as the projection predicts', () => {
    const s = parseScenario(JSON.parse(readFileSync(new URL('slow-inspection.json', scenarios), 'utf8')));
    const t = simulate(s);
    const slow = t.relists.filter((r) => r.ok && r.podsInspected > 0);
    expect(slow.length).toBeGreaterThan(0);
    // Every inspected pod costs at least one ContainerStatus of the scenario's constant latency.
    const cs = s.latency.containerStatus.kind === 'constant' ? s.latency.containerStatus.ms : Number.NaN;
    for (const r of slow) expect(r.durationMs).toBeGreaterThanOrEqual(r.podsInspected * cs);
    // A relist longer than threshold − period (GetPods is milliseconds here) must have tripped Healthy().
    const over = t.relists.filter((r) => r.durationMs > s.kubelet.relistThresholdMs - s.kubelet.relistPeriodMs);
    expect(over.length).toBeGreaterThan(0);
    for (const r of over) {
      expect(t.health.some((h) => !h.healthy && h.atMs > r.startMs && h.atMs <= r.endMs + s.kubelet.relistPeriodMs + 1_000)).toBe(true);
    }
    // And the projection agrees: at this latency, inspecting that many pods crosses the threshold.
    const worst = over.reduce((a, b) => (b.podsInspected > a.podsInspected ? b : a));
    const p = projectRelist({
      latencies: { listPodSandboxMs: 3, listContainersMs: 4, podSandboxStatusMs: 1, containerStatusMs: cs },
      pods: s.pods.count,
      containersPerPod: 2,
      changedPodsPerRelist: worst.podsInspected,
    });
    expect(p.unhealthy).toBe(true);
    expect(t.nodeReady.some((p) => p.status === 'False' && p.message.startsWith('PLEG is not healthy: pleg was last seen active '))).toBe(true);
  });

  it('without faults the node stays Ready and nothing is skipped after startup', () => {
    const t = simulate(parseScenario({ duration: '10m', seed: 7, pods: { count: 20, containersPerPod: 2 }, churn: { containerRestartsPerHour: 300 } }));
    expect(t.summary.failedRelists).toBe(0);
    expect(t.summary.events).toBeGreaterThan(0);
    expect(t.health).toHaveLength(2);
    expect(t.skipWindows).toHaveLength(1);
    expect(t.skipWindows[0]?.startMs).toBe(0);
    expect(t.nodeReady.map((p) => p.status)).toEqual(['True']);
  });

  it('a consumer stall fills the channel and the extra events are discarded (kubelet ≥ 1.14)', () => {
    const t = simulate(
      parseScenario({
        duration: '5m',
        kubeletVersion: '1.28.0',
        pods: { count: 30, containersPerPod: 2 },
        churn: { containerRestartsPerHour: 20_000 },
        consumerStalls: [{ startMs: '1m', durationMs: '3m' }],
        kubelet: { channelCapacity: 20 },
      }),
    );
    expect(t.summary.discards).toBeGreaterThan(0);
    expect(t.blocked.some((b) => b.cause === 'consumerStall')).toBe(true);
    expect(t.logLines.some((l) => l.line.includes('"Event channel is full, discard this relist() cycle event"'))).toBe(true);
  });

  it('kubelet 1.13: a relist blocked on a full channel during a consumer stall deadlocks the node (#72482)', () => {
    const scenario = (kubeletVersion: string): ReturnType<typeof parseScenario> =>
      parseScenario({
        duration: '8m',
        kubeletVersion,
        pods: { count: 30, containersPerPod: 2 },
        churn: { containerRestartsPerHour: 20_000 },
        consumerStalls: [{ startMs: '1m', durationMs: '4m' }],
        kubelet: { channelCapacity: 5 },
      });
    const old = simulate(scenario('1.13.12'));
    expect(old.summary.discards).toBe(0);
    // The stalled reader lets the blocked relist age past the threshold; then syncLoop skips (PLEG unhealthy),
    // so nobody reads the channel again and the relist never finishes.
    const last = old.skipWindows[old.skipWindows.length - 1];
    expect(last?.endMs).toBeNull();
    expect(last?.firstError).toMatch(/^PLEG is not healthy: pleg was last seen active /u);
    expect(old.health[old.health.length - 1]?.healthy).toBe(false);
    // From 1.14 the send drops instead of blocking, and the node recovers after the stall.
    const fixed = simulate(scenario('1.14.0'));
    expect(fixed.summary.discards).toBeGreaterThan(0);
    expect(fixed.health[fixed.health.length - 1]?.healthy).toBe(true);
  });

  it('runtimeRequestTimeout sets how long a frozen runtime keeps the sync loop silent', () => {
    const firstDownSkip = (timeout: string): number => {
      const t = simulate(parseScenario({ duration: '6m', runtimeHangs: [{ startMs: '60s', durationMs: '4m' }], kubelet: { runtimeRequestTimeout: timeout } }));
      const w = t.skipWindows.find((x) => x.startMs > 60_000);
      if (!w) throw new Error('no skip window after the freeze');
      expect(w.firstError).toBe('container runtime is down');
      return w.startMs - 60_000;
    };
    // Housekeeping blocks the loop for the whole timeout; the runtime is "down" 30 s after the last Status.
    expect(firstDownSkip('2m0s')).toBeGreaterThanOrEqual(120_000);
    expect(firstDownSkip('2m0s')).toBeLessThan(125_000);
    expect(firstDownSkip('50s')).toBeGreaterThanOrEqual(50_000);
    expect(firstDownSkip('50s')).toBeLessThan(55_000);
    // A short timeout frees the loop early, but it only skips once the status is 30 s stale.
    expect(firstDownSkip('5s')).toBeGreaterThanOrEqual(25_000);
    expect(firstDownSkip('5s')).toBeLessThan(36_000);
  });

  it('honours an aborted signal', () => {
    const ac = new AbortController();
    ac.abort();
    expect(() => simulate(parseScenario({ duration: '1h' }), ac.signal)).toThrow(SimulationCancelledError);
  });
});

function captureIo(stdin = ''): { io: CliIo; out: () => string } {
  let out = '';
  const io: CliIo = {
    stdout: { write: (c: string) => (out += c) },
    stderr: { write: () => true },
    readStdin: () => Promise.resolve(stdin),
    signal: new AbortController().signal,
    env: {},
    cwd: new URL('../../../../..', import.meta.url).pathname,
  };
  return { io, out: () => out };
}

describe('pleg-doctor simulate', () => {
  it('prints the timeline of a scenario file as JSON', async () => {
    const { io, out } = captureIo();
    expect(await simulateCommand(['--summary', 'test/fixtures/scenarios/frozen-runtime.json'], io)).toBe(0);
    const parsed = JSON.parse(out()) as { scenario: string; summary: { failedRelists: number } };
    expect(parsed.scenario).toBe('frozen-runtime');
    expect(parsed.summary.failedRelists).toBe(2);
  });

  it('prints klog lines with --log and reads standard input', async () => {
    const { io, out } = captureIo(JSON.stringify({ duration: '3m', runtimeHangs: [{ startMs: '10s', durationMs: '2m' }] }));
    expect(await simulateCommand(['--log', '-'], io)).toBe(0);
    expect(out()).toMatch(/^E\d{4} [\d:.]+ +1234 kubelet\.go:2273\] "Skipping pod synchronization"/mu);
  });

  it('turns bad input into usage errors naming the cause', async () => {
    await expect(simulateCommand([], captureIo().io)).rejects.toThrow(CliUsageError);
    await expect(simulateCommand(['nope.json'], captureIo().io)).rejects.toThrow(/nope\.json: no such file/u);
    await expect(simulateCommand(['-'], captureIo('{').io)).rejects.toThrow(/standard input is not JSON/u);
    await expect(simulateCommand(['-'], captureIo('{"duration":"x"}').io)).rejects.toThrow(/\$\.duration: invalid Go duration/u);
    await expect(simulateCommand(['--summary', '--log', 'a'], captureIo().io)).rejects.toThrow(/exclude each other/u);
  });
});
