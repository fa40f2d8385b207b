// The cache of readyErrorKinds is keyed by the text with its digits 1–9 turned into 0. Property: on
// messages built from every Ready rule's phrases, numbers and separators, the cached answer is the fresh
// parse's, also when the cache was first filled by a text with other digits in the same places.
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { readyErrorKinds, readyErrorKindsUncached } from '../../../../src/core/parse/readyErrorKinds';

const digits = fc.stringMatching(/^[0-9]{0,3}$/u);
const duration = fc.tuple(digits, digits, fc.boolean()).map(([a, b, frac]) => `${a}m${b}${frac ? '.5' : ''}s`);

const phrase = fc.oneof(
  fc.tuple(duration, duration).map(([ago, thr]) => `PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is ${thr}`),
  fc.constant('PLEG is not healthy: pleg has yet to be successful'),
  digits.map((n) => `EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with ${n} events`),
  fc.constantFrom('container runtime is down', 'container runtime status check may not have completed yet'),
  fc.constantFrom('container runtime not ready: RuntimeReady=false', 'runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady'),
  fc.constantFrom('missing node capacity for resources: pods', 'node is shutting down', 'kubelet is posting ready status', 'Kubelet stopped posting node status.'),
  // Near misses with digits where a rule wants words, and free text.
  digits.map((n) => `PLEG is not healthy: pleg was last seen active ${n} ago; threshold is 3m0s`),
  digits.map((n) => `container runtime ${n} is down`),
  fc.string({ maxLength: 20 }),
);
const separator = fc.constantFrom(', ', ',', '; ', ' ', '[', ']', '\n');

/** The same text with every ASCII digit replaced by some digit: the cache must not tell them apart. */
function otherDigits(text: string, seed: number): string {
  let s = seed;
  return text.replace(/[0-9]/gu, () => String((s = (s * 7 + 3) % 10)));
}

describe('readyErrorKinds cache', () => {
  test.prop([fc.array(fc.tuple(phrase, separator), { maxLength: 5 }), fc.nat()], { numRuns: 500 })(
    'the cached kinds are the fresh parse’s, whichever digit variant filled the cache',
    (parts, seed) => {
      const text = parts.map(([p, sep]) => p + sep).join('');
      const variant = otherDigits(text, seed);
      expect(readyErrorKinds(variant)).toEqual(readyErrorKindsUncached(variant));
      expect(readyErrorKinds(text)).toEqual(readyErrorKindsUncached(text));
    },
  );
});
