// The pod lanes' event columns (mirrored from the series' event list as it grows or is re-sorted) and the
// marks they give: one per lane and pixel column, with the colour rule the lanes' legend states.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionPodEvent } from '../../../../src/core/timeline/session';
import { CHANGED_KIND, columnMarks, EVENT_KINDS, LaneEvents } from '../../../../webview/timeline/laneEvents';

const ev = (atMs: number, pod: string, type: string): SessionPodEvent => ({ atMs, pod, type }) as SessionPodEvent;

/** The mirror's content as plain rows. */
function rows(m: LaneEvents): Array<[number, string, number]> {
  return Array.from({ length: m.length }, (_v, i) => [m.atS[i]!, m.podNames[m.pod[i]!]!, m.kind[i]!]);
}

function expected(events: readonly SessionPodEvent[]): Array<[number, string, number]> {
  const kindOf = (type: string): number => {
    const k = (EVENT_KINDS as readonly string[]).indexOf(type);
    return k < 0 ? CHANGED_KIND : k;
  };
  return events.map((e) => [e.atMs / 1000, e.pod, kindOf(e.type)]);
}

describe('lane events', () => {
  it('mirrors the events, an unknown type as Changed, and grows past its first capacity', () => {
    const events: SessionPodEvent[] = [];
    const m = new LaneEvents();
    for (let i = 0; i < 3000; i++) {
      events.push(ev(i * 10, `pod-${i % 7}`, i % 5 === 4 ? 'SomethingNew' : EVENT_KINDS[i % 4]!));
      if (i % 500 === 0) m.sync(events);
    }
    m.sync(events);
    expect(rows(m)).toEqual(expected(events));
    expect(m.kind[4]).toBe(CHANGED_KIND);
    expect(m.podNames).toHaveLength(7);
    expect(m.idOf('pod-3')).toBe(3);
    expect(m.idOf('nobody')).toBeUndefined();
  });

  it('stays equal to the list when the list is sorted again in place (events that came late)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 3 })), { maxLength: 6 }), { maxLength: 12 }), (deltas) => {
        const list: SessionPodEvent[] = [];
        const m = new LaneEvents();
        for (const delta of deltas) {
          const added = delta.map(([t, p]) => ev(t * 1000, `p${p}`, 'ContainerStarted'));
          // What the series does (sessionSeries.ts addPodEvents): append, then a stable sort when out of order.
          list.push(...added);
          list.sort((a, b) => a.atMs - b.atMs);
          m.sync(list);
          expect(rows(m)).toEqual(expected(list));
        }
      }),
    );
  });

  it('finds the first event at or after a time', () => {
    const m = new LaneEvents();
    m.sync([ev(1000, 'a', 'ContainerDied'), ev(2000, 'a', 'ContainerDied'), ev(2000, 'b', 'ContainerDied'), ev(5000, 'a', 'ContainerDied')]);
    expect([m.firstAt(0), m.firstAt(1), m.firstAt(1.5), m.firstAt(2), m.firstAt(2.1), m.firstAt(9)]).toEqual([0, 0, 1, 1, 3, 4]);
  });
});

describe('column marks', () => {
  const marksOf = (events: SessionPodEvent[], laneOf: (pod: string) => number, lanes: number, fromS: number, toS: number, pxPerS: number): Array<[number, number, string]> => {
    const m = new LaneEvents();
    m.sync(events);
    const laneOfPod = Int32Array.from(m.podNames, laneOf);
    const out: Array<[number, number, string]> = [];
    columnMarks(m, laneOfPod, lanes, fromS, toS, 10, pxPerS, (lane, x, kind) => out.push([lane, x, EVENT_KINDS[kind]!]));
    return out.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  };

  it('draws one mark per lane and column: the latest kind, but a Changed never covers another kind', () => {
    const events = [
      ev(0, 'a', 'ContainerStarted'),
      ev(100, 'a', 'ContainerChanged'), // same column as the Started (1 px per second): Started stays
      ev(2000, 'a', 'ContainerDied'),
      ev(2200, 'a', 'ContainerRemoved'), // same column, later, not a Changed: Removed wins
      ev(5000, 'a', 'ContainerChanged'),
      ev(5000, 'b', 'ContainerStarted'),
    ];
    expect(marksOf(events, (pod) => (pod === 'a' ? 0 : 1), 2, 0, 10, 1)).toEqual([
      [0, 10, 'ContainerStarted'],
      [0, 12, 'ContainerRemoved'],
      [0, 15, 'ContainerChanged'],
      [1, 15, 'ContainerStarted'],
    ]);
  });

  it('leaves out events outside the range, and draws nothing for an empty range', () => {
    const events = [ev(1000, 'a', 'ContainerDied'), ev(3000, 'a', 'ContainerDied'), ev(9000, 'a', 'ContainerDied')];
    expect(marksOf(events, () => 0, 1, 2, 4, 2)).toEqual([[0, 12, 'ContainerDied']]);
    expect(marksOf(events, () => 0, 1, 3, 3, Number.POSITIVE_INFINITY)).toEqual([]);
  });

  it('gives the marks a plain walk over every event gives', () => {
    const event = fc.record({ t: fc.integer({ min: 0, max: 400 }), pod: fc.integer({ min: 0, max: 4 }), kind: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 60 }), fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 300 }), fc.double({ min: 0.05, max: 20, noNaN: true }), (raw, from, span, pxPerS) => {
        const events = raw.map((r) => ev(r.t * 100, `p${r.pod}`, EVENT_KINDS[r.kind]!)).sort((a, b) => a.atMs - b.atMs);
        const laneOf = (pod: string): number => Number(pod.slice(1)) % 3;
        const fromS = from / 10;
        const toS = fromS + span / 10;
        // The rule, written plainly: per (lane, column), the last non-Changed event if any, else a Changed.
        const want = new Map<string, [number, number, string]>();
        for (const e of events) {
          const t = e.atMs / 1000;
          if (t < fromS || t > toS) continue;
          const lane = laneOf(e.pod);
          const x = Math.round(10 + (t - fromS) * pxPerS);
          const key = `${lane}:${x}`;
          const had = want.get(key);
          if (had === undefined || e.type !== 'ContainerChanged' || had[2] === 'ContainerChanged') want.set(key, [lane, x, e.type]);
        }
        const sorted = [...want.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        expect(marksOf(events, laneOf, 3, fromS, toS, pxPerS)).toEqual(sorted);
      }),
    );
  });
});
