// The line memo (lineShapeMemo.ts) answers a line still in bytes from the template of an earlier line of
// the same shape (the same bytes but for which ASCII digits stand where). Property: on every line of the
// log fixtures and the real kubelet's lines, and on digit variants of them (klog times that are no date
// among them, pids of any length), the memo's facts are classifyLogLine's facts of the decoded line,
// whatever the memo saw before; on any text at all (non-ASCII, backslashes, overlong lines) too. A run
// that never answered from a template would prove nothing, so the hits are counted.
import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect, it } from 'vitest';
import { LINE_SHAPE_MEMO_ENTRIES, LINE_SHAPE_MEMO_MAX_BYTES, LineShapeMemo } from '../../../../src/core/parse/lineShapeMemo';
import { classifyLogLine } from '../../../../src/core/parse/logReaderLine';
import { FIXTURE_LINES, REAL_LINES } from '../../../support/sampleLines';

const LINES = [...FIXTURE_LINES, ...REAL_LINES];

/** The same text with every ASCII digit replaced by a digit drawn from `seed` (months above 12 included). */
function otherDigits(text: string, seed: number): string {
  let s = seed;
  return text.replace(/[0-9]/gu, () => String((s = (s * 7 + 3) % 10)));
}

/** A klog time: mostly a date, sometimes a month, day, hour, minute or second past its range. */
const stamp = fc
  .tuple(fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999_999 }))
  .map(([mo, d, h, mi, s, us]) => {
    const p2 = (n: number): string => String(n).padStart(2, '0');
    return `${p2(mo)}${p2(d)} ${p2(h)}:${p2(mi)}:${p2(s)}.${String(us).padStart(6, '0')}`;
  });

/** `line` with its klog time (if it has one) made `time` and every other digit replaced as otherDigits does. */
function variant(line: string, seed: number, time: string): string {
  const m = /(?<=[IWEF])\d{4} \d\d:\d\d:\d\d\.\d{6}/u.exec(line);
  if (m === null) return otherDigits(line, seed);
  return otherDigits(line.slice(0, m.index), seed) + time + otherDigits(line.slice(m.index + m[0].length), seed + 1);
}

/** The memo's answer for `line` placed inside a larger buffer, as the scanner hands lines over. */
function viaBytes(memo: LineShapeMemo, line: string): ReturnType<typeof classifyLogLine> {
  const bytes = Buffer.from(`junk\n${line}\nmore`, 'utf8');
  const start = 5;
  return memo.classify(bytes, start, start + Buffer.byteLength(line, 'utf8'));
}

describe('LineShapeMemo', () => {
  let hits = 0;
  const shared = new LineShapeMemo();

  test.prop([fc.constantFrom(...LINES), fc.nat(), fc.nat(), stamp, stamp], { numRuns: 3000 })('a digit variant of a line seen before has the facts classifyLogLine gives it', (line, seed1, seed2, t1, t2) => {
    const first = variant(line, seed1, t1);
    const later = variant(line, seed2, t2);
    const memo = new LineShapeMemo();
    expect(viaBytes(memo, first)).toEqual(classifyLogLine(first));
    expect(viaBytes(memo, later)).toEqual(classifyLogLine(later));
    hits += memo.hits;
    // One memo across all runs: many shapes, lines of one length sharing a hash, the memo emptied when full.
    expect(viaBytes(shared, later)).toEqual(classifyLogLine(later));
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(...LINES)])('any text, alone or spliced into a real line, has the facts classifyLogLine gives it', (text, line) => {
    const memo = new LineShapeMemo();
    for (const l of [text, line.slice(0, 60) + text + line.slice(60), text.replace(/[\n\r]/gu, ' ')]) {
      if (/[\n]/u.test(l) || l.endsWith('\r')) continue;
      // What the scanner hands over is UTF-8 bytes; their decoded text is what classifyLogLine sees.
      const decoded = Buffer.from(l, 'utf8').toString('utf8');
      expect(viaBytes(memo, l)).toEqual(classifyLogLine(decoded));
      expect(viaBytes(memo, l)).toEqual(classifyLogLine(decoded));
    }
  });

  it('classifies lines longer than it remembers, and keeps answering after it was emptied', () => {
    const line = REAL_LINES.find((l) => l.includes('Skipping pod synchronization')) as string;
    const long = `${line} pad="${'x'.repeat(LINE_SHAPE_MEMO_MAX_BYTES)}"`;
    const memo = new LineShapeMemo();
    expect(viaBytes(memo, long)).toEqual(classifyLogLine(long));
    expect(viaBytes(memo, long)).toEqual(classifyLogLine(long));
    for (let i = 0; i <= LINE_SHAPE_MEMO_ENTRIES; i++) viaBytes(memo, `${line}${'x'.repeat(i % 300)}${' '.repeat(Math.floor(i / 300))}`);
    const before = memo.hits;
    // Digit variants of the first line, whose shape went when the memo was emptied: a miss, then a hit.
    const [a, b] = ['11111', '22222'].map((pid) => line.replace(/31657/gu, pid)) as [string, string];
    expect(viaBytes(memo, a)).toEqual(classifyLogLine(a));
    expect(viaBytes(memo, b)).toEqual(classifyLogLine(b));
    expect(memo.hits).toBe(before + 1);
  });

  afterAll(() => {
    // Most real lines have a template; a memo that never answered from one would make the first test vacuous.
    expect(hits).toBeGreaterThan(1500);
  });
});
