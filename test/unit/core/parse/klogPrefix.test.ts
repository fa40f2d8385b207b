import { describe, expect, it } from 'vitest';
import { isoToEpochMs } from '../../../../src/core/parse/klogPrefix';

describe('isoToEpochMs', () => {
  it('converts ISO timestamps with offsets and keeps sub-millisecond digits', () => {
    expect(isoToEpochMs('2026-11-22T05:02:44.5+0200')).toBe(Date.UTC(2026, 10, 22, 3, 2, 44) + 500);
    expect(isoToEpochMs('2026-11-22T03:02:44.000250Z')).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 0.25, 6);
    expect(isoToEpochMs('yesterday')).toBeUndefined();
  });
});
