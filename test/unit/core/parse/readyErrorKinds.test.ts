// The memoised Ready-error kinds of a skip line's err: the cache answers as a fresh parse would, a text
// that differs only in its digits is a hit, answers are private copies, and the cache stays bounded.
import { describe, expect, it } from 'vitest';
import {
  READY_KINDS_CACHE_ENTRIES,
  READY_KINDS_CACHE_MAX_CHARS,
  readyErrorKinds,
  readyErrorKindsUncached,
  readyKindsCacheSize,
  shapeKey,
} from '../../../../src/core/parse/readyErrorKinds';

const SKIP_ERR = (ago: string): string => `[container runtime is down, PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is 3m0s]`;

describe('readyErrorKinds', () => {
  it('names the kinds in order of first appearance, once each, as a fresh parse does', () => {
    const text = SKIP_ERR('3m13.144871167s');
    expect(readyErrorKindsUncached(text)).toEqual(['runtime-down', 'pleg-stale']);
    expect(readyErrorKinds(text)).toEqual(['runtime-down', 'pleg-stale']);
    expect(readyErrorKinds('container runtime is down, container runtime is down')).toEqual(['runtime-down']);
    expect(readyErrorKinds('')).toEqual([]);
    expect(readyErrorKinds('something else entirely')).toEqual(['other']);
  });

  it('answers a text that differs only in its digits from the cache', () => {
    const first = SKIP_ERR('4m1.5s');
    readyErrorKinds(first);
    const size = readyKindsCacheSize();
    expect(readyErrorKinds(SKIP_ERR('4m9.7s'))).toEqual(['runtime-down', 'pleg-stale']);
    expect(readyKindsCacheSize()).toBe(size);
    // Another shape is another entry.
    readyErrorKinds('PLEG is not healthy: pleg has yet to be successful');
    expect(readyKindsCacheSize()).toBe(size + 1);
  });

  it('keeps texts apart that differ in anything but ASCII digits', () => {
    readyErrorKinds('warm the cache');
    const size = readyKindsCacheSize();
    // Another digit system, or a letter where a digit stood, is another shape.
    expect(readyErrorKinds('PLEG is not healthy: pleg was last seen active \u0663m0s ago; threshold is 3m0s')).toEqual(
      readyErrorKindsUncached('PLEG is not healthy: pleg was last seen active \u0663m0s ago; threshold is 3m0s'),
    );
    expect(readyErrorKinds('PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s')).toEqual(['pleg-stale']);
    expect(readyErrorKinds('PLEG is not healthy: pleg was last seen active xm0s ago; threshold is 3m0s')).toEqual(
      readyErrorKindsUncached('PLEG is not healthy: pleg was last seen active xm0s ago; threshold is 3m0s'),
    );
    expect(readyKindsCacheSize()).toBe(size + 3);
  });

  it('gives each caller its own array', () => {
    const text = SKIP_ERR('3m3s');
    const a = readyErrorKinds(text);
    a.push('mutated');
    expect(readyErrorKinds(text)).toEqual(['runtime-down', 'pleg-stale']);
  });

  it('keeps at most READY_KINDS_CACHE_ENTRIES entries, and parses very long texts without keeping them', () => {
    for (let i = 0; i < READY_KINDS_CACHE_ENTRIES * 2; i++) readyErrorKinds(`container runtime is down ${'x'.repeat(i % 50)}${'y'.repeat(i)}`);
    expect(readyKindsCacheSize()).toBeLessThanOrEqual(READY_KINDS_CACHE_ENTRIES);
    expect(readyKindsCacheSize()).toBeGreaterThan(0);
    const before = readyKindsCacheSize();
    const long = `${'z'.repeat(READY_KINDS_CACHE_MAX_CHARS)} container runtime is down`;
    expect(readyErrorKinds(long)).toEqual(['other', 'runtime-down']);
    expect(readyKindsCacheSize()).toBe(before);
  });
});

describe('shapeKey (the cache key)', () => {
  const sameKey = (a: string, b: string): boolean => shapeKey(a) === shapeKey(b);
  it('is equal for texts equal but for which ASCII digits stand where', () => {
    expect(sameKey('active 3m13.1s ago', 'active 4m09.7s ago')).toBe(true);
    expect(sameKey('active 3m13.1s ago', 'active 3m13.1s agO')).toBe(false);
    expect(sameKey('active 3m1s ago', 'active 3m13s ago')).toBe(false);
    expect(sameKey('a1', 'ab')).toBe(false);
    expect(sameKey('a\u0661', 'a1')).toBe(false);
  });
});
