// LogClock turns a year-less time into milliseconds through a one-minute cache (consecutive lines share
// their minute). Property: over any sequence of year-less and absolute times, with fields anywhere a
// klog header or a syslog prefix can print them (days up to 99, hours up to 99, second 60), every
// resolved time is the one Date.UTC gives for the same fields in the clock's year, to the last bit.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { LineTime, YearlessTime } from '../../../../src/core/parse/logReaderLine';
import { LogClock } from '../../../../src/core/parse/logStretch';

const DAY_MS = 86_400_000;

const yearless: fc.Arbitrary<YearlessTime> = fc.record({
  month: fc.integer({ min: 1, max: 12 }),
  day: fc.oneof(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 99 })),
  hour: fc.oneof(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 99 })),
  minute: fc.integer({ min: 0, max: 59 }),
  second: fc.integer({ min: 0, max: 60 }),
  micros: fc.integer({ min: 0, max: 999_999 }),
});
/** Runs of lines in one minute or the next, as a real log has them, and jumps between minutes, days and years. */
const times: fc.Arbitrary<LineTime[]> = fc.array(
  fc.oneof(
    {
      arbitrary: fc
        .tuple(yearless, fc.array(fc.tuple(fc.constantFrom(0, 0, 1, -1), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 999_999 })), { maxLength: 4 }))
        .map(([t, more]) => [t, ...more.map(([step, second, micros]) => ({ ...t, minute: Math.min(59, Math.max(0, t.minute + step)), second, micros }))].map((y) => ({ yearless: y }))),
      weight: 5,
    },
    { arbitrary: fc.integer({ min: 0, max: 4_102_444_800_000 }).map((epochMs) => [{ epochMs: epochMs + 0.5 }]), weight: 1 },
  ),
  { maxLength: 12 },
).map((runs) => runs.flat());

/** LogClock's rule, with Date.UTC called for every time (the cache taken away). */
function reference(baseYear: number, list: LineTime[]): number[] {
  let year = baseYear;
  let lastMs: number | undefined;
  let guessed = false;
  const toMs = (t: YearlessTime, y: number): number => Date.UTC(y, t.month - 1, t.day, t.hour, t.minute, t.second) + t.micros / 1000;
  return list.map((time) => {
    let y: YearlessTime;
    if ('epochMs' in time) {
      if (!guessed) {
        year = new Date(time.epochMs).getUTCFullYear();
        lastMs = time.epochMs;
        return time.epochMs;
      }
      const d = new Date(time.epochMs);
      const whole = Math.floor(time.epochMs);
      y = { month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), micros: (whole % 1000) * 1000 + Math.round((time.epochMs - whole) * 1000) };
    } else {
      y = time.yearless;
      guessed = true;
    }
    let ms = toMs(y, year);
    if (lastMs !== undefined && ms < lastMs - 183 * DAY_MS) ms = toMs(y, ++year);
    lastMs = ms;
    return ms;
  });
}

describe('LogClock', () => {
  test.prop([fc.integer({ min: 1970, max: 2100 }), times], { numRuns: 1000 })('resolves every time to the milliseconds Date.UTC gives, bit for bit', (baseYear, list) => {
    const clock = new LogClock(baseYear);
    expect(list.map((t) => clock.resolve(t))).toEqual(reference(baseYear, list));
  });
});
