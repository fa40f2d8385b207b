import { describe, expect, it } from 'vitest';
import { criCallOutcome, DEADLINE_EXCEEDED_TEXT, isHung, validateHangWindows } from '../../../../../src/core/pleg/cost/criCall';
import { getPodStatusCalls, relistCost, type RpcLatencies } from '../../../../../src/core/pleg/cost/relistCost';
import { projectRelist } from '../../../../../src/core/pleg/cost/projection';
import { podRelistCost } from '../../../../../src/core/pleg/cost/relistCost';

const fast: RpcLatencies = { listPodSandboxMs: 2, listContainersMs: 3, podSandboxStatusMs: 1, containerStatusMs: 0.5 };

describe('criCallOutcome', () => {
  const freeze = [{ startMs: 1_000, durationMs: 300_097 }];

  it('takes the nominal latency outside hang windows', () => {
    expect(criCallOutcome(0, 5, freeze, 120_000)).toEqual({ endMs: 5, ok: true });
    expect(criCallOutcome(400_000, 5, freeze, 120_000)).toEqual({ endMs: 400_005, ok: true });
  });

  it('fails at exactly the deadline when the runtime stays frozen', () => {
    expect(criCallOutcome(2_000, 5, freeze, 120_000)).toEqual({ endMs: 122_000, ok: false, error: DEADLINE_EXCEEDED_TEXT });
  });

  it('completes right after the runtime resumes when that is inside the deadline', () => {
    const resume = 1_000 + 300_097;
    expect(criCallOutcome(resume - 50_000, 5, freeze, 120_000)).toEqual({ endMs: resume + 5, ok: true });
  });

  it('counts the work done before a freeze that starts mid-call', () => {
    const out = criCallOutcome(998, 5, [{ startMs: 1_000, durationMs: 10 }], 120_000);
    expect(out).toEqual({ endMs: 1_013, ok: true });
  });

  it('crosses several windows', () => {
    const hangs = [
      { startMs: 10, durationMs: 10 },
      { startMs: 25, durationMs: 10 },
    ];
    // 0..10 work 10 ms, frozen to 20, 5 ms to 25, frozen to 35, remaining 5 ms.
    expect(criCallOutcome(0, 20, hangs, 1_000)).toEqual({ endMs: 40, ok: true });
  });

  it('times out a call that is slow by itself', () => {
    expect(criCallOutcome(0, 130_000, [], 120_000).ok).toBe(false);
  });

  it('checks windows', () => {
    expect(isHung(1_000, freeze)).toBe(true);
    expect(isHung(301_097, freeze)).toBe(false);
    expect(() => validateHangWindows([{ startMs: 5, durationMs: 10 }, { startMs: 10, durationMs: 1 }], 'runtimeHangs')).toThrow(/runtimeHangs\[1\].*overlap/u);
    expect(() => validateHangWindows([{ startMs: 5, durationMs: -1 }], 'x')).toThrow(/non-negative/u);
  });
});

describe('relistCost', () => {
  it('adds GetPods and one serial GetPodStatus per inspected pod', () => {
    const c = relistCost(fast, { pods: 110, containersPerPod: 2, inspectedPods: 4 });
    // GetPodStatus: LPS 2 + PSS 1 + LC 3 + 2 × CS 0.5 = 7 ms.
    expect(getPodStatusCalls(fast, 1, 2)).toEqual([2, 1, 3, 0.5, 0.5]);
    expect(c.getPodsMs).toBe(5);
    expect(c.podStatusMs).toBe(7);
    expect(c.totalMs).toBe(5 + 4 * 7);
    expect(c.calls).toBe(2 + 4 * 5);
  });

  it('caps a hung call at runtimeRequestTimeout and stops the relist there', () => {
    const hung = { ...fast, listPodSandboxMs: Number.POSITIVE_INFINITY };
    const c = relistCost(hung, { pods: 4, containersPerPod: 1, inspectedPods: 2 }, 120_000);
    expect(c.getPodsOk).toBe(false);
    expect(c.totalMs).toBe(120_000);
    expect(c.calls).toBe(1);
  });

  it('charges a failing ContainerStatus the whole timeout per inspected pod (issue #94829)', () => {
    const c = relistCost({ ...fast, containerStatusMs: 1e9 }, { pods: 10, containersPerPod: 3, inspectedPods: 2 }, 120_000);
    expect(c.podStatusOk).toBe(false);
    // Two pods inspected, each stuck 2 min in its first ContainerStatus: a 4 min relist.
    expect(c.totalMs).toBe(5 + 2 * (2 + 1 + 3 + 120_000));
  });

  it('rejects impossible workloads with the field name', () => {
    expect(() => relistCost(fast, { pods: 2, containersPerPod: 1, inspectedPods: 3 })).toThrow(/inspectedPods/u);
    expect(() => relistCost(fast, { pods: 2.5, containersPerPod: 1, inspectedPods: 0 })).toThrow(/workload\.pods/u);
    expect(() => relistCost({ ...fast, listContainersMs: -1 }, { pods: 1, containersPerPod: 1, inspectedPods: 0 })).toThrow(/non-negative/u);
  });
});

describe('projectRelist', () => {
  it('says a fast runtime stays healthy and states the budget', () => {
    const p = projectRelist({ latencies: fast, pods: 110, containersPerPod: 2, changedPodsPerRelist: 3 });
    expect(p.unhealthy).toBe(false);
    expect(p.thresholdCrossedAfterMs).toBeNull();
    expect(p.relistBudgetMs).toBe(180_000 - 1_000 - 5);
    expect(p.summary).toMatch(/stays healthy/u);
  });

  it('puts the steady-state boundary at threshold − period − GetPods (the stamp shows once GetPods returns)', () => {
    const at = (containerStatusMs: number): ReturnType<typeof projectRelist> =>
      projectRelist({
        latencies: { listPodSandboxMs: 2, listContainersMs: 3, podSandboxStatusMs: 0, containerStatusMs },
        pods: 1,
        containersPerPod: 1,
        changedPodsPerRelist: 1,
        // A long deadline, so the slow call is not cut at 2 min.
        runtimeRequestTimeoutMs: 600_000,
      });
    // Relist = GetPods 5 + inspection (2 + 0 + 3 + CS); worst age = relist + 1 s + 5 ms.
    expect(at(180_000 - 1_000 - 5 - 5 - 5).unhealthy).toBe(false); // exactly 3m0s old: not strictly greater
    const over = at(180_000 - 1_000 - 5 - 5 - 5 + 1);
    expect(over.unhealthy).toBe(true);
    expect(over.worstAgeMs).toBe(180_001);
    expect(over.thresholdCrossedAfterMs).toBe(180_000);
    expect(over.unhealthyFraction).toBeCloseTo(1 / (over.relistMs + 1_000), 12);
    // With the default 2 min deadline the same call is cut short and the relist stays within budget.
    expect(projectRelist({ latencies: { listPodSandboxMs: 2, listContainersMs: 3, podSandboxStatusMs: 0, containerStatusMs: 178_986 }, pods: 1, containersPerPod: 1, changedPodsPerRelist: 1 }).unhealthy).toBe(false);
  });

  it('with a frozen runtime, crosses the threshold one period (plus the previous relist) early', () => {
    // The real kubelet: last good relist ≈ 1 s before the freeze; threshold crossed at ≈ +179 s.
    const p = projectRelist({
      latencies: { ...fast, listPodSandboxMs: Number.POSITIVE_INFINITY },
      pods: 4,
      containersPerPod: 1,
      changedPodsPerRelist: 0,
      previousRelistMs: 3,
    });
    expect(p.cost.getPodsOk).toBe(false);
    expect(p.worstAgeMs).toBe(Number.POSITIVE_INFINITY);
    expect(p.thresholdCrossedAfterMs).toBe(180_000 - 1_000 - 3);
    expect(p.unhealthyFraction).toBe(1);
    expect(p.summary).toMatch(/2m0s runtimeRequestTimeout/u);
  });

  it('a single relist longer than the threshold trips it before it ends', () => {
    const p = projectRelist({
      latencies: { ...fast, containerStatusMs: 100_000 },
      pods: 10,
      containersPerPod: 1,
      changedPodsPerRelist: 2,
    });
    expect(p.relistMs).toBeGreaterThan(180_000);
    // Its own stamp (t = 0) became visible after GetPods, so it trips exactly one threshold after it started.
    expect(p.thresholdCrossedAfterMs).toBe(180_000);
  });
});

describe('kubelet 1.36: a periodic relist waiting behind a per-pod relist', () => {
  const lat = { listPodSandboxMs: 2, listContainersMs: 3, podSandboxStatusMs: 5, containerStatusMs: 7 };

  it('prices a per-pod relist as GetPod then GetPodStatus, stopping at a failed GetPod', () => {
    expect(podRelistCost(lat, 1, 2)).toEqual({ getPodMs: 5, getPodOk: true, podStatusMs: 2 + 5 + 3 + 7 + 7, totalMs: 29, calls: 2 + 5 });
    expect(podRelistCost(lat, 1, 2, false)).toMatchObject({ totalMs: 5, calls: 2, podStatusMs: 0 });
    // A hung runtime: GetPod's first call hits the deadline and the per-pod relist ends there.
    expect(podRelistCost({ ...lat, listPodSandboxMs: Number.POSITIVE_INFINITY }, 1, 2)).toEqual({ getPodMs: 120_000, getPodOk: false, podStatusMs: 0, totalMs: 120_000, calls: 1 });
    expect(() => podRelistCost(lat, -1, 2)).toThrow(/sandboxes must be a non-negative integer/u);
  });

  it('moves the budget and the worst stamp age by one per-pod relist, and says so', () => {
    const input = { latencies: lat, pods: 10, containersPerPod: 2, changedPodsPerRelist: 1 };
    const before = projectRelist(input);
    const after = projectRelist({ ...input, onDemandRelist: true });
    expect(before.podRelist).toBeNull();
    expect(after.waitMs).toBe(29);
    expect(after.worstAgeMs - before.worstAgeMs).toBe(29);
    expect(before.relistBudgetMs - after.relistBudgetMs).toBe(29);
    expect(after.summary).toContain('It may first wait 29ms for a per-pod relist holding the lock.');
    // At the edge: a relist that fits the 1.32 budget exactly is over it once it may wait 29 ms.
    const slowStatus = 180_000 - 1_000 - 5 - (2 + 5 + 3) - 5;
    const atEdge = (onDemand: boolean) =>
      projectRelist({ latencies: { ...lat, containerStatusMs: slowStatus }, pods: 1, containersPerPod: 1, changedPodsPerRelist: 1, onDemandRelist: onDemand, runtimeRequestTimeoutMs: 600_000 });
    expect(atEdge(false).worstAgeMs).toBe(180_000);
    expect(atEdge(false).unhealthy).toBe(false);
    expect(atEdge(true).unhealthy).toBe(true);
  });
});

