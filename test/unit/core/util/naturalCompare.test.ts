import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { naturalCompare } from '../../../../src/core/util/naturalCompare';

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe('naturalCompare', () => {
  it.each([
    ['node-2', 'node-10', -1],
    ['node-10', 'node-2', 1],
    ['Node-2', 'node-2', 0],
    ['node-02', 'node-2', 0],
    ['ip-10-0-1-5.ec2.internal', 'ip-10-0-1-17.ec2.internal', -1],
    ['a', 'a-1', -1],
    ['a.b', 'a-b', 1],
    ['n123456789012345678901234567890', 'n123456789012345678901234567891', -1],
    ['', 'a', -1],
    ['', '', 0],
  ])('%s vs %s → %i', (a, b, expected) => {
    expect(sign(naturalCompare(a, b))).toBe(expected);
    expect(sign(naturalCompare(b, a))).toBe(-expected || 0);
  });

  it('orders DNS-style names as Intl.Collator("en", { numeric, sensitivity: base }) does', () => {
    const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
    const name = fc.stringMatching(/^[a-zA-Z0-9.-]{0,10}$/u);
    let differing = 0;
    fc.assert(
      fc.property(name, name, (a, b) => {
        const expected = sign(collator.compare(a, b));
        if (expected !== 0) differing++;
        expect(sign(naturalCompare(a, b))).toBe(expected);
      }),
      { numRuns: 3000 },
    );
    // The property ran on pairs the collator tells apart, not only on equal ones.
    expect(differing).toBeGreaterThan(2000);
  });

  it('is a total order on those names (antisymmetric, transitive on sorted triples)', () => {
    const name = fc.stringMatching(/^[a-z0-9.-]{0,8}$/u);
    fc.assert(
      fc.property(fc.array(name, { minLength: 3, maxLength: 12 }), (names) => {
        const sorted = [...names].sort(naturalCompare);
        for (let i = 1; i < sorted.length; i++) expect(naturalCompare(sorted[i - 1] as string, sorted[i] as string)).toBeLessThanOrEqual(0);
        for (const x of names) for (const y of names) expect(sign(naturalCompare(x, y))).toBe(-sign(naturalCompare(y, x)) || 0);
      }),
      { numRuns: 300 },
    );
  });
});
