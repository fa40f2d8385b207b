import { describe, expect, it } from 'vitest';
import { formatGoDuration, formatGoDurationMs, parseGoDurationNs, parseGoDurationSeconds, MAX_GO_DURATION_NS, GoDurationError, roundGoDurations } from '../../../../src/core/util/goDuration';

describe('formatGoDuration (Go Duration.String)', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [1_100n, '1.1µs'],
    [2_200_000n, '2.2ms'],
    [1_000_000_000n, '1s'],
    [180_000_000_000n, '3m0s'],
    [180_001_000_000n, '3m0.001s'],
    [226_752_815_514n, '3m46.752815514s'],
    [3_600_000_000_000n, '1h0m0s'],
    [-1_500_000_000n, '-1.5s'],
    [MAX_GO_DURATION_NS, '2562047h47m16.854775807s'],
  ])('%s ns → %s', (ns, text) => {
    expect(formatGoDuration(ns)).toBe(text);
  });

  it('formats milliseconds', () => {
    expect(formatGoDurationMs(180_195.184382)).toBe('3m0.195184382s');
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['3m46.752815514s', 226_752_815_514n],
    ['3m0s', 180_000_000_000n],
    ['2562047h47m16.854775807s', MAX_GO_DURATION_NS],
    ['1.5h', 5_400_000_000_000n],
    ['300µs', 300_000n],
    ['300μs', 300_000n],
    ['0', 0n],
    ['-2s', -2_000_000_000n],
  ])('%s', (text, ns) => {
    expect(parseGoDurationNs(text)).toBe(ns);
  });

  it.each(['', '3', 'abc', '3x', 's', '.s', '9999999999h'])('rejects %j with a named cause', (text) => {
    expect(() => parseGoDurationNs(text)).toThrow(GoDurationError);
  });

  it('gives seconds', () => {
    expect(parseGoDurationSeconds('3m46.752815514s')).toBeCloseTo(226.752815514, 9);
  });
});

describe('roundGoDurations', () => {
  it('cuts the kubelet\'s nanosecond durations to tenths, truncating, and leaves the rest of the text alone', () => {
    expect(roundGoDurations('PLEG is not healthy: pleg was last seen active 10m5.901340155s ago; threshold is 3m0s')).toBe(
      'PLEG is not healthy: pleg was last seen active 10m5.9s ago; threshold is 3m0s',
    );
    expect(roundGoDurations('took 2.5004s, then 1h2m3.99s')).toBe('took 2.5s, then 1h2m3.9s');
    expect(roundGoDurations('0.05s')).toBe('0s');
    // Already short, not a duration, or part of a larger token: unchanged.
    expect(roundGoDurations('3m0s 1.5s v1.32.4 10.0.0.12s x1.234s')).toBe('3m0s 1.5s v1.32.4 10.0.0.12s x1.234s');
  });
});
