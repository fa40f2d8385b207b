// The what-if projection and the simulator must tell the same story: when a runtime turns slow, does
// Healthy() fail, and when? The projection is closed-form; the simulator runs the PLEG model.

import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { projectRelist } from '../../../../../src/core/pleg/cost/projection';
import { parseScenario } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';

const SLOW_FROM_MS = 60_000;

describe('projection agrees with the simulator', () => {
  test.prop(
    [
      // Per-call List* latency once the runtime turns slow (ms); some beyond the deadline.
      fc.integer({ min: 1_000, max: 200_000 }),
      fc.integer({ min: 20_000, max: 150_000 }),
      fc.integer({ min: 0, max: 8 }),
    ],
    { numRuns: 25 },
  )('threshold crossing time (or none) for a runtime whose List calls slow down', (slowMs, timeoutMs, pods) => {
    const scenario = parseScenario({
      duration: SLOW_FROM_MS + 3 * (180_000 + 2 * slowMs),
      pods: { count: pods, containersPerPod: 1 },
      latency: { listPodSandbox: 1, listContainers: 1, podSandboxStatus: 1, containerStatus: 1, status: 1, version: 1 },
      slowdowns: [{ startMs: SLOW_FROM_MS, durationMs: 10 * 3_600_000, factor: slowMs }],
      kubelet: { runtimeRequestTimeout: timeoutMs },
      record: { relists: 'all' },
    });
    const t = simulate(scenario);
    const firstSlow = t.relists.findIndex((r) => r.startMs >= SLOW_FROM_MS);
    const s0 = t.relists[firstSlow];
    const prev = t.relists[firstSlow - 1];
    if (!s0 || !prev) throw new Error('no relist around the slowdown');
    const p = projectRelist({
      latencies: { listPodSandboxMs: slowMs, listContainersMs: slowMs, podSandboxStatusMs: slowMs, containerStatusMs: slowMs },
      pods,
      containersPerPod: 1,
      changedPodsPerRelist: 0,
      runtimeRequestTimeoutMs: timeoutMs,
      previousRelistMs: prev.durationMs,
    });
    const simCross = t.health.find((h) => !h.healthy && h.atMs > SLOW_FROM_MS);
    if (p.thresholdCrossedAfterMs === null) {
      expect(simCross).toBeUndefined();
      // And the simulated relists take what the projection says.
      expect(s0.durationMs).toBeCloseTo(p.relistMs, 6);
    } else {
      expect(simCross?.atMs).toBeCloseTo(s0.startMs + p.thresholdCrossedAfterMs, 6);
    }
  }, 60_000);
});
