import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../../../src/infra/kube/backoff';

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap without jitter', () => {
    const o = { initialMs: 500, maxMs: 30_000, jitter: 0 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => backoffDelay(n, o))).toEqual([500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });

  it('jitter shortens the delay by at most the jitter fraction', () => {
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0)).toBe(2000);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.999999)).toBe(1000);
  });

  test.prop([fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 0.9999999, noNaN: true })])('stays within [cap·(1−jitter), cap]', (attempt, r) => {
    const d = backoffDelay(attempt, DEFAULT_BACKOFF, () => r);
    expect(d).toBeGreaterThanOrEqual(250);
    expect(d).toBeLessThanOrEqual(30_000);
    expect(Number.isFinite(d)).toBe(true);
  });
});
