// EventedPLEG in the simulator, against the rules of docs/pleg-model.md (EventedPLEG): with the
// gate on the generic PLEG relists every 300 s with a 10 min threshold; every failed event stream forces
// a relist; after 5 failures the kubelet falls back to 1 s / 3 min; the EventedPLEG check fails only
// while the channel is exactly full. The rules themselves live once, in src/core/pleg/evented.ts.

import { fc, test as propTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import type { SimulationRun } from '../../../../../src/core/pleg/sim/simulationRun';

const FAST = { kind: 'constant', ms: 1 };
const latency = { listPodSandbox: FAST, listContainers: FAST, podSandboxStatus: FAST, containerStatus: FAST, status: FAST, version: FAST };

function run(extra: Record<string, unknown>): SimulationRun {
  return simulate(parseScenario({ name: 'evented', seed: 7, duration: '20m', kubeletVersion: '1.32.0', pods: { count: 5, containersPerPod: 1 }, latency, ...extra }));
}

const firstUnhealthy = (t: SimulationRun): number | undefined => t.health.slice(t.health.findIndex((h) => h.healthy)).find((h) => !h.healthy)?.atMs;
const starts = (t: SimulationRun): number[] => t.relists.map((r) => r.startMs);

describe('EventedPLEG in the simulator', () => {
  it('with the gate on, the generic PLEG relists every 300 s and nothing falls back', () => {
    const t = run({ eventedPleg: {} });
    const s = starts(t);
    // 0, 300, 600 and 900 s (each a few ms long, so the fifth would start just after 20 min).
    expect(s.length).toBe(4);
    for (let i = 1; i < s.length; i++) expect(s[i]! - t.relists[i - 1]!.endMs).toBeCloseTo(300_000, 6);
    expect(t.evented).toEqual({ streamFailures: 0, fallbackAtMs: null, criEvents: 0, criEventsIgnored: 0 });
    expect(firstUnhealthy(t)).toBeUndefined();
  });

  it('a frozen runtime makes PLEG unhealthy 10 min after the last good relist started, not 3 min', () => {
    const freeze = { runtimeHangs: [{ startMs: 100_000, durationMs: 400_000 }] };
    const evented = run({ ...freeze, eventedPleg: {} });
    // The last good relist started at 0 s; the one at 300 s hangs until the runtime request timeout.
    expect(firstUnhealthy(evented)).toBe(600_000);
    const post = evented.nodeReady.find((n) => n.status === 'False' && n.message.includes('PLEG is not healthy'));
    expect(post?.message).toMatch(/PLEG is not healthy: pleg was last seen active 10m\d+(\.\d+)?s ago; threshold is 10m0s/);
    const generic = run(freeze);
    expect(firstUnhealthy(generic)!).toBeLessThan(100_000 + 180_000);
  });

  it('five failed event streams force five relists, then the kubelet falls back to 1 s / 3 min', () => {
    const failures = [10_000, 20_000, 30_000, 40_000, 50_000];
    const t = run({ eventedPleg: { streamFailures: failures }, runtimeHangs: [{ startMs: 100_000, durationMs: 300_000 }] });
    const s = starts(t);
    for (const f of failures) expect(s).toContain(f);
    expect(t.evented?.streamFailures).toBe(5);
    const fallback = t.evented?.fallbackAtMs;
    expect(fallback).toBeGreaterThanOrEqual(50_000);
    expect(fallback).toBeLessThan(50_100);
    // Restarted at once, then every second.
    expect(s).toContain(fallback);
    const after = t.relists.filter((r) => r.startMs > fallback! && r.endMs < 100_000);
    expect(after.length).toBeGreaterThan(40);
    for (let i = 1; i < after.length; i++) expect(after[i]!.startMs - after[i - 1]!.endMs).toBeCloseTo(1_000, 6);
    // The 3 min threshold applies again: a freeze at 100 s makes PLEG unhealthy about 3 min later.
    const lastGood = Math.max(...t.relists.filter((r) => r.ok && r.startMs < 100_000).map((r) => r.startMs));
    expect(firstUnhealthy(t)).toBeCloseTo(lastGood + 180_000, 6);
    expect(t.nodeReady.some((n) => n.message.includes('threshold is 3m0s'))).toBe(true);
  });

  it('four failed streams do not fall back', () => {
    const t = run({ eventedPleg: { streamFailures: [10_000, 20_000, 30_000, 40_000] } });
    expect(t.evented?.streamFailures).toBe(4);
    expect(t.evented?.fallbackAtMs).toBeNull();
    expect(starts(t).filter((x) => x > 40_100).every((x, i, all) => i === 0 || x - all[i - 1]! > 299_000)).toBe(true);
  });

  it('container churn reaches the channel through CRI events between the 300 s relists', () => {
    const t = run({ eventedPleg: {}, duration: '4m', churn: { containerRestartsPerHour: 600 } });
    expect(t.evented!.criEvents).toBeGreaterThan(20);
    // Only the first relist ran (at 0 s); the rest of the events came from the stream.
    expect(t.relists.length).toBe(1);
    expect(t.summary.events).toBeGreaterThan(t.relists[0]!.events);
  });

  it('a stalled consumer fills the channel: the EventedPLEG check fails while it is exactly full', () => {
    const t = run({
      eventedPleg: {},
      duration: '6m',
      kubelet: { channelCapacity: 8 },
      churn: { containerRestartsPerHour: 3600 },
      consumerStalls: [{ startMs: 60_000, durationMs: 120_000 }],
    });
    const full = t.nodeReady.find((n) => n.message.includes('EventedPLEG is not healthy'));
    expect(full?.message).toContain('EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 8 events');
    expect(t.summary.discards).toBeGreaterThan(0);
  });

  it('kubelets before 1.26 have no EventedPLEG', () => {
    expect(() => parseScenario({ duration: '1m', kubeletVersion: '1.25.3', eventedPleg: {} })).toThrow(ScenarioError);
    expect(() => parseScenario({ duration: '1m', kubeletVersion: '1.25.3', eventedPleg: {} })).toThrow(/has no EventedPLEG/);
  });

  propTest.prop([fc.uniqueArray(fc.integer({ min: 1, max: 590 }), { maxLength: 8 })], { numRuns: 25 })(
    'it falls back exactly when five or more streams failed, and only after the fifth',
    (seconds) => {
      const failures = seconds.map((x) => x * 1000).sort((a, b) => a - b);
      const t = run({ duration: '10m', eventedPleg: { streamFailures: failures } });
      expect(t.evented?.streamFailures).toBe(failures.length);
      const fallback = t.evented?.fallbackAtMs ?? null;
      if (failures.length < 5) expect(fallback).toBeNull();
      else {
        expect(fallback).toBeGreaterThanOrEqual(failures[4]!);
        expect(fallback! - failures[4]!).toBeLessThan(1_000);
      }
    },
  );
});
