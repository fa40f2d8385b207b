// The top chart's decimation: in every bucket each series keeps its extremes and its line ends, every
// drawn row is a row of the data, growing by appends gives what a fresh start gives, and a view with few
// samples draws the data itself.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChartDecimator, type ChartColumns } from '../../../../webview/timeline/decimate';

/** Sorted x with random gaps; two y series with nulls; a constant third. */
function columnsOf(steps: readonly number[], ys: ReadonlyArray<readonly [number | null, number | null]>, threshold = 180): ChartColumns {
  const x: number[] = [];
  let t = 0;
  for (const step of steps) x.push((t += step));
  return [x, ys.map((y) => y[0]), ys.map((y) => y[1]), x.map(() => threshold)];
}

const arbitraryColumns = fc.integer({ min: 50, max: 3_000 }).chain((n) =>
  fc
    .tuple(
      fc.array(fc.double({ min: 0, max: 5, noNaN: true }), { minLength: n, maxLength: n }),
      fc.array(fc.tuple(fc.option(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { freq: 3 }), fc.option(fc.integer({ min: 0, max: 50 }), { freq: 2 })), { minLength: n, maxLength: n }),
    )
    .map(([steps, ys]) => columnsOf(steps, ys)),
);

function bucketOf(x: number, bucketS: number): number {
  return Math.floor(x / bucketS);
}

describe('ChartDecimator', () => {
  it('orders -0 below +0 in a bucket, as Math.min and Math.max do (a case fast-check found)', () => {
    const n = 400;
    // Series 1: -0 then +0 at the start of every bucket, -1 elsewhere: the highest drawn must be +0.
    const src = columnsOf(Array.from({ length: n }, () => 1), Array.from({ length: n }, (_, i) => [i % 8 === 0 ? -0 : i % 8 === 1 ? 0 : -1, null] as [number, null]));
    const out = new ChartDecimator(() => src).columnsFor(0, n, 10);
    expect(out).not.toBe(src);
    const drawn = out[1]!.filter((v): v is number => v !== null && v !== undefined);
    expect(drawn.some((v) => Object.is(v, 0))).toBe(true);
  });

  it('draws the data itself when the view holds few samples per column', () => {
    const src = columnsOf([1, 1, 1, 1, 1, 1, 1, 1], Array.from({ length: 8 }, (_, i) => [i, i] as [number, number]));
    expect(new ChartDecimator(() => src).columnsFor(0, 10, 100)).toBe(src);
  });

  it('keeps, per bucket and series, the lowest, highest, first and last sample, and draws only rows of the data', () => {
    fc.assert(
      fc.property(arbitraryColumns, fc.integer({ min: 4, max: 200 }), (src, columns) => {
        const end = src[0].at(-1)!;
        const out = new ChartDecimator(() => src).columnsFor(0, end, columns);
        if (out === src) return;
        expect(out[0].length).toBeLessThan(src[0].length);
        const bucketS = 2 ** Math.ceil(Math.log2(end / columns));
        // Every drawn row is a row of the source, in time order, with some series left out (null).
        const sourceRows = new Map<number, number[]>();
        src[0].forEach((x, i) => {
          const rows = sourceRows.get(x);
          if (rows === undefined) sourceRows.set(x, [i]);
          else rows.push(i);
        });
        for (let i = 0; i < out[0].length; i++) {
          const same = (r: number): boolean => out.every((col, j) => j === 0 || col[i] === null || col[i] === src[j]![r]);
          expect((sourceRows.get(out[0][i]!) ?? []).some(same)).toBe(true);
          expect(out.some((col, j) => j > 0 && col[i] !== null)).toBe(true);
          if (i > 0) expect(out[0][i]!).toBeGreaterThanOrEqual(out[0][i - 1]!);
        }
        // Each series draws at most its four picks per bucket, not the other series' rows.
        for (let j = 1; j < src.length; j++) {
          const perBucket = new Map<number, number>();
          out[0].forEach((x, i) => {
            if (out[j]![i] !== null) perBucket.set(bucketOf(x, bucketS), (perBucket.get(bucketOf(x, bucketS)) ?? 0) + 1);
          });
          for (const n of perBucket.values()) expect(n).toBeLessThanOrEqual(4);
        }
        for (let j = 1; j < src.length; j++) {
          const want = new Map<number, { min: number; max: number; firstX: number; lastX: number }>();
          const got = new Map<number, { min: number; max: number; firstX: number; lastX: number }>();
          const collect = (c: ChartColumns, into: typeof want): void => {
            c[0].forEach((x, i) => {
              const y = c[j]![i];
              if (y === null || y === undefined) return;
              const b = bucketOf(x, bucketS);
              const e = into.get(b);
              if (e === undefined) into.set(b, { min: y, max: y, firstX: x, lastX: x });
              else into.set(b, { min: Math.min(e.min, y), max: Math.max(e.max, y), firstX: e.firstX, lastX: x });
            });
          };
          collect(src, want);
          collect(out, got);
          expect(got).toEqual(want);
        }
      }),
      { numRuns: 150 },
    );
    // 150 runs take about 2 s on an idle machine: more than vitest's default 5 s when CI loads both cores.
  }, 30_000);

  it('grown by appends, draws what a fresh decimator draws on the whole data', () => {
    fc.assert(
      fc.property(arbitraryColumns, fc.integer({ min: 1, max: 9 }), fc.integer({ min: 10, max: 120 }), (full, cuts, columns) => {
        const grown: ChartColumns = full.map(() => []) as unknown as ChartColumns;
        const decimator = new ChartDecimator(() => grown);
        const n = full[0].length;
        const end = full[0].at(-1)!;
        let last: ChartColumns = grown;
        for (let k = 1; k <= cuts; k++) {
          const upTo = Math.round((n * k) / cuts);
          const from = grown[0].length;
          for (let j = 0; j < full.length; j++) (grown[j] as Array<number | null>).push(...full[j]!.slice(from, upTo));
          // The same range each time (a whole-session view), as a replay's last frame would use.
          last = decimator.columnsFor(0, end, columns);
        }
        const fresh = new ChartDecimator(() => full).columnsFor(0, end, columns);
        expect(last === grown ? full : last).toEqual(fresh === full ? full : fresh);
      }),
      { numRuns: 100 },
    );
  });

  it("each series' own points are exactly its non-null rows of the decimated columns, also after appends", () => {
    let decimated = 0;
    fc.assert(
      fc.property(arbitraryColumns, fc.integer({ min: 1, max: 6 }), fc.integer({ min: 10, max: 120 }), (full, cuts, columns) => {
        const grown: ChartColumns = full.map(() => []) as unknown as ChartColumns;
        const decimator = new ChartDecimator(() => grown);
        const n = full[0].length;
        const end = full[0].at(-1)!;
        for (let k = 1; k <= cuts; k++) {
          const upTo = Math.round((n * k) / cuts);
          const from = grown[0].length;
          for (let j = 0; j < full.length; j++) (grown[j] as Array<number | null>).push(...full[j]!.slice(from, upTo));
          const out = decimator.columnsFor(0, end, columns);
          const own = decimator.ownPoints(out);
          if (out === grown) {
            expect(own).toBeUndefined();
            continue;
          }
          expect(own).toBeDefined();
          decimated++;
          for (let j = 1; j < out.length; j++) {
            const rows = out[0].map((x, i) => [x, out[j]![i]] as const).filter(([, y]) => y !== null);
            expect(own![j]!.xs).toEqual(rows.map(([x]) => x));
            expect(own![j]!.ys).toEqual(rows.map(([, y]) => y));
          }
        }
      }),
      { numRuns: 100 },
    );
    // The generated sessions must reach decimation, or the property above says nothing.
    expect(decimated).toBeGreaterThan(50);
  });

  it('a view zoomed in draws finer buckets; going back to a level evicted since recomputes it the same', () => {
    const n = 20_000;
    const src = columnsOf(Array.from({ length: n }, () => 1), Array.from({ length: n }, (_, i) => [Math.sin(i / 50) * 100, i % 11 === 0 ? i : null] as [number, number | null]));
    const decimator = new ChartDecimator(() => src);
    const wide = structuredClone(decimator.columnsFor(0, n, 200));
    const narrow = decimator.columnsFor(0, n / 4, 200);
    expect(narrow[0].filter((x) => x <= n / 4).length).toBeGreaterThan(wide[0].filter((x) => x <= n / 4).length);
    for (const columns of [150, 120, 90, 60]) decimator.columnsFor(0, n, columns);
    expect(decimator.columnsFor(0, n, 200)).toEqual(wide);
  });
});
