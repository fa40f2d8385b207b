// goDurationSeconds' fast path (no BigInt) against parseGoDurationSeconds: the same double for every
// duration the kubelet prints and for the forms only the slow path takes; undefined where it throws.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { goDurationSeconds } from '../../../../src/core/parse/durationSeconds';
import { parseGoDurationSeconds } from '../../../../src/core/util/goDuration';

function reference(text: string): number | undefined {
  try {
    return parseGoDurationSeconds(text);
  } catch {
    return undefined;
  }
}

const n = fc.oneof(fc.nat(99), fc.nat(), fc.constantFrom(0, 59, 60, 999_999_999, 2_562_047, 9_007_199, 9_007_200, 2 ** 53));
const frac = fc.stringMatching(/^[0-9]{1,10}$/u);

describe('goDurationSeconds', () => {
  test.prop([fc.option(n), fc.option(n), n, fc.option(frac)], { numRuns: 2000 })('[Nh][Nm]N[.F]s: the slow parse’s double', (h, m, s, f) => {
    const text = `${h !== null ? `${h}h` : ''}${m !== null ? `${m}m` : ''}${s}${f !== null ? `.${f}` : ''}s`;
    expect(Object.is(goDurationSeconds(text), reference(text)), text).toBe(true);
  });

  test.prop([fc.stringMatching(/^[-+ ]?[0-9.]{0,6}(?:ns|us|µs|ms|s|m|h|x)?[0-9.]{0,4}(?:s|m|h)?$/u)], { numRuns: 1000 })('any other text: the slow parse’s answer', (text) => {
    expect(Object.is(goDurationSeconds(text), reference(text)), text).toBe(true);
  });

  it('on the kubelet’s own forms', () => {
    expect(goDurationSeconds('3m13.144871167s')).toBe(parseGoDurationSeconds('3m13.144871167s'));
    expect(goDurationSeconds('2562047h47m16.854775807s')).toBe(parseGoDurationSeconds('2562047h47m16.854775807s'));
    expect(goDurationSeconds('250ms')).toBe(0.25);
    expect(goDurationSeconds('nonsense')).toBeUndefined();
  });
});
