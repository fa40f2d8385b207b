import { beforeEach, describe, expect, it } from 'vitest';
import { LINE_EVENTS_MEMO_ENTRIES, clearLineEventsMemo, lineEventsMemoHits, lineEventsMemoSize } from '../../../../src/core/parse/lineEventsMemo';
import { classifyLogLine } from '../../../../src/core/parse/logReaderLine';

const skip = (ago: string, clock = '03:05:45.360458'): string =>
  `Nov 23 ${clock} pleg-node kubelet[31657]: E1122 ${clock}   31657 kubelet.go:2273] "Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is 3m0s]"`;

describe('lineEventsMemo', () => {
  beforeEach(() => clearLineEventsMemo());

  it('answers a later skip line from the first one’s template, with its own "last seen active"', () => {
    classifyLogLine(skip('3m46.123456s'));
    const hits = lineEventsMemoHits();
    const later = classifyLogLine(skip('3m51.654321s', '03:05:50.360458'));
    expect(lineEventsMemoHits()).toBe(hits + 1);
    expect(later?.events).toEqual([
      { kind: 'skip-sync', reasons: ['runtime-down', 'pleg-stale'] },
      { kind: 'pleg-unhealthy', evented: false, lastSeenAgoSeconds: 231.654321 },
    ]);
    expect(later?.clock).toBe('03:05:50');
  });

  it('hands out copies: changing one line’s events does not change the next line’s', () => {
    const first = classifyLogLine(skip('3m46.1s'));
    (first?.events[0] as { reasons: string[] }).reasons.push('changed');
    const second = classifyLogLine(skip('3m47.1s'));
    (second?.events[0] as { reasons: string[] }).reasons.push('changed too');
    expect(classifyLogLine(skip('3m48.1s'))?.events[0]).toEqual({ kind: 'skip-sync', reasons: ['runtime-down', 'pleg-stale'] });
  });

  it('works out a body with a backslash every time (a Go escape can spell a character with digits)', () => {
    const line = 'E1122 03:05:45.360458   1 generic.go:256] "GenericPLEG: Unable to retrieve pods" err="code 5\\u0041"';
    classifyLogLine(line);
    const hits = lineEventsMemoHits();
    expect(classifyLogLine(line.replace('5\\u0041', '6\\u0042'))?.events).toEqual([{ kind: 'relist-failure', err: 'code 6B' }]);
    expect(lineEventsMemoHits()).toBe(hits);
    expect(lineEventsMemoSize()).toBe(0);
  });

  it('does not answer from a template when a value’s place in the body is not certain', () => {
    const line = (a: string, b: string): string => `E1122 03:05:45.360458   1 generic.go:256] "GenericPLEG: Unable to retrieve pods" before="dial ${a}ms" err="dial ${b}ms"`;
    classifyLogLine(line('1', '2'));
    const hits = lineEventsMemoHits();
    expect(classifyLogLine(line('3', '4'))?.events).toEqual([{ kind: 'relist-failure', err: 'dial 4ms' }]);
    expect(lineEventsMemoHits()).toBe(hits);
  });

  it('works a line out afresh when its "last seen active" does not parse where the template’s did', () => {
    expect(classifyLogLine(skip('0000000000000000001m46.1s'))?.events[1]).toEqual({ kind: 'pleg-unhealthy', evented: false, lastSeenAgoSeconds: 106.1 });
    // The same shape, but these minutes overflow a Go duration: no "last seen active", as when worked out afresh.
    expect(classifyLogLine(skip('9999999999999999999m46.1s'))?.events[1]).toEqual({ kind: 'pleg-unhealthy', evented: false });
  });

  it('does not remember a shape whose first "last seen active" did not parse: a later one of the shape that parses keeps its value', () => {
    // 19-digit minutes: this one overflows a Go duration, the next (same shape) is 1m46.1s.
    expect(classifyLogLine(skip('9999999999999999999m46.1s'))?.events[1]).toEqual({ kind: 'pleg-unhealthy', evented: false });
    expect(classifyLogLine(skip('0000000000000000001m46.1s'))?.events[1]).toEqual({ kind: 'pleg-unhealthy', evented: false, lastSeenAgoSeconds: 106.1 });
  });

  it('stays bounded: it is emptied when it holds LINE_EVENTS_MEMO_ENTRIES shapes', () => {
    for (let i = 0; i <= LINE_EVENTS_MEMO_ENTRIES; i++) classifyLogLine(`E1122 03:05:45.360458   1 kubelet.go:1] "Skipping pod synchronization" err="${'x'.repeat(i)}container runtime is down"`);
    expect(lineEventsMemoSize()).toBeLessThanOrEqual(LINE_EVENTS_MEMO_ENTRIES);
    expect(lineEventsMemoSize()).toBeGreaterThan(0);
  });
});
