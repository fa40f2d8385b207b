import { describe, expect, it } from 'vitest';
import { createdAtToStamp, GO_ZERO_TIME_UNIX_SEC, msToStamp, stampToOracleMs, stampToUnixSec } from '../../../../src/core/pleg/stamp';
import { stampAfter } from '../../../../src/core/pleg/podCache';

describe('cache stamps', () => {
  it('convert like Go: Milliseconds() truncates, Unix() floors, Sub saturates', () => {
    expect(stampToOracleMs(msToStamp(1500))).toBe(1500);
    expect(stampToUnixSec(msToStamp(1500))).toBe(1_700_000_001);
    expect(stampToUnixSec(msToStamp(-500))).toBe(1_699_999_999);
    expect(stampToOracleMs(null)).toBeNull();
    expect(stampToUnixSec(null)).toBe(GO_ZERO_TIME_UNIX_SEC);
    // 1.32 reading a seconds value as nanoseconds: 1.700000002 s after the epoch.
    const ns = createdAtToStamp(1_700_000_002, 'nanoseconds');
    expect(stampToOracleMs(ns)).toBe(-1_699_999_998_299);
    expect(stampToUnixSec(ns)).toBe(1);
    // 1.26–1.31 reading nanoseconds as seconds: far future, saturated in ms, exact in Unix seconds.
    const s = createdAtToStamp(1_700_000_002_000_000_000n, 'seconds');
    expect(stampToOracleMs(s)).toBe(9_223_372_036_854);
    expect(stampToUnixSec(s)).toBe(1_700_000_002_000_000_000);
  });

  it('orders nanosecond-close stamps and puts the zero time first', () => {
    const a = createdAtToStamp(1_700_000_001, 'nanoseconds');
    const b = createdAtToStamp(1_700_000_003, 'nanoseconds');
    expect(stampAfter(b, a)).toBe(true);
    expect(stampAfter(a, b)).toBe(false);
    expect(stampAfter(a, null)).toBe(true);
    expect(stampAfter(null, null)).toBe(false);
  });
});
