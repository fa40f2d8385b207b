import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { EventChannel } from '../../../../src/core/pleg/channel';
import { GenericPleg } from '../../../../src/core/pleg/generic';
import { PodCache } from '../../../../src/core/pleg/podCache';
import { statusFromPod } from '../../../../src/core/pleg/podStatus';
import type { PlegProfile } from '../../../../src/core/pleg/profiles';
import { PROFILE_1_14_1_25, PROFILE_1_26_1_31, PROFILE_1_32_PLUS } from '../../../../src/core/pleg/profiles';
import type { ContainerState, PlegEvent, RuntimeContainer, RuntimePod } from '../../../../src/core/pleg/types';
import { propWithLoops } from '../../../support/loopTally';

const state = fc.constantFrom<ContainerState>('running', 'exited', 'unknown', 'created');
const containers = (prefix: string) => fc.array(fc.record({ id: fc.constantFrom(...[0, 1, 2, 3, 4].map((i) => `${prefix}${i}`)), state }), { maxLength: 4 });
const podArb = fc.record({
  uid: fc.constantFrom('a', 'b', 'c', 'd'),
  containers: containers('c'),
  sandboxes: containers('s'),
});
const podList = fc.array(podArb, { maxLength: 5 }).map((ps) => ps.map((p): RuntimePod => ({ ...p, name: `pod-${p.uid}`, namespace: 'ns' })));
const profileArb = fc.constantFrom<PlegProfile>(PROFILE_1_14_1_25, PROFILE_1_26_1_31, PROFILE_1_32_PLUS);

const snapshot = fc.record({
  pods: podList,
  failGetPods: fc.boolean(),
  failStatus: fc.subarray(['a', 'b', 'c', 'd']),
  consume: fc.integer({ min: 0, max: 6 }),
});

function build(profile: PlegProfile, capacity: number) {
  const clock = { t: 0 };
  const rt = { pods: [] as RuntimePod[], failGetPods: false, failStatus: new Set<string>() };
  const pleg = new GenericPleg({
    profile,
    runtime: {
      getPods: () => (rt.failGetPods ? { ok: false, error: 'down' } : { ok: true, pods: rt.pods }),
      getPodStatus: (p) => {
        if (rt.failStatus.has(p.uid)) return { ok: false, error: 'inspect failed' };
        const live = rt.pods.find((x) => x.uid === p.uid);
        return { ok: true, status: statusFromPod(live ?? { ...p, containers: [], sandboxes: [] }) };
      },
    },
    clock: { now: () => clock.t },
    channel: new EventChannel(capacity),
    cache: new PodCache(false),
  });
  return { clock, rt, pleg };
}

const deepCopy = (pods: RuntimePod[]): RuntimePod[] => JSON.parse(JSON.stringify(pods)) as RuntimePod[];

/** The rule of docs/pleg-model.md, written independently: old containers, old sandboxes, new-only ones, IDs once. */
function referenceEvents(uid: string, oldPod: RuntimePod | null, newPod: RuntimePod | null): { sent: string[]; changed: boolean } {
  const norm = (s: ContainerState) => (s === 'created' ? 'unknown' : s);
  const find = (p: RuntimePod | null, id: string) => {
    if (p === null) return 'none';
    const c = p.containers.find((x) => x.id === id) ?? p.sandboxes.find((x) => x.id === id);
    return c === undefined ? 'none' : norm(c.state);
  };
  const ids: string[] = [];
  const all: RuntimeContainer[] = [...(oldPod?.containers ?? []), ...(oldPod?.sandboxes ?? []), ...(newPod?.containers ?? []), ...(newPod?.sandboxes ?? [])];
  for (const c of all) if (!ids.includes(c.id)) ids.push(c.id);
  const out: string[] = [];
  let changed = false;
  for (const id of ids) {
    const [o, n] = [find(oldPod, id), find(newPod, id)];
    if (o === n) continue;
    changed = true; // includes the ContainerChanged transitions, which are never sent
    if (n === 'running') out.push(`${uid}:ContainerStarted:${id}`);
    else if (n === 'exited') out.push(`${uid}:ContainerDied:${id}`);
    else if (n === 'none') {
      if (o !== 'exited') out.push(`${uid}:ContainerDied:${id}`);
      out.push(`${uid}:ContainerRemoved:${id}`);
    }
  }
  return { sent: out, changed };
}

const key = (e: PlegEvent) => `${e.pod}:${e.type}:${e.data}`;

test.prop([profileArb, podList])('an unchanged runtime state yields no events and no inspections', (profile, pods) => {
  const { clock, rt, pleg } = build(profile, 1000);
  rt.pods = pods;
  pleg.relist();
  pleg.receive();
  clock.t = 1000;
  rt.pods = deepCopy(pods); // same state, new objects
  const r = pleg.relist();
  expect(r).toMatchObject({ ok: true, generated: 0, delivered: 0, discarded: 0, inspected: [] });
  expect(pleg.channel.length).toBe(0);
});

// Minimums over the 100 runs of each property (see ../loopTally.ts): far below what the runs give.
propWithLoops([profileArb, fc.array(snapshot, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 8 })], { numRuns: 100 }, { ok: 50, failed: 50, discarded: 5 })(
  'relist time never moves backwards and is the start of the last successful relist; delivered + discarded = generated',
  (profile, snaps, capacity, tally) => {
    const { clock, rt, pleg } = build(profile, capacity);
    let lastOk: number | null = null;
    for (const s of snaps) {
      clock.t += 1000;
      rt.pods = s.pods;
      rt.failGetPods = s.failGetPods;
      rt.failStatus = new Set(s.failStatus);
      const before = pleg.lastRelistMs;
      const r = pleg.relist();
      if (r.ok) lastOk = r.startMs;
      tally.hit(r.ok ? 'ok' : 'failed');
      if (r.discarded > 0) tally.hit('discarded');
      expect(pleg.lastRelistMs).toBe(lastOk);
      if (before !== null) expect(pleg.lastRelistMs).toBeGreaterThanOrEqual(before);
      expect(r.delivered + r.discarded).toBe(r.generated);
      expect(pleg.channel.length).toBeLessThanOrEqual(capacity);
      if (!r.ok) expect(r.generated + r.inspected.length).toBe(0);
      pleg.drain(s.consume);
    }
  },
);

propWithLoops([profileArb, fc.array(snapshot, { minLength: 1, maxLength: 10 })], { numRuns: 100 }, { withEvents: 50, inspectionFailed: 10 })(
  'each pod gets the reference events in the fixed order, diffed against its last successfully processed state',
  (profile, snaps, tally) => {
    const { clock, rt, pleg } = build(profile, 10_000);
    // The model's record of what each pod looked like when its events were last sent.
    const seen = new Map<string, RuntimePod | null>();
    for (const s of snaps) {
      clock.t += 1000;
      rt.pods = s.pods;
      rt.failStatus = new Set(s.failStatus);
      const current = new Map<string, RuntimePod>();
      for (const p of s.pods) current.set(p.uid, p);
      const olds = new Map(seen);
      pleg.relist();
      const got = new Map<string, string[]>();
      for (const e of pleg.receive()) got.set(e.pod, [...(got.get(e.pod) ?? []), key(e)]);
      for (const uid of new Set([...olds.keys(), ...current.keys()])) {
        const { sent: expected, changed } = referenceEvents(uid, olds.get(uid) ?? null, current.get(uid) ?? null);
        const events = got.get(uid) ?? [];
        const inspectionFailed = s.failStatus.includes(uid) && current.has(uid);
        // A failed inspection drops the pod's events; otherwise they are exactly the reference, in order.
        if (inspectionFailed) tally.hit('inspectionFailed');
        else if (expected.length > 0) tally.hit('withEvents');
        expect(events).toEqual(inspectionFailed ? [] : expected);
        if (changed && !inspectionFailed) {
          if (current.has(uid)) seen.set(uid, current.get(uid) ?? null);
          else seen.delete(uid);
        }
      }
    }
  },
);

test.prop([fc.integer({ min: 1, max: 3_600_000 }), fc.integer({ min: 0, max: 7_200_000 }), fc.integer({ min: 0, max: 10_000_000 })])(
  'Healthy() flips exactly when elapsed > threshold',
  (threshold, elapsed, start) => {
    const clock = { t: start };
    const pleg = new GenericPleg({
      profile: PROFILE_1_32_PLUS,
      runtime: { getPods: () => ({ ok: true, pods: [] }), getPodStatus: () => ({ ok: false, error: 'unused' }) },
      clock: { now: () => clock.t },
      channel: new EventChannel(1),
      cache: new PodCache(false),
      relistThresholdMs: threshold,
    });
    pleg.relist();
    clock.t = start + elapsed;
    const h = pleg.healthy();
    expect(h.healthy).toBe(elapsed <= threshold);
    if (!h.healthy) expect(h.error).toMatch(/^pleg was last seen active \S+ ago; threshold is \S+$/u);
  },
);

propWithLoops([fc.array(snapshot, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 4 })], { numRuns: 100 }, { blocked: 20 })(
  '≤1.13 never discards: a blocked relist finishes once the consumer drains, with every event delivered in order',
  (snaps, capacity, tally) => {
    const reference = build(PROFILE_1_14_1_25, 10_000);
    const { clock, rt, pleg } = build({ ...PROFILE_1_14_1_25, id: '1.13', blockingSend: true }, capacity);
    for (const s of snaps) {
      clock.t += 1000;
      reference.clock.t = clock.t;
      for (const target of [rt, reference.rt]) {
        target.pods = s.pods;
        target.failGetPods = s.failGetPods;
        target.failStatus = new Set(s.failStatus);
      }
      const r = pleg.relist();
      const expected = reference.pleg.relist();
      const got: PlegEvent[] = [];
      // A relist that sent more events than the channel holds is still blocked here.
      if (pleg.blockedRelist !== null) tally.hit('blocked');
      while (pleg.blockedRelist !== null) got.push(...pleg.receive(1));
      got.push(...pleg.receive());
      expect(r).toMatchObject({ blocked: false, discarded: 0, delivered: expected.generated, generated: expected.generated });
      expect(got.map(key)).toEqual(reference.pleg.receive().map(key));
    }
  },
);
