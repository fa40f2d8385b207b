// The simulator's klog writer, read back by the product's reader (readLineGeneral): simulated kubelets
// must write lines the reader takes exactly as it takes a real kubelet's.

import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { formatKlogLine } from '../../../../src/core/parse/klogFormat';
import { yearlessToEpochMs } from '../../../../src/core/parse/klogHeader';
import { readLineGeneral } from '../../../../src/core/parse/logReaderLine';

const key = fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_.]{0,12}$/u);
const value = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer(), fc.boolean());

function timeOf(line: string, year: number): number | undefined {
  const t = readLineGeneral(line).time;
  return t !== undefined && 'yearless' in t ? yearlessToEpochMs(t.yearless, year) : undefined;
}

describe('formatKlogLine', () => {
  it('writes the kubelet 1.32 skip line exactly as the real kubelet did', () => {
    const epochMs = Date.UTC(2026, 10, 22, 3, 2, 45) + 259.584;
    const line = formatKlogLine({ severity: 'E', epochMs, threadId: 31657, source: 'kubelet.go:2273', msg: 'Skipping pod synchronization', fields: [['err', 'container runtime is down']] });
    expect(line).toBe('E1122 03:02:45.259584   31657 kubelet.go:2273] "Skipping pod synchronization" err="container runtime is down"');
    expect(timeOf(line, 2026)).toBeCloseTo(epochMs, 3);
  });

  test.prop([
    fc.constantFrom('I', 'W', 'E', 'F' as const),
    fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
    fc.integer({ min: 0, max: 999 }),
    fc.integer({ min: 1, max: 9_999_999 }),
    fc.string({ unit: 'grapheme', maxLength: 60 }),
    fc.uniqueArray(fc.tuple(key, value), { maxLength: 5, selector: ([k]) => k }),
  ])('a formatted structured line reads back to the same message, fields, thread and time', (severity, ms, micros, tid, msg, fields) => {
    const epochMs = ms + micros / 1000;
    const line = formatKlogLine({ severity, epochMs, threadId: tid, source: 'kubelet.go:2273', msg, fields });
    const r = readLineGeneral(line);
    expect(r.pid).toBe(tid);
    expect(r.body.msg).toBe(msg);
    expect([...r.body.fields]).toEqual(fields.map(([k, v]) => [k, String(v)]));
    expect(timeOf(line, new Date(ms).getUTCFullYear())).toBeCloseTo(epochMs, 3);
  });
});
