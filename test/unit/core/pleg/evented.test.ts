import { describe, expect, it } from 'vitest';
import type { CriContainerEvent } from '../../../../src/core/pleg/evented';
import { EventedPleg } from '../../../../src/core/pleg/evented';
import { PlegConfigurationError } from '../../../../src/core/pleg/generic';
import type { PlegProfile } from '../../../../src/core/pleg/profiles';
import { PROFILE_1_14_1_25, PROFILE_1_26_1_31, PROFILE_1_32_PLUS, PLEG_CONSTANTS } from '../../../../src/core/pleg/profiles';
import { stampToOracleMs } from '../../../../src/core/pleg/stamp';
import { harness, pod } from '../../../support/plegHarness';

const BASE_NS = 1_700_000_000n * 1_000_000_000n;

function setup(profile: PlegProfile, capacity = 100) {
  const h = harness(profile, { capacity, eventedGate: true });
  h.pleg.updateRelistDuration(PLEG_CONSTANTS.eventedRelistPeriodMs, PLEG_CONSTANTS.eventedRelistThresholdMs);
  const cache = h.cache;
  if (cache === null) throw new Error('cache expected');
  const evented = new EventedPleg({ profile, clock: { now: () => h.clock.t }, channel: h.channel, cache, generic: h.pleg, usage: h.usage });
  evented.start();
  return { ...h, cache, evented };
}

function event(type: CriContainerEvent['type'], containerId: string, createdAt: bigint, p = pod('a', { c1: 'running' }, { sa: 'running' })): CriContainerEvent {
  return { type, containerId, createdAt, pod: p };
}

describe('EventedPleg', () => {
  it('does not exist before 1.26', () => {
    const h = harness(PROFILE_1_14_1_25, { eventedGate: true });
    const cache = h.cache;
    if (cache === null) throw new Error('cache expected');
    expect(
      () => new EventedPleg({ profile: PROFILE_1_14_1_25, clock: { now: () => 0 }, channel: h.channel, cache, generic: h.pleg, usage: h.usage }),
    ).toThrow(PlegConfigurationError);
  });

  it('maps CRI events to cache writes and lifecycle events (1.32, nanoseconds)', () => {
    const s = setup(PROFILE_1_32_PLUS);
    expect(s.evented.handleEvent(event('CONTAINER_CREATED_EVENT', 'c1', BASE_NS + 1_000_000_000n))).toMatchObject({ generated: 0 });
    expect(stampToOracleMs(s.cache.get('a')?.modified ?? null)).toBe(1000);
    expect(s.evented.handleEvent(event('CONTAINER_STARTED_EVENT', 'c1', BASE_NS + 2_000_000_000n))).toMatchObject({ delivered: 1 });
    // An older STOPPED event is refused by the cache: no event.
    expect(s.evented.handleEvent(event('CONTAINER_STOPPED_EVENT', 'c1', BASE_NS + 1_500_000_000n))).toMatchObject({ generated: 0 });
    // DELETED always sends Died + Removed; deleting the sandbox drops the cache entry.
    expect(s.evented.handleEvent(event('CONTAINER_DELETED_EVENT', 'c1', 0n))).toMatchObject({ delivered: 2 });
    expect(s.cache.get('a')).toBeDefined();
    s.evented.handleEvent(event('CONTAINER_DELETED_EVENT', 'sa', 0n));
    expect(s.cache.get('a')).toBeUndefined();
    expect(s.evented.handleEvent({ type: 'CONTAINER_STARTED_EVENT', containerId: 'zz', createdAt: 0n, pod: null })).toMatchObject({ ignored: true });
    expect(s.pleg.receive().map((e) => `${e.type}:${e.data}`)).toEqual([
      'ContainerStarted:c1',
      'ContainerDied:c1',
      'ContainerRemoved:c1',
      'ContainerDied:sa',
      'ContainerRemoved:sa',
    ]);
  });

  it('1.26–1.31 read createdAt as seconds: a nanosecond timestamp freezes the pod in the cache', () => {
    const s = setup(PROFILE_1_26_1_31);
    s.usage.inUse = true;
    s.runtime.pods = [{ ...pod('a', { c1: 'running' }), statusTimestampMs: 1000 }];
    s.clock.t = 1000;
    s.pleg.relist();
    s.pleg.receive();
    s.evented.handleEvent(event('CONTAINER_STOPPED_EVENT', 'c1', BASE_NS + 2_000_000_000n, pod('a', { c1: 'exited' })));
    expect(stampToOracleMs(s.cache.get('a')?.modified ?? null)).toBe(9_223_372_036_854);
    s.pleg.receive();
    // The generic relist now sees c1 removed, but its cache write is older and refused: no event, no advance.
    s.clock.t = 2000;
    s.runtime.pods = [{ ...pod('a', {}), statusTimestampMs: 2000 }];
    const r = s.pleg.relist();
    expect(r).toMatchObject({ inspected: ['a'], generated: 0 });
    expect(s.pleg.podRecords().get('a')?.current).not.toBeNull();
  });

  it('is unhealthy only when the channel is exactly full', () => {
    const s = setup(PROFILE_1_32_PLUS, 2);
    expect(s.evented.healthy()).toEqual({ healthy: true });
    s.evented.handleEvent(event('CONTAINER_DELETED_EVENT', 'c1', 0n));
    expect(s.evented.healthy()).toEqual({ healthy: false, error: 'EventedPLEG: pleg event channel capacity is full with 2 events' });
    s.pleg.receive(1);
    expect(s.evented.healthy().healthy).toBe(true);
  });

  it('forces a relist per failed stream and falls back to 1 s / 3 min after 5 failures', () => {
    const s = setup(PROFILE_1_32_PLUS);
    expect(s.pleg.relistThresholdMs).toBe(600_000);
    for (let i = 1; i <= 4; i++) {
      s.clock.t = i * 1000;
      const r = s.evented.streamFailed();
      expect(r.fellBack).toBe(false);
      expect(r.relist?.startMs).toBe(i * 1000);
      expect(s.evented.inUse).toBe(true);
    }
    s.clock.t = 5000;
    expect(s.evented.streamFailed().fellBack).toBe(true);
    expect(s.evented.inUse).toBe(false);
    expect(s.pleg.relistPeriodMs).toBe(1000);
    expect(s.pleg.relistThresholdMs).toBe(180_000);
    expect(s.evented.failedStreams).toBe(5);
  });
});
