import { describe, expect } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { parseKlogLine } from '../../../../src/core/parse/klog';
import { yearlessToEpochMs } from '../../../../src/core/parse/klogHeader';
import { formatKlogLine } from '../../../../src/core/parse/klogFormat';
import { goQuote, goUnquote } from '../../../../src/core/parse/klogQuote';

const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_.]{0,12}$/u);
const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer(), fc.boolean());

describe('klog text round trip', () => {
  test.prop([fc.string({ unit: 'grapheme', maxLength: 60 })])('goUnquote inverts goQuote', (s) => {
    expect(goUnquote(goQuote(s))).toBe(s);
  });

  test.prop([
    fc.constantFrom('I', 'W', 'E', 'F' as const),
    fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 1, max: 9_999_999 }),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.uniqueArray(fc.tuple(key, value), { maxLength: 5, selector: ([k]) => k }),
  ])('a formatted structured line parses back to the same fields', (severity, ms, micros, tid, msg, fields) => {
    const epochMs = ms + micros / 1000;
    const line = formatKlogLine({ severity, epochMs, threadId: tid, source: 'kubelet.go:2273', msg, fields });
    const r = parseKlogLine(line);
    expect(r.severity).toBe(severity);
    expect(r.threadId).toBe(tid);
    expect(r.source).toBe('kubelet.go:2273');
    expect(r.structured).toBe(true);
    expect(r.msg).toBe(msg);
    expect(r.fields.map((f) => [f.key, f.value])).toEqual(fields.map(([k, v]) => [k, String(v)]));
    for (const f of r.fields) expect(line.slice(f.start, f.end)).toBe(f.quoted ? goQuote(f.value) : f.value);
    expect(r.time && yearlessToEpochMs(r.time, new Date(ms).getUTCFullYear())).toBeCloseTo(epochMs, 3);
  });
});
