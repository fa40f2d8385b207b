// The simulator on a kubelet 1.36 node: PLEGOnDemandRelist's per-pod relists after each churn, served by
// the relist goroutine between periodic relists and under the same lock.

import { describe, expect, it } from 'vitest';
import { parseScenario, ScenarioError } from '../../../../../src/core/pleg/sim/scenario';
import { simulate } from '../../../../../src/core/pleg/sim/simulate';
import type { SimulationRun } from '../../../../../src/core/pleg/sim/simulationRun';

/** 4 pods of 1 container; a ContainerStatus takes 20 s, everything else 1 ms; a container restart every 30 s on average. */
function run(onDemandRelist: boolean | undefined, kubeletVersion = '1.36.2'): SimulationRun {
  return simulate(
    parseScenario({
      duration: '1h',
      seed: 7,
      kubeletVersion,
      pods: { count: 4, containersPerPod: 1 },
      churn: { containerRestartsPerHour: 120 },
      latency: { containerStatus: 20_000, listPodSandbox: 1, listContainers: 1, podSandboxStatus: 1, status: 1, version: 1 },
      kubelet: { runtimeRequestTimeout: '10m', ...(onDemandRelist === undefined ? {} : { onDemandRelist }) },
      record: { relists: 'all' },
    }),
  );
}

describe('scenario: the PLEGOnDemandRelist gate', () => {
  it('is on by default from 1.36, off before, and refused where the code does not exist', () => {
    expect(parseScenario({ duration: 1, kubeletVersion: '1.36.2' }).kubelet.onDemandRelist).toBe(true);
    expect(parseScenario({ duration: 1, kubeletVersion: 'v1.37.0' }).kubelet.onDemandRelist).toBe(true);
    expect(parseScenario({ duration: 1, kubeletVersion: '1.36.2', kubelet: { onDemandRelist: false } }).kubelet.onDemandRelist).toBe(false);
    expect(parseScenario({ duration: 1, kubeletVersion: '1.35.3' }).kubelet.onDemandRelist).toBe(false);
    expect(() => parseScenario({ duration: 1, kubeletVersion: '1.35.3', kubelet: { onDemandRelist: true } })).toThrow(ScenarioError);
    expect(() => parseScenario({ duration: 1, kubeletVersion: '1.35.3', kubelet: { onDemandRelist: true } })).toThrow(/\$\.kubelet\.onDemandRelist: kubelet 1\.35\.3 has no on-demand relist/u);
    expect(() => parseScenario({ duration: 1, kubelet: { onDemandRelist: 'yes' } })).toThrow(/\$\.kubelet\.onDemandRelist/u);
  });
});

describe('simulate on kubelet 1.36', () => {
  const off = run(false);
  const on = run(undefined);

  it('with the gate off the timeline has no on-demand part (the output of older scenarios is unchanged)', () => {
    expect(off.onDemand).toBeUndefined();
    expect(off.podRelists).toBeUndefined();
    expect(off.profile).toBe('1.36+');
  });

  it('relists a pod after each churn, or skips the request once a periodic relist started after it', () => {
    const d = on.onDemand;
    expect(d).toBeDefined();
    if (d === undefined) return;
    expect(d.requests).toBeGreaterThan(50);
    expect(d.dropped).toBe(0);
    expect(d.podRelists).toBeGreaterThan(0);
    expect(d.stale).toBeGreaterThan(0);
    expect(d.podRelists + d.stale).toBeLessThanOrEqual(d.requests);
    expect(on.podRelists).toHaveLength(d.podRelists);
    // GetPod (2 calls) + GetPodStatus of a restarted pod: ListPodSandbox, PodSandboxStatus, ListContainers,
    // then ContainerStatus for its exited and its new container, 20 s each.
    for (const p of on.podRelists ?? []) {
      expect(p.durationMs).toBeCloseTo(1 + 1 + 1 + 1 + 1 + 2 * 20_000, 6);
      expect(p.startMs).toBeGreaterThanOrEqual(p.requestedMs);
      expect(p.events).toBeGreaterThan(0);
    }
    expect(d.maxPodRelistMs).toBeCloseTo(40_005, 6);
  });

  it('a periodic relist never starts while a per-pod relist holds the lock; it waits at most one per-pod relist', () => {
    const d = on.onDemand;
    if (d === undefined) throw new Error('no on-demand summary');
    const pods = on.podRelists ?? [];
    for (const r of on.relists) for (const p of pods) expect(r.startMs > p.startMs && r.startMs < p.endMs, `relist at ${r.startMs} inside ${p.startMs}–${p.endMs}`).toBe(false);
    expect(d.delayedRelists).toBeGreaterThan(0);
    expect(d.maxRelistDelayMs).toBeGreaterThan(0);
    expect(d.maxRelistDelayMs).toBeLessThanOrEqual(d.maxPodRelistMs);
    // Each delayed relist starts exactly when a per-pod relist ends (one may still be in flight or not yet
    // started when the run ends, so it is not in the list).
    const ends = new Set(pods.map((p) => p.endMs));
    const startedAtAnEnd = on.relists.filter((r) => ends.has(r.startMs)).length;
    expect(startedAtAnEnd).toBeGreaterThanOrEqual(d.delayedRelists - 1);
    expect(startedAtAnEnd).toBeLessThanOrEqual(d.delayedRelists);
  });

  it('the per-pod relist takes the inspection off the periodic relist: shorter periodic relists, the same events', () => {
    expect(on.summary.meanRelistMs).toBeLessThan(off.summary.meanRelistMs);
    // Events are seen either way; the total differs only by where the run's last changes were caught.
    expect(Math.abs(on.summary.events - off.summary.events)).toBeLessThan(20);
  });
});
