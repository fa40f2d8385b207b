// The PLEG metric's age against each kind of clock: the collector's (one figure), a derived window (a
// range), a window with no latest bound (at least), none at all (unknown, saying why).

import { describe, expect, it } from 'vitest';
import type { EvidenceClock, FileCapture } from '../../../../../src/core/diagnose/clock/clockTypes';
import { plegAgeReading } from '../../../../../src/core/diagnose/clock/plegAge';

const LAST_SEEN = Date.parse('2026-11-22T03:00:43Z') / 1000;

function clockWith(capture: Partial<FileCapture>): EvidenceClock {
  return {
    files: [{ file: 'metrics.txt', confidence: 'bounded', clues: [], dropped: [], ...capture }],
    metricsFiles: { metrics: 'metrics.txt' },
    mtimes: { verdict: 'copied', text: '' },
    notes: [],
  };
}

describe('plegAgeReading', () => {
  it("the collector's clock: one exact figure, named", () => {
    const r = plegAgeReading(LAST_SEEN, undefined, 'metrics.txt', new Date('2026-11-22T03:05:43Z'));
    expect(r).toMatchObject({ minSeconds: 300, maxSeconds: 300, collectorClock: true });
    expect(r.clock).toBe("the collector's clock (the scrape at 2026-11-22T03:05:43.000Z)");
  });

  it("a derived window: the age's range; without a latest bound, only a minimum", () => {
    const bounded = plegAgeReading(LAST_SEEN, clockWith({ notBeforeMs: Date.parse('2026-11-22T03:05:33Z'), notAfterMs: Date.parse('2026-11-22T03:09:03Z') }), 'metrics.txt', new Date(0));
    expect(bounded).toMatchObject({ minSeconds: 290, maxSeconds: 500, collectorClock: false });
    expect(bounded.clock).toMatch(/^metrics\.txt's capture time from the evidence: /u);
    const after = plegAgeReading(LAST_SEEN, clockWith({ notBeforeMs: Date.parse('2026-11-22T03:05:33Z'), confidence: 'after' }), 'metrics.txt', new Date(0));
    expect(after.maxSeconds).toBeUndefined();
    expect(after.clock).toContain('no latest bound: metrics.txt may have been captured any time after 2026-11-22T03:05:33Z');
  });

  it('clues in conflict, or no window at all: age unknown, with the reason', () => {
    const conflict = plegAgeReading(LAST_SEEN, clockWith({ confidence: 'conflict', reason: 'its clues disagree: a, but b' }), 'metrics.txt', new Date(0));
    expect(conflict).toMatchObject({ minSeconds: 0, unknownBecause: 'its clues disagree: a, but b' });
    expect(conflict.maxSeconds).toBeUndefined();
    const none = plegAgeReading(LAST_SEEN, { ...clockWith({}), files: [] }, 'metrics.txt', new Date(0));
    expect(none.unknownBecause).toBe('nothing in the folder tells when it was captured');
  });
});
