import { describe, expect, it } from 'vitest';
import { PlegConfigurationError } from '../../../../src/core/pleg/generic';
import { EventChannel } from '../../../../src/core/pleg/channel';
import { GenericPleg } from '../../../../src/core/pleg/generic';
import { PROFILE_1_13, PROFILE_1_14_1_25, PROFILE_1_26_1_31, PROFILE_1_32_PLUS, PROFILE_1_36_PLUS, profileForKubeletVersion } from '../../../../src/core/pleg/profiles';
import { harness, pod } from '../../../support/plegHarness';

describe('GenericPleg relist', () => {
  it('emits the table events in the fixed per-pod order and filters ContainerChanged', () => {
    const h = harness(PROFILE_1_32_PLUS);
    h.runtime.pods = [pod('a', { c1: 'running', c2: 'exited', c3: 'created' }, { s1: 'running' })];
    const r = h.pleg.relist();
    expect(r).toMatchObject({ ok: true, generated: 3, delivered: 3, discarded: 0, inspected: ['a'] });
    expect(h.pleg.receive()).toEqual([
      { pod: 'a', type: 'ContainerStarted', data: 'c1' },
      { pod: 'a', type: 'ContainerDied', data: 'c2' },
      { pod: 'a', type: 'ContainerStarted', data: 's1' },
    ]);
    h.clock.t = 1000;
    h.runtime.pods = [pod('a', { c2: 'exited', c4: 'running' }, { s1: 'exited' })];
    h.pleg.relist();
    expect(h.pleg.receive().map((e) => `${e.type}:${e.data}`)).toEqual([
      'ContainerDied:c1',
      'ContainerRemoved:c1',
      'ContainerDied:c3',
      'ContainerRemoved:c3',
      'ContainerDied:s1',
      'ContainerStarted:c4',
    ]);
  });

  it('a GetPods failure keeps the relist time and the reinspection set and emits nothing', () => {
    const h = harness(PROFILE_1_32_PLUS);
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.runtime.statusErrors.set('a', 'boom');
    h.pleg.relist();
    expect(h.pleg.reinspectionSet()).toEqual(['a']);
    h.clock.t = 5000;
    h.runtime.getPodsError = 'rpc error: code = DeadlineExceeded';
    const r = h.pleg.relist();
    expect(r).toMatchObject({ ok: false, error: 'rpc error: code = DeadlineExceeded', generated: 0, inspected: [] });
    expect(h.pleg.lastRelistMs).toBe(0);
    expect(h.pleg.reinspectionSet()).toEqual(['a']);
  });

  it('≤1.31 inspects a failing pod with new events twice, 1.32 once', () => {
    for (const [profile, calls] of [
      [PROFILE_1_26_1_31, ['a', 'a']],
      [PROFILE_1_32_PLUS, ['a']],
    ] as const) {
      const h = harness(profile);
      h.runtime.pods = [pod('a', { c1: 'running' })];
      h.runtime.statusErrors.set('a', 'slow disk');
      h.pleg.relist();
      h.clock.t = 1000;
      h.runtime.pods = [pod('a', { c1: 'exited' })];
      expect(h.pleg.relist().inspected).toEqual(calls);
    }
  });

  it('relist time is the start of the relist even when inspections take time', () => {
    const h = harness(PROFILE_1_26_1_31);
    h.runtime.statusLatencyMs = 120_000;
    h.clock.t = 10_000;
    h.runtime.pods = [pod('a', { c1: 'running' }), pod('b', { c2: 'running' })];
    const r = h.pleg.relist();
    expect(r.startMs).toBe(10_000);
    expect(h.clock.t).toBe(250_000);
    expect(h.pleg.lastRelistMs).toBe(10_000);
    // 4 min after the start: a 2-inspection relist alone crosses the 3 min threshold (#94829).
    expect(h.pleg.healthy()).toEqual({ healthy: false, error: 'pleg was last seen active 4m0s ago; threshold is 3m0s' });
  });
});

describe('GenericPleg Healthy()', () => {
  it('is strict: 3m0s is healthy, 3m0.001s is not', () => {
    const h = harness(PROFILE_1_32_PLUS);
    expect(h.pleg.healthy()).toEqual({ healthy: false, error: 'pleg has yet to be successful' });
    h.clock.t = 1000;
    h.pleg.relist();
    h.clock.t = 181_000;
    expect(h.pleg.healthy()).toEqual({ healthy: true });
    h.clock.t = 181_001;
    expect(h.pleg.healthy()).toEqual({ healthy: false, error: 'pleg was last seen active 3m0.001s ago; threshold is 3m0s' });
  });

  it('kubelets before PR #69008 print the maximum Go duration when never relisted', () => {
    const h = harness(profileForKubeletVersion('v1.12.3'));
    expect(h.pleg.healthy().error).toBe('pleg was last seen active 2562047h47m16.854775807s ago; threshold is 3m0s');
    expect(harness(profileForKubeletVersion('v1.13.0')).pleg.healthy().error).toBe('pleg has yet to be successful');
  });

  it('updateRelistDuration changes the threshold from 1.26 and is refused before', () => {
    const h = harness(PROFILE_1_26_1_31);
    h.pleg.relist();
    h.pleg.updateRelistDuration(300_000, 600_000);
    h.clock.t = 600_001;
    expect(h.pleg.healthy().error).toBe('pleg was last seen active 10m0.001s ago; threshold is 10m0s');
    expect(() => harness(PROFILE_1_14_1_25).pleg.updateRelistDuration(1000, 1000)).toThrow(PlegConfigurationError);
  });
});

describe('channel and versions', () => {
  it('1.14+ drops events when the channel is full and counts them', () => {
    const h = harness(PROFILE_1_14_1_25, { capacity: 2 });
    h.runtime.pods = [pod('a', { c1: 'running', c2: 'running', c3: 'running' })];
    const r = h.pleg.relist();
    expect(r).toMatchObject({ generated: 3, delivered: 2, discarded: 1, blocked: false });
    expect(h.channel.length).toBe(2);
  });

  it('≤1.13 blocks the relist in the send until the consumer drains; health degrades meanwhile (#72482)', () => {
    const h = harness(PROFILE_1_13, { capacity: 2 });
    h.runtime.pods = [pod('a', { c1: 'running', c2: 'running', c3: 'running' }), pod('b', { c4: 'running' })];
    const r = h.pleg.relist();
    expect(r).toMatchObject({ blocked: true, delivered: 2, discarded: 0 });
    expect(h.pleg.blockedRelist).toBe(r);
    expect(() => h.pleg.relist()).toThrow(/blocked in a channel send/u);
    h.clock.t = 180_001;
    expect(h.pleg.healthy().healthy).toBe(false);
    // The consumer reads one event; the stuck send proceeds and fills the channel again.
    expect(h.pleg.receive(1)).toHaveLength(1);
    expect(r).toMatchObject({ blocked: true, delivered: 3 });
    // Reading both frees room for b's event, which completes the relist.
    expect(h.pleg.receive()).toHaveLength(2);
    expect(r).toMatchObject({ blocked: false, delivered: 4, generated: 4, discarded: 0 });
    expect(h.pleg.blockedRelist).toBeNull();
    expect(h.pleg.receive()).toEqual([{ pod: 'b', type: 'ContainerStarted', data: 'c4' }]);
  });

  it('1.32 refuses to run without a cache (the kubelet panics); ≤1.31 runs without one', () => {
    const make = (profile: typeof PROFILE_1_32_PLUS) => () =>
      new GenericPleg({
        profile,
        runtime: { getPods: () => ({ ok: true, pods: [] }), getPodStatus: () => ({ ok: false, error: 'x' }) },
        clock: { now: () => 0 },
        channel: new EventChannel(10),
        cache: null,
      });
    expect(make(PROFILE_1_32_PLUS)).toThrow(/requires a pod cache/u);
    expect(make(PROFILE_1_26_1_31)).not.toThrow();
    const h = harness(PROFILE_1_26_1_31, { cache: false });
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.runtime.statusErrors.set('a', 'ignored');
    expect(h.pleg.relist()).toMatchObject({ inspected: [], delivered: 1 });
  });

  it('keeps cached IPs when the new status has none and no READY sandbox', () => {
    const h = harness(PROFILE_1_32_PLUS);
    h.runtime.pods = [{ ...pod('a', { c1: 'running' }, { s1: 'running' }), ips: ['10.0.0.7'] }];
    h.pleg.relist();
    h.clock.t = 1000;
    h.runtime.pods = [pod('a', { c1: 'exited' }, { s1: 'exited' })];
    h.pleg.relist();
    expect(h.cache?.get('a')?.status?.ips).toEqual(['10.0.0.7']);
    h.clock.t = 2000;
    h.runtime.pods = [pod('a', { c1: 'exited', c2: 'running' }, { s1: 'exited', s2: 'running' })];
    h.pleg.relist();
    expect(h.cache?.get('a')?.status?.ips).toEqual([]);
  });
});

describe('GenericPleg on-demand relist (1.36)', () => {
  it('exists only from 1.36: the gate on an older profile and RequestRelist there are configuration errors', () => {
    expect(() => harness(PROFILE_1_32_PLUS, { onDemandRelist: true })).toThrow(/kubelet 1\.32\+ has no on-demand relist/u);
    expect(() => harness(PROFILE_1_32_PLUS).pleg.requestRelist('a')).toThrow(PlegConfigurationError);
    expect(harness(PROFILE_1_36_PLUS).pleg.requestRelist('a')).toBe('ignored');
  });

  it('relistPod reports its own duration (GetPodStatus latency) and never moves the relist time Healthy() reads', () => {
    const h = harness(PROFILE_1_36_PLUS, { onDemandRelist: true, thresholdMs: 10_000 });
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.pleg.relist();
    h.pleg.receive();
    h.clock.t = 9_000;
    h.runtime.pods = [pod('a', { c1: 'exited' })];
    h.runtime.statusLatencyMs = 4_000;
    expect(h.pleg.requestRelist('a')).toBe('accepted');
    const served = h.pleg.serveRelistRequest();
    expect(served).toMatchObject({ uid: 'a', requestedMs: 9_000, ran: true });
    expect(served?.report).toMatchObject({ uid: 'a', ok: true, startMs: 9_000, endMs: 13_000, generated: 1, delivered: 1, inspected: ['a'] });
    expect(h.pleg.lastRelistMs).toBe(0);
    // The cache is stamped at the pod read time (before GetPodStatus), and marked observed then.
    expect(h.cache?.get('a')).toMatchObject({ modified: 9_000_000_000n, observed: 9_000_000_000n });
    expect(h.pleg.healthy()).toEqual({ healthy: false, error: 'pleg was last seen active 13s ago; threshold is 10s' });
    expect(h.pleg.receive()).toEqual([{ pod: 'a', type: 'ContainerDied', data: 'c1' }]);
  });

  it('a request is stale once a periodic relist started at or after it, and the queue holds 200', () => {
    const h = harness(PROFILE_1_36_PLUS, { onDemandRelist: true });
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.clock.t = 1_000;
    h.pleg.requestRelist('a');
    h.pleg.relist();
    expect(h.pleg.serveRelistRequest()).toEqual({ uid: 'a', requestedMs: 1_000, ran: false });
    expect(h.pleg.serveRelistRequest()).toBeNull();
    for (let i = 0; i < 200; i++) expect(h.pleg.requestRelist('a')).toBe('accepted');
    expect(h.pleg.requestRelist('b')).toBe('dropped');
    expect(h.pleg.relistQueue()).toHaveLength(200);
  });

  it('a per-pod relist that fails GetPodStatus leaves the pod for reinspection; the next one sends PodSync if nothing changed', () => {
    const h = harness(PROFILE_1_36_PLUS, { onDemandRelist: true });
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.pleg.relist();
    h.pleg.receive();
    h.clock.t = 2_000;
    h.runtime.pods = [pod('a', { c1: 'exited' })];
    h.runtime.statusErrors.set('a', 'boom');
    h.pleg.requestRelist('a');
    expect(h.pleg.serveRelistRequest()?.report).toMatchObject({ generated: 0, inspected: ['a'] });
    expect(h.pleg.reinspectionSet()).toEqual(['a']);
    // c1 is running again (restarted in place): no container change, only the pending reinspection.
    h.runtime.pods = [pod('a', { c1: 'running' })];
    h.runtime.statusErrors.clear();
    h.clock.t = 3_000;
    h.pleg.requestRelist('a');
    expect(h.pleg.serveRelistRequest()?.report).toMatchObject({ generated: 1, inspected: ['a'] });
    expect(h.pleg.receive()).toEqual([{ pod: 'a', type: 'PodSync', data: null }]);
    expect(h.pleg.reinspectionSet()).toEqual([]);
  });
});

