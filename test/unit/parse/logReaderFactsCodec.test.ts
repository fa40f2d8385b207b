// The packed hand-over of line facts between the CLI's threads: what unpackFacts gives back must be
// exactly what packFacts was given (every event kind, optional fields absent or present, doubles JSON
// cannot carry), from the facts of every fixture line and from made-up ones.
import { readdirSync, readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { packFacts, unpackFacts } from '../../../src/core/parse/logReaderFactsCodec';
import { classifyLogLine, type LineEvent, type LineFacts } from '../../../src/core/parse/logReaderLine';

const fixtures = new URL('../../fixtures/logs/', import.meta.url);
const FIXTURE_FACTS: LineFacts[] = [
  ...readdirSync(fixtures)
    .filter((f) => f.endsWith('.log'))
    .map((f) => readFileSync(new URL(f, fixtures), 'utf8')),
  readFileSync(new URL('../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url), 'utf8'),
]
  .flatMap((text) => text.split(/\r?\n/u))
  .map((l) => classifyLogLine(l))
  .filter((f): f is LineFacts => f !== undefined);

const roundTrip = (at: number[], facts: LineFacts[]): { at: number[]; facts: LineFacts[] } => unpackFacts(packFacts(at, facts));

const double = fc.oneof(fc.double(), fc.constantFrom(-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 5e-324));
const text = fc.string({ maxLength: 12 });
/** An optional field: absent, or present with a value drawn from `arb`. */
const opt = <K extends string, T>(key: K, arb: fc.Arbitrary<T>): fc.Arbitrary<Partial<Record<K, T>>> =>
  fc.option(arb, { nil: undefined }).map((v) => (v === undefined ? {} : ({ [key]: v } as Record<K, T>)));

const event: fc.Arbitrary<LineEvent> = fc.oneof(
  fc.tuple(fc.boolean(), opt('lastSeenAgoSeconds', double)).map(([evented, o]) => ({ kind: 'pleg-unhealthy' as const, evented, ...o })),
  fc.constant({ kind: 'pleg-never' as const }),
  fc.array(text, { maxLength: 4 }).map((reasons) => ({ kind: 'skip-sync' as const, reasons })),
  opt('err', text).map((o) => ({ kind: 'relist-failure' as const, ...o })),
  fc.boolean().map((evented) => ({ kind: 'event-discard' as const, evented })),
  fc.tuple(text, opt('err', text)).map(([t, o]) => ({ kind: 'runtime-down' as const, text: t, ...o })),
  text.map((t) => ({ kind: 'evented-fallback' as const, text: t })),
  opt('actual', text).map((o) => ({ kind: 'housekeeping-slow' as const, ...o })),
  text.map((t) => ({ kind: 'node-not-ready' as const, text: t })),
  text.map((t) => ({ kind: 'node-ready' as const, text: t })),
  opt('version', text).map((o) => ({ kind: 'kubelet-start' as const, ...o })),
);
const time = fc.oneof(
  double.map((epochMs) => ({ epochMs })),
  fc.tuple(double, double, double, double, double, double).map(([month, day, hour, minute, second, micros]) => ({ yearless: { month, day, hour, minute, second, micros } })),
);
const facts: fc.Arbitrary<LineFacts> = fc
  .tuple(fc.array(event, { maxLength: 4 }), opt('time', time), opt('pid', double), opt('clock', text))
  .map(([events, t, p, c]) => ({ events, ...t, ...p, ...c }));

describe('packed line facts', () => {
  it('the facts of every fixture line come back equal, line numbers included', () => {
    expect(FIXTURE_FACTS.length).toBeGreaterThan(100);
    // Every kind the reader knows appears among them, so each kind's packing is exercised.
    expect(new Set(FIXTURE_FACTS.flatMap((f) => f.events.map((e) => e.kind))).size).toBeGreaterThanOrEqual(10);
    const at = FIXTURE_FACTS.map((_, i) => i * 7 + 3);
    expect(roundTrip(at, FIXTURE_FACTS)).toStrictEqual({ at, facts: FIXTURE_FACTS });
  });

  test.prop([fc.array(fc.tuple(fc.nat(), facts), { maxLength: 30 })])('any facts: the same back, -0, NaN and absent fields included', (pairs) => {
    const at = pairs.map(([n]) => n);
    const list = pairs.map(([, f]) => f);
    const back = roundTrip(at, list);
    expect(back.at).toEqual(at);
    expect(back.facts).toStrictEqual(list);
    // toStrictEqual treats -0 and 0 as different, and NaN as equal to NaN: the doubles are exact.
  });

  it('holds each distinct string once', () => {
    const skip: LineFacts = { events: [{ kind: 'skip-sync', reasons: ['runtime-down', 'pleg-unhealthy'] }], clock: '03:02:45' };
    const packed = packFacts([0, 1, 2], [skip, skip, { ...skip, clock: '03:02:50' }]);
    expect(packed.strings).toEqual(['03:02:45', 'runtime-down', 'pleg-unhealthy', '03:02:50']);
  });

  it('an empty batch packs to nothing', () => {
    const packed = packFacts([], []);
    expect(packed.nums.length).toBe(0);
    expect(unpackFacts(packed)).toEqual({ at: [], facts: [] });
  });
});
