// Conversions between the model clock (ms after a base instant), cache stamps (exact ns after the same
// instant, null = Go's zero time) and the Go time values the oracle prints.

import type { CacheStamp } from './types';

/** The oracle's base instant: Unix 1700000000 s. */
export const DEFAULT_BASE_UNIX_SEC = 1_700_000_000;

/** Go's time.Time{}.Unix(). */
export const GO_ZERO_TIME_UNIX_SEC = -62_135_596_800;

const NS_PER_MS = 1_000_000n;
const NS_PER_SEC = 1_000_000_000n;
/** time.Duration's range in whole ms (t.Sub saturates there). */
const MAX_DURATION_MS = 9_223_372_036_854n;

export function msToStamp(ms: number): bigint {
  return Number.isInteger(ms) ? BigInt(ms) * NS_PER_MS : BigInt(Math.round(ms * 1e6));
}

/** `t.Sub(base).Milliseconds()`: truncated and saturated like Go; null for the zero time. */
export function stampToOracleMs(stamp: CacheStamp): number | null {
  if (stamp === null) return null;
  let ms = stamp / NS_PER_MS; // bigint division truncates toward zero, as Go does
  if (ms > MAX_DURATION_MS) ms = MAX_DURATION_MS;
  if (ms < -MAX_DURATION_MS) ms = -MAX_DURATION_MS;
  return Number(ms);
}

/** `t.Unix()` (floor) for a stamp on a clock whose 0 is `baseUnixSec`. */
export function stampToUnixSec(stamp: CacheStamp, baseUnixSec = DEFAULT_BASE_UNIX_SEC): number {
  if (stamp === null) return GO_ZERO_TIME_UNIX_SEC;
  const abs = stamp + BigInt(baseUnixSec) * NS_PER_SEC;
  let sec = abs / NS_PER_SEC;
  if (abs < 0n && sec * NS_PER_SEC !== abs) sec -= 1n;
  return Number(sec);
}

/**
 * A CRI event's createdAt as a stamp. The CRI sends nanoseconds; kubelet 1.26–1.31 read them as seconds
 * (`time.Unix(createdAt, 0)`), 1.32+ as nanoseconds (`time.Unix(0, createdAt)`).
 */
export function createdAtToStamp(createdAt: number | bigint, unit: 'seconds' | 'nanoseconds', baseUnixSec = DEFAULT_BASE_UNIX_SEC): bigint {
  const raw = typeof createdAt === 'bigint' ? createdAt : BigInt(Math.trunc(createdAt));
  const baseNs = BigInt(baseUnixSec) * NS_PER_SEC;
  return unit === 'seconds' ? raw * NS_PER_SEC - baseNs : raw - baseNs;
}
