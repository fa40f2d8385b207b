// A property that asserts inside a loop passes vacuously when the loop never runs (no relists, no skip
// lines, no parsed errors). propWithLoops is test.prop plus a tally: the body counts what its loops
// checked, and after all runs each count must reach its minimum, or the test fails.

import { fc } from '@fast-check/vitest';
import { expect, it } from 'vitest';

export class Tally<K extends string> {
  private readonly counts = new Map<K, number>();

  /** One more (or `n` more) checks made by the loop `key`. */
  hit(key: K, n = 1): void {
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  expectAtLeast(minimums: Record<K, number>): void {
    for (const [key, min] of Object.entries(minimums) as Array<[K, number]>) {
      const got = this.counts.get(key) ?? 0;
      if (process.env['PLEG_PROP_TALLY'] === '1') console.log(`tally ${key}: ${got} (minimum ${min})`);
      expect(got, `the loop "${key}" checked ${got} times over all runs; at least ${min} expected`).toBeGreaterThanOrEqual(min);
    }
  }
}

/**
 * Like `test.prop(arbitraries, params)(name, body, timeout)`, with a Tally as the body's last argument
 * and, per tally key, the minimum count over all runs.
 */
export function propWithLoops<T extends [unknown, ...unknown[]], K extends string>(
  arbitraries: { [I in keyof T]: fc.Arbitrary<T[I]> },
  params: fc.Parameters<[T]>,
  minimums: Record<K, number>,
): (name: string, body: (...args: [...T, Tally<K>]) => void, timeout?: number) => void {
  return (name, body, timeout) => {
    it(
      name,
      () => {
        const tally = new Tally<K>();
        const all = fc.tuple(...(arbitraries as fc.Arbitrary<unknown>[])) as unknown as fc.Arbitrary<T>;
        fc.assert(
          fc.property(all, (args) => {
            body(...args, tally);
          }),
          params,
        );
        tally.expectAtLeast(minimums);
      },
      timeout,
    );
  };
}
