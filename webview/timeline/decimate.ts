// What the top chart draws when more samples are in view than it has pixel columns (a day of 1 s
// relists is 190,000 x values on ~1,000 columns): per time bucket of about a column, every series keeps
// its first, last, lowest and highest sample (M4), so each column shows the same extremes and the same
// line ends as the full data, and a live update at 1 Hz does not walk the whole day again.
// A row kept for one series is null in the others unless it is one of their picks too: written whole,
// every series drew every other series' picks as well (a day: 18,000 drawn points instead of 10,000),
// and drawing them was most of a live update's frame. The chart joins
// its lines across nulls (spanGaps, or gaps from lineGaps.ts), so the nulls break nothing.
// Buckets lie on a fixed grid (a power of two seconds wide), not on the view's edges, so a view that
// slides or grows keeps its finished buckets; appending a delta recomputes only the last, open one.
// Pure (no DOM, no uPlot): the chart passes the result to uPlot.setData.

import { lowerBound } from './lowerBound';

/** The session series' arrays the top chart draws: x first, then one array per drawn series. */
export type ChartColumns = [number[], ...Array<Array<number | null>>];

/**
 * One series' own picks, in time order: its non-null rows of the decimated columns. A line drawn from
 * these walks only its own points, not every series' rows (a day: 2,700 points, not 5,000 rows).
 */
export interface OwnPoints {
  xs: number[];
  ys: number[];
}

/** Below this many samples per bucket the full data is drawn (decimating it would save nothing). */
const MIN_SAMPLES_PER_BUCKET = 4;
/** Levels kept at once: the zoom levels a user goes back and forth between. */
const MAX_LEVELS = 3;

interface Level {
  bucketS: number;
  /** The decimated columns; their tail (from `openFrom`) is the open bucket's picks. */
  out: ChartColumns;
  /** Index into the source of the first sample of the open (last) bucket. */
  openSourceFrom: number;
  /** Index into `out` where the open bucket's picks start. */
  openFrom: number;
  /** The open bucket's number (floor(x / bucketS)). */
  openBucket: number;
  /** Per series (index as in `out`; 0, the x column, stays empty), its picks. */
  own: OwnPoints[];
  /** Per series, where the open bucket's picks start in `own`. */
  ownOpenFrom: number[];
  lastUsed: number;
}

/** The smallest power of two (seconds, may be below 1) at least `s`. */
function powerOfTwoAtLeast(s: number): number {
  return 2 ** Math.ceil(Math.log2(s));
}

export class ChartDecimator {
  private readonly levels = new Map<number, Level>();
  private uses = 0;

  /** `source()` returns the series' own arrays, which only grow by appending. */
  constructor(private readonly source: () => ChartColumns) {}

  /**
   * The columns to draw for [fromS, toS] on `columns` pixel columns: the source itself when it has few
   * enough samples in view, else the decimated columns of the whole session at a bucket of about a column.
   */
  columnsFor(fromS: number, toS: number, columns: number): ChartColumns {
    const src = this.source();
    const xs = src[0];
    const inView = lowerBound(xs.length, (i) => xs[i]! <= toS) - lowerBound(xs.length, (i) => xs[i]! < fromS);
    const buckets = Math.max(1, Math.floor(columns));
    if (inView <= buckets * MIN_SAMPLES_PER_BUCKET || toS <= fromS) return src;
    const bucketS = powerOfTwoAtLeast((toS - fromS) / buckets);
    let level = this.levels.get(bucketS);
    if (level === undefined) {
      level = {
        bucketS,
        out: src.map(() => []) as unknown as ChartColumns,
        openSourceFrom: 0,
        openFrom: 0,
        openBucket: Number.NEGATIVE_INFINITY,
        own: src.map(() => ({ xs: [], ys: [] })),
        ownOpenFrom: src.map(() => 0),
        lastUsed: 0,
      };
      this.levels.set(bucketS, level);
      this.evict();
    }
    level.lastUsed = ++this.uses;
    grow(level, src);
    return level.out;
  }

  /** Per series, its own points in `columns` when they are decimated columns this decimator returned; else undefined. */
  ownPoints(columns: ChartColumns): readonly OwnPoints[] | undefined {
    for (const level of this.levels.values()) if (level.out === columns) return level.own;
    return undefined;
  }

  private evict(): void {
    while (this.levels.size > MAX_LEVELS) {
      let oldest: Level | undefined;
      for (const l of this.levels.values()) if (oldest === undefined || l.lastUsed < oldest.lastUsed) oldest = l;
      if (oldest === undefined) return;
      this.levels.delete(oldest.bucketS);
    }
  }
}

/** Brings a level up to the source's end: the open bucket is dropped and picked again with what came since. */
function grow(level: Level, src: ChartColumns): void {
  const xs = src[0];
  const out = level.out;
  for (const column of out) column.length = level.openFrom;
  level.own.forEach((own, j) => {
    own.xs.length = level.ownOpenFrom[j]!;
    own.ys.length = level.ownOpenFrom[j]!;
  });
  let start = level.openSourceFrom;
  let bucket = start < xs.length ? Math.floor(xs[start]! / level.bucketS) : level.openBucket;
  for (let i = start; i <= xs.length; i++) {
    // A sample earlier than its predecessor's bucket (merged late) stays in the bucket being built.
    const b = i < xs.length ? Math.max(bucket, Math.floor(xs[i]! / level.bucketS)) : Number.POSITIVE_INFINITY;
    if (b === bucket) continue;
    if (i > start) {
      level.openFrom = out[0].length;
      level.own.forEach((own, j) => (level.ownOpenFrom[j] = own.xs.length));
      level.openSourceFrom = start;
      level.openBucket = bucket;
      pickBucket(src, start, i, out, level.own);
    }
    start = i;
    bucket = b;
  }
}

/** Per series (1..n), its picks in the bucket being built: four row indices, -1 for none. */
let chosen = new Int32Array(4 * 8);
/** The bucket's picked rows, ascending, distinct. */
let rows = new Int32Array(4 * 8);

/**
 * The samples [from, to) of one bucket: for each series its first, last, lowest and highest, in time
 * order; a row is written with every series' value where it is one of that series' picks, else null.
 */
function pickBucket(src: ChartColumns, from: number, to: number, out: ChartColumns, own: OwnPoints[]): void {
  const series = src.length - 1;
  if (chosen.length < 4 * series) {
    chosen = new Int32Array(4 * series);
    rows = new Int32Array(4 * series);
  }
  let count = 0;
  for (let j = 1; j <= series; j++) {
    const ys = src[j]!;
    let first = -1;
    let last = -1;
    let min = -1;
    let max = -1;
    for (let i = from; i < to; i++) {
      const y = ys[i];
      if (y === null || y === undefined) continue;
      if (first < 0) first = min = max = i;
      last = i;
      if (below(y, ys[min]!)) min = i;
      if (below(ys[max]!, y)) max = i;
    }
    const at = 4 * (j - 1);
    chosen[at] = first;
    chosen[at + 1] = last;
    chosen[at + 2] = min;
    chosen[at + 3] = max;
    if (first >= 0) for (let k = at; k < at + 4; k++) count = insertRow(chosen[k]!, count);
  }
  for (let r = 0; r < count; r++) {
    const i = rows[r]!;
    const x = src[0][i]!;
    out[0].push(x);
    for (let j = 1; j <= series; j++) {
      const at = 4 * (j - 1);
      const picked = chosen[at] === i || chosen[at + 1] === i || chosen[at + 2] === i || chosen[at + 3] === i;
      const y = picked ? (src[j]![i] as number) : null;
      (out[j] as Array<number | null>).push(y);
      if (y !== null) {
        own[j]!.xs.push(x);
        own[j]!.ys.push(y);
      }
    }
  }
}

/** a < b in Math.min's order, where -0 is below +0 (1 / -0 is -Infinity): the picks are what Math.min and Math.max give. */
function below(a: number, b: number): boolean {
  return a < b || (a === 0 && b === 0 && 1 / a < 1 / b);
}

/** Inserts `row` into the sorted `rows[0..count)` unless present; returns the new count. */
function insertRow(row: number, count: number): number {
  let k = count;
  while (k > 0 && rows[k - 1]! > row) k--;
  if (k > 0 && rows[k - 1] === row) return count;
  rows.copyWithin(k + 1, k, count);
  rows[k] = row;
  return count + 1;
}
