// Kubelet 1.36 replay on random traces, against what the v1.36.2 code says (test/fixtures/pleg-oracle/
// README.md, "What on-demand relist does"): the request queue holds 200 and never de-duplicates, a request
// runs only if it is strictly later than the last successful periodic relist, a per-pod relist never moves
// the relist time, GetPod is called once per request that runs, and SetObservedTime only for pods GetPod
// found. And with only the older ops, 1.36 answers as 1.32 did except for PodSync (README: "Nothing else
// changed").

import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { replayTrace, type StepResult } from '../../../../src/core/pleg/replay';

const UIDS = ['a', 'b', 'c'] as const;
const state = fc.constantFrom('running', 'exited', 'unknown', 'created');
const podArb = fc.record({
  uid: fc.constantFrom(...UIDS),
  containers: fc.array(fc.record({ id: fc.constantFrom('c1', 'c2', 'c3'), state }), { maxLength: 2 }),
  sandboxes: fc.array(fc.record({ id: fc.constantFrom('s1', 's2'), state }), { maxLength: 1 }),
});
const podsArb = fc.uniqueArray(podArb, { maxLength: 3, selector: (p) => p.uid });
const errorsArb = fc.subarray([...UIDS]).map((uids) => Object.fromEntries(uids.map((u) => [u, 'inspect failed'])));

const relistArb = fc.record({ op: fc.constant('relist'), pods: podsArb, podStatusErrors: errorsArb, getPodsFails: fc.boolean() }).map(({ getPodsFails, ...s }) => ({
  ...s,
  ...(getPodsFails ? { getPodsError: 'rpc error: code = Unavailable' } : {}),
}));
const requestArb = fc.record({ op: fc.constant('requestRelist'), podUIDs: fc.array(fc.constantFrom(...UIDS, 'ghost'), { minLength: 1, maxLength: 3 }), count: fc.constantFrom(1, 1, 2, 90) });
const processArb = fc.record({ op: fc.constant('processRelistQueue'), podStatusErrors: errorsArb, max: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }) }).map((s) =>
  s.max === undefined ? { op: s.op, podStatusErrors: s.podStatusErrors } : s,
);
const setRuntimeArb = fc.record({ op: fc.constant('setRuntime'), pods: podsArb });
const healthyArb = fc.record({ op: fc.constant('healthy') });

function withTimes(steps: Record<string, unknown>[], gaps: number[]): Record<string, unknown>[] {
  let at = 0;
  return steps.map((s, i) => {
    at += gaps[i % gaps.length] ?? 1;
    return { ...s, at };
  });
}

const onDemandTrace = fc
  .tuple(fc.array(fc.oneof(relistArb, requestArb, processArb, setRuntimeArb, healthyArb), { minLength: 1, maxLength: 14 }), fc.array(fc.integer({ min: 0, max: 700 }), { minLength: 1, maxLength: 5 }))
  .map(([steps, gaps]) => ({ config: { channelCapacity: 1000, onDemandRelist: true }, steps: withTimes(steps, gaps) }));

test.prop([onDemandTrace])('1.36 on-demand relist: queue, staleness, relist time, GetPod and observed time as the code does them', (trace) => {
  const result = replayTrace(trace, '1.36');
  let relistTime: number | undefined;
  let queued: number[] = [];
  result.steps.forEach((r: StepResult, i) => {
    const step = trace.steps[i] as { op: string; at: number };
    expect(r.relistQueue, `step ${i}`).toBeDefined();
    expect(r.relistQueue!.length).toBeLessThanOrEqual(200);
    if (step.op === 'requestRelist') {
      const s = step as unknown as { podUIDs: string[]; count: number };
      const asked = s.podUIDs.length * s.count;
      expect(r.relistRequestsAccepted! + r.relistRequestsDropped!).toBe(asked);
      expect(r.relistRequestsAccepted).toBe(Math.min(asked, 200 - queued.length));
      queued = [...queued, ...Array<number>(r.relistRequestsAccepted!).fill(step.at)];
    }
    if (step.op === 'processRelistQueue') {
      // A per-pod relist never moves the relist time; each request runs iff it is later than it.
      expect(r.relistTimeMs).toBe(relistTime);
      const handled = r.queueHandled ?? [];
      for (const [k, h] of handled.entries()) {
        expect(h.requestedMs).toBe(queued[k]);
        expect(h.ran).toBe(relistTime === undefined || h.requestedMs > relistTime);
      }
      queued = queued.slice(handled.length);
      expect(r.getPodCalls ?? []).toEqual(handled.filter((h) => h.ran).map((h) => h.pod));
      for (const o of r.cacheObserved ?? []) expect(o.atMs).toBe(step.at);
      expect((r.cacheObserved ?? []).length).toBeLessThanOrEqual((r.getPodCalls ?? []).filter((u) => u !== 'ghost').length);
      expect(r.cacheUpdateTimeMs).toBeUndefined();
    }
    expect(r.relistQueue!.length).toBe(queued.length);
    // Only a successful periodic relist moves the relist time (the start of that relist).
    if (step.op === 'relist' && !('getPodsError' in step)) relistTime = step.at;
    if (step.op !== 'healthy' && step.op !== 'setRuntime') expect(r.relistTimeMs, `step ${i}`).toBe(relistTime);
  });
});

const olderOpsTrace = fc
  .tuple(fc.array(fc.oneof(relistArb, healthyArb), { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 0, max: 70_000 }), { minLength: 1, maxLength: 5 }))
  .map(([steps, gaps]) => ({ config: { channelCapacity: 1000 }, steps: withTimes(steps, gaps) }));

/** A step without PodSync events, and without the fields a 1.36 on-demand trace adds. */
function withoutPodSync(r: StepResult): Record<string, unknown> {
  const drop = (events: StepResult['delivered']) => events?.filter((e) => e.type !== 'PodSync');
  const out: Record<string, unknown> = { ...r, delivered: drop(r.delivered), consumed: drop(r.consumed) };
  if (r.generatedByPod !== undefined) {
    const g = Object.entries(r.generatedByPod).map(([pod, events]) => [pod, events.filter((e) => e.type !== 'PodSync')] as const);
    out['generatedByPod'] = Object.fromEntries(g.filter(([, events]) => events.length > 0));
  }
  for (const k of ['delivered', 'consumed']) if ((out[k] as unknown[] | undefined)?.length === 0) delete out[k];
  if (Object.keys((out['generatedByPod'] as object | undefined) ?? {}).length === 0) delete out['generatedByPod'];
  delete out['orderSensitive'];
  // Both read everything after each relist, so the channel is empty after every step either way.
  return out;
}

test.prop([olderOpsTrace])('with only the older ops, 1.36 answers as 1.32 except for PodSync after a quiet reinspection', (trace) => {
  const v132 = replayTrace(trace, '1.32').steps;
  const v136 = replayTrace(trace, '1.36').steps;
  expect(v136.map(withoutPodSync)).toEqual(v132.map(withoutPodSync));
  // A PodSync only ever follows a pod's failed inspection (its reinspection flag).
  let flagged = new Set<string>();
  for (const r of v136) {
    if (r.op !== 'relist') continue;
    for (const e of r.delivered ?? []) if (e.type === 'PodSync') expect(flagged.has(e.pod), `PodSync for ${e.pod}`).toBe(true);
    flagged = new Set(r.podsToReinspect ?? []);
  }
});
