import { describe, expect, it } from 'vitest';
import { eventLastSeen, newestFirst } from '../../../../src/core/kube/eventTime';
import type { KubeEvent } from '../../../../src/core/kube/objects';

const at = (iso: string): Date => new Date(iso);

describe('when an event was last seen', () => {
  it('is the latest of its stamps, whichever API wrote them', () => {
    // core/v1: lastTimestamp after firstTimestamp.
    expect(eventLastSeen({ firstTimestamp: '2026-11-24T10:00:00Z', lastTimestamp: '2026-11-24T10:05:00Z' })).toEqual(at('2026-11-24T10:05:00Z'));
    // events.k8s.io/v1: only eventTime (a MicroTime).
    expect(eventLastSeen({ eventTime: '2026-11-24T10:00:00.123456Z' })).toEqual(at('2026-11-24T10:00:00.123Z'));
    // A real API server's creationTimestamp a second after lastTimestamp.
    expect(eventLastSeen({ lastTimestamp: '2026-11-24T10:05:00Z', metadata: { creationTimestamp: '2026-11-24T10:05:01Z' } })).toEqual(at('2026-11-24T10:05:01Z'));
    // client-node hands out Dates.
    expect(eventLastSeen({ lastTimestamp: at('2026-11-24T09:00:00Z'), firstTimestamp: at('2026-11-24T08:00:00Z') })).toEqual(at('2026-11-24T09:00:00Z'));
  });

  it('ignores stamps that are missing, null or unparsable, and is undefined without any', () => {
    const nullStamp = { lastTimestamp: null } as unknown as KubeEvent;
    expect(eventLastSeen(nullStamp)).toBeUndefined();
    expect(eventLastSeen({ lastTimestamp: 'not a time', firstTimestamp: '2026-11-24T10:00:00Z' })).toEqual(at('2026-11-24T10:00:00Z'));
    expect(eventLastSeen({ reason: 'NodeReady' })).toBeUndefined();
  });

  it('orders events newest first, unstamped ones last', () => {
    const events: KubeEvent[] = [
      { reason: 'none' },
      { reason: 'old', lastTimestamp: '2026-11-24T10:00:00Z' },
      { reason: 'new', eventTime: '2026-11-24T11:00:00Z' },
      { reason: 'mid', firstTimestamp: '2026-11-24T10:00:00Z', metadata: { creationTimestamp: '2026-11-24T10:30:00Z' } },
    ];
    expect(events.sort(newestFirst).map((e) => e.reason)).toEqual(['new', 'mid', 'old', 'none']);
  });
});
