import { describe, expect, it } from 'vitest';
import { EventChannel } from '../../../../src/core/pleg/channel';
import { GenericPleg } from '../../../../src/core/pleg/generic';
import { PodCache } from '../../../../src/core/pleg/podCache';
import { PROFILE_1_32_PLUS } from '../../../../src/core/pleg/profiles';
import { LivePlegModel } from '../../../../src/core/timeline/liveModel';
import { DEFAULT_SESSION_SETTINGS, newTimelineSession } from '../../../../src/core/timeline/newSession';
import { applySessionDelta, type SessionSettings } from '../../../../src/core/timeline/session';
import { parseTimelineSession } from '../../../../src/core/timeline/validate';
import { failedListing, okListing, statusesFor, type PodSpec } from '../../../support/liveFixtures';

const settings = (over: Partial<SessionSettings> = {}): SessionSettings => ({ ...DEFAULT_SESSION_SETTINGS, thresholdMs: 5_000, runtimeRequestTimeoutMs: 2_000, ...over });

const pods: PodSpec[] = [
  { uid: 'a', containers: ['running'] },
  { uid: 'b', containers: ['running', 'running'] },
  { uid: 'c', containers: ['exited'] },
];

describe('LivePlegModel', () => {
  it('inspects new pods once, then only pods whose containers changed', () => {
    const model = new LivePlegModel({ settings: settings() });
    const first = okListing(0, pods);
    const want = model.statusRequests(first);
    expect(want.sort()).toEqual(['a', 'b', 'c']);
    const d1 = model.relist(first, statusesFor(first, want));
    const r1 = d1.relists?.[0];
    expect(r1?.ok).toBe(true);
    expect(r1?.podsInspected.sort()).toEqual(['default/pod-a', 'default/pod-b', 'default/pod-c']);
    // GetPods (2 calls) plus, per pod, ListPodSandbox + 1 PodSandboxStatus + ListContainers + a ContainerStatus per container.
    expect(r1?.rpcs).toHaveLength(2 + 3 * 3 + 4);
    expect(r1?.endMs).toBe(6 + (3 * 3 + 4) * 2);
    expect(r1?.rpcs[0]).toEqual({ rpc: 'ListPodSandbox', atMs: 0, latencyMs: 3 });
    expect(r1?.rpcs.find((r) => r.rpc === 'ContainerStatus')?.pod).toMatch(/^default\/pod-/);
    // Sandboxes and containers start: a, b×2, and the sandboxes; c's exited container is a Died.
    expect(d1.podEvents?.filter((e) => e.type === 'ContainerStarted')).toHaveLength(3 + 3);
    expect(d1.podEvents?.filter((e) => e.type === 'ContainerDied').map((e) => e.pod)).toEqual(['default/pod-c']);
    // Before the first relist the model has not relisted, but the node's kubelet has all along: no
    // unhealthy window for the moment the feed started, health is known from the first relist on.
    expect(d1.health).toEqual([{ atMs: 6, healthy: true }]);
    // The cost model at the relist's mean latency per RPC (ListPodSandbox and ListContainers: one 3 ms
    // unfiltered and three 2 ms filtered calls → 2.25 ms; the status calls 2 ms): GetPods 4.5 ms, a GetPodStatus
    // of 1 sandbox and (4/3 ≈ 1) container 8.5 ms; now 3 pods inspected, projected: all 110 (the default maxPods).
    expect(d1.cost?.[0]).toEqual({ atMs: r1?.endMs, pods: 3, relistMs: 4.5 + 3 * 8.5, projectedPods: 110, projectedRelistMs: 4.5 + 110 * 8.5 });

    const second = okListing(1_100, [pods[0] as PodSpec, { uid: 'b', containers: ['running', 'exited'] }, pods[2] as PodSpec]);
    expect(model.statusRequests(second)).toEqual(['b']);
    const d2 = model.relist(second, statusesFor(second, ['b']));
    expect(d2.relists?.[0]?.podsInspected).toEqual(['default/pod-b']);
    expect(d2.podEvents).toEqual([{ atMs: 1_106 + 5 * 2, pod: 'default/pod-b', type: 'ContainerDied', container: 'c-b-1' }]);
    expect(d2.health).toBeUndefined();
  });

  it('a failed status is fetched again next relist (reinspection), and only then', () => {
    const model = new LivePlegModel({ settings: settings() });
    const l1 = okListing(0, pods);
    model.relist(l1, statusesFor(l1, model.statusRequests(l1), { failing: new Set(['b']) }));
    const l2 = okListing(1_000, pods);
    expect(model.statusRequests(l2)).toEqual(['b']);
    model.relist(l2, statusesFor(l2, ['b']));
    expect(model.statusRequests(okListing(2_000, pods))).toEqual([]);
  });

  it('≤1.31 inspects a failing pod with events twice in one relist (main pass and reinspection pass)', () => {
    const model = new LivePlegModel({ settings: settings({ profile: '1.26-1.31' }) });
    const l1 = okListing(0, pods);
    model.relist(l1, statusesFor(l1, model.statusRequests(l1), { failing: new Set(['b']) }));
    const l2 = okListing(1_000, [pods[0] as PodSpec, { uid: 'b', containers: ['exited', 'running'] }, pods[2] as PodSpec]);
    const want = model.statusRequests(l2);
    expect(want).toEqual(['b', 'b']);
    const d = model.relist(l2, statusesFor(l2, want, { failing: new Set(['b']) }));
    expect(d.relists?.[0]?.podsInspected).toEqual(['default/pod-b', 'default/pod-b']);
  });

  it('turns unhealthy exactly when the stamp passes the threshold, with Healthy()\u2019s own message, and recovers when GetPods returns', () => {
    const model = new LivePlegModel({ settings: settings() });
    const session = newTimelineSession({ node: 'n', source: 'live', startedAt: new Date(0), settings: settings() });
    const l0 = okListing(0, pods);
    applySessionDelta(session, model.relist(l0, statusesFor(l0, model.statusRequests(l0))));
    // The runtime freezes: every listing hits the 2 s deadline.
    let t = 1_100;
    while (t < 9_000) {
      applySessionDelta(session, model.relist(failedListing(t, 2_000), []));
      t += 3_000;
    }
    const unhealthy = session.health.find((h) => !h.healthy && h.atMs > 0);
    expect(unhealthy?.atMs).toBe(5_000);
    // The message is what the kubelet's Healthy() answers at the instant the model noticed (the end of
    // the failed relist that ran past the crossing: 4.1 s + 2 s).
    const now = { t: 0 };
    const direct = new GenericPleg({
      profile: PROFILE_1_32_PLUS,
      clock: { now: () => now.t },
      channel: new EventChannel(10),
      cache: new PodCache(false),
      relistThresholdMs: 5_000,
      runtime: { getPods: () => ({ ok: true, pods: [] }), getPodStatus: () => ({ ok: false, error: 'unused' }) },
    });
    direct.relist();
    now.t = 6_100;
    expect(unhealthy?.message).toBe(direct.healthy().error);
    expect(unhealthy?.message).toBe('pleg was last seen active 6.1s ago; threshold is 5s');
    expect(session.relists.filter((r) => !r.ok).every((r) => r.error?.includes('DeadlineExceeded') === true)).toBe(true);
    // SIGCONT: the next listing succeeds; health returns when its GetPods returns.
    const l1 = okListing(10_100, pods);
    applySessionDelta(session, model.relist(l1, statusesFor(l1, model.statusRequests(l1))));
    expect(session.health.at(-1)).toEqual({ atMs: 10_106, healthy: true });
  });

  it('advance() flips health while a call is still in flight, not before', () => {
    const model = new LivePlegModel({ settings: settings() });
    const l0 = okListing(0, pods);
    model.relist(l0, statusesFor(l0, model.statusRequests(l0)));
    expect(model.advance(5_000).health).toBeUndefined();
    // A listing that already returned at 4.9 s keeps it healthy even if it is fed later.
    expect(model.advance(6_000, 4_900).health).toBeUndefined();
    const d = model.advance(5_001);
    expect(d.health).toEqual([{ atMs: 5_000, healthy: false, message: 'pleg was last seen active 5.001s ago; threshold is 5s' }]);
  });

  it('EventedPLEG: 300 s / 10 min while evented; stream events reach the cache and the channel by createdAt', () => {
    // t = 0 is half a second past a whole Unix second: createdAt must land on the clock to the nanosecond.
    const epochMs = 1_700_000_000_500;
    const at = (ms: number): bigint => BigInt(epochMs + ms) * 1_000_000n;
    const model = new LivePlegModel({ settings: settings({ evented: true, relistPeriodMs: 1_000, thresholdMs: 180_000 }), epochMs });
    expect(model.settings).toMatchObject({ relistPeriodMs: 300_000, thresholdMs: 600_000, evented: true });
    const l0 = okListing(0, pods);
    expect(model.relistDue(0)).toBe(true);
    model.relist(l0, statusesFor(l0, model.statusRequests(l0)));
    expect(model.relistDue(1_000)).toBe(false);
    expect(model.nextRelistDueMs).toBeGreaterThanOrEqual(300_000);
    const podB = (second: 'running' | 'exited') => ({
      uid: 'b',
      name: 'pod-b',
      namespace: 'default',
      sandboxes: [{ id: 'sb-b', state: 'running' as const }],
      containers: [
        { id: 'c-b-0', state: 'running' as const },
        { id: 'c-b-1', state: second },
      ],
    });
    // Older than the relist's cache write (its statuses were stamped while it ran, after 6 ms): refused, no event.
    expect(model.containerEvent({ type: 'CONTAINER_STOPPED_EVENT', containerId: 'c-b-1', createdAt: at(1), pod: podB('exited') }, 900).podEvents).toBeUndefined();
    const d = model.containerEvent({ type: 'CONTAINER_STOPPED_EVENT', containerId: 'c-b-1', createdAt: at(1_000), pod: podB('exited') }, 1_001);
    expect(d.podEvents).toEqual([{ atMs: 1_001, pod: 'default/pod-b', type: 'ContainerDied', container: 'c-b-1' }]);
    // No sandbox status: ignored, as the kubelet does.
    expect(model.containerEvent({ type: 'CONTAINER_STARTED_EVENT', containerId: 'c-b-1', createdAt: at(1_500), pod: null }, 1_500).podEvents).toBeUndefined();
    // Deleted: Died + Removed, whatever the cache says.
    const removed = model.containerEvent({ type: 'CONTAINER_DELETED_EVENT', containerId: 'c-b-1', createdAt: at(1_200), pod: podB('exited') }, 1_600);
    expect(removed.podEvents?.map((e) => e.type)).toEqual(['ContainerDied', 'ContainerRemoved']);
    expect(removed.relists).toBeUndefined();
  });

  it('EventedPLEG: each failed stream forces a counted relist; the 5th falls back to the generic settings and relists at once', () => {
    const model = new LivePlegModel({ settings: settings({ evented: true, relistPeriodMs: 1_000, thresholdMs: 180_000 }) });
    const l0 = okListing(0, pods);
    model.relist(l0, statusesFor(l0, model.statusRequests(l0)));
    const error = 'rpc error: code = Unimplemented desc = method GetContainerEvents not implemented';
    const deltas = [];
    for (let i = 0; i < 5; i++) {
      expect(model.eventedInUse).toBe(true);
      const l = okListing(100 + i * 100, pods);
      deltas.push(model.streamFailed(l, statusesFor(l, model.statusRequests(l)), error));
    }
    expect(deltas.map((d) => d.relists?.[0]?.streamFailure)).toEqual([1, 2, 3, 4, 5].map((failures) => ({ error, failures })));
    // The count survives the session format; a malformed one is named.
    const session = newTimelineSession({ node: 'n', source: 'live', startedAt: new Date(0), settings: settings({ evented: true }) });
    for (const d of deltas) applySessionDelta(session, d);
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session)))).toMatchObject({ ok: true });
    const bad = JSON.parse(JSON.stringify(session)) as { relists: { streamFailure?: unknown }[] };
    (bad.relists[1] as { streamFailure?: unknown }).streamFailure = { error: error, failures: 0 };
    expect(JSON.stringify(parseTimelineSession(bad))).toContain('relists[1].streamFailure.failures');
    expect(deltas.map((d) => d.relists?.[0]?.ok)).toEqual([true, true, true, true, true]);
    expect(deltas.slice(0, 4).every((d) => d.settings === undefined)).toBe(true);
    expect(deltas[4]?.settings).toMatchObject({ relistPeriodMs: 1_000, thresholdMs: 180_000, evented: true });
    expect(model.eventedInUse).toBe(false);
    // The restarted generic PLEG relists at once, then every second.
    const end = deltas[4]?.relists?.[0]?.endMs ?? NaN;
    expect(model.nextRelistDueMs).toBe(end);
    const l6 = okListing(end, pods);
    const after = model.relist(l6, statusesFor(l6, model.statusRequests(l6)));
    expect(after.relists?.[0]?.streamFailure).toBeUndefined();
    expect(model.nextRelistDueMs).toBe((after.relists?.[0]?.endMs ?? NaN) + 1_000);
    // No stream after the fallback: a failure cannot be modelled, events are not taken.
    expect(() => model.streamFailed(l6, [], error)).toThrow(/no EventedPLEG in use/u);
    expect(model.containerEvent({ type: 'CONTAINER_STARTED_EVENT', containerId: 'x', createdAt: 0n, pod: { uid: 'a', name: 'pod-a', namespace: 'default', sandboxes: [], containers: [] } }, end + 10).podEvents).toBeUndefined();
  });
});

describe('LivePlegModel on a 1.36 node: the PLEGOnDemandRelist gate', () => {
  const on136 = (gate?: SessionSettings['onDemandRelist']): SessionSettings => settings({ profile: '1.36+', ...(gate !== undefined ? { onDemandRelist: gate } : {}) });

  it('with the gate on, a cost reading prices one per-pod relist: the wait a periodic relist may have', () => {
    const model = new LivePlegModel({ settings: on136({ enabled: true, source: 'versionDefault' }) });
    const l = okListing(0, pods);
    const d = model.relist(l, statusesFor(l, model.statusRequests(l)));
    // GetPod (ListPodSandbox + ListContainers at their 2.25 ms means) and one GetPodStatus of 1 sandbox and
    // 1 container (8.5 ms, as in the relist's own cost above).
    expect(d.cost?.[0]?.podRelistWaitMs).toBe(4.5 + 8.5);
    const off = new LivePlegModel({ settings: on136({ enabled: false, source: 'configz' }) });
    const d2 = off.relist(l, statusesFor(l, off.statusRequests(l)));
    expect(d2.cost?.[0]).not.toHaveProperty('podRelistWaitMs');
  });

  it('learns the gate the kubelet exports once, and again only when it changes; the session keeps it', () => {
    const model = new LivePlegModel({ settings: on136({ enabled: true, source: 'versionDefault' }) });
    const session = newTimelineSession({ node: 'n', source: 'live', startedAt: new Date(0), settings: model.settings });
    const learnt = model.learnOnDemandGate({ enabled: true, source: 'metrics' }, 5_000);
    expect(learnt).toEqual({ durationMs: 5_000, settings: expect.objectContaining({ onDemandRelist: { enabled: true, source: 'metrics' } }) });
    expect(model.learnOnDemandGate({ enabled: true, source: 'metrics' }, 10_000)).toBeNull();
    applySessionDelta(session, learnt ?? { durationMs: 0 });
    expect(session.settings.onDemandRelist).toEqual({ enabled: true, source: 'metrics' });
    expect(parseTimelineSession(JSON.parse(JSON.stringify(session)))).toMatchObject({ ok: true });
    // Switched off on the node (a restart with the gate off): no per-pod wait priced any more.
    expect(model.learnOnDemandGate({ enabled: false, source: 'metrics' }, 15_000)?.settings?.onDemandRelist).toEqual({ enabled: false, source: 'metrics' });
    const l = okListing(16_000, pods);
    expect(model.relist(l, statusesFor(l, model.statusRequests(l))).cost?.[0]).not.toHaveProperty('podRelistWaitMs');
  });

  it('a recording with a gate of an unknown source is refused, naming the field', () => {
    const s = newTimelineSession({ node: 'n', source: 'live', startedAt: new Date(0), settings: on136({ enabled: true, source: 'versionDefault' }) });
    const bad = JSON.parse(JSON.stringify(s)) as { settings: { onDemandRelist: { source: string } } };
    bad.settings.onDemandRelist.source = 'guess';
    const r = parseTimelineSession(bad);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.join('\n')).toContain('settings.onDemandRelist.source');
  });
});
