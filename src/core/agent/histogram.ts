// A cumulative histogram as Prometheus keeps one: a count per upper bound (le), the sum and the count.

import type { HistogramSample } from './exposition';

/**
 * Seconds, up to 600: the kubelet's own kubelet_pleg_relist_duration_seconds stops at 10 s (component-base
 * metrics.DefBuckets), so a relist that waits out a 2-minute runtime request timeout, or a PLEG stall past
 * the 3-minute threshold, lands in +Inf there; here it has a bucket.
 */
export const LONG_SECONDS_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 180, 300, 600];

export class Histogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;

  constructor(readonly bounds: readonly number[] = LONG_SECONDS_BUCKETS) {
    for (let i = 1; i < bounds.length; i++) {
      if (!((bounds[i] as number) > (bounds[i - 1] as number))) throw new RangeError(`histogram bounds must ascend, got ${bounds.join(', ')}`);
    }
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    this.sum += value;
    this.count++;
    // Only the first bucket that holds it; snapshot() makes the counts cumulative.
    const i = this.bounds.findIndex((le) => value <= le);
    if (i >= 0) this.counts[i] = (this.counts[i] ?? 0) + 1;
  }

  snapshot(labels?: Readonly<Record<string, string>>): HistogramSample {
    let running = 0;
    const buckets = this.bounds.map((le, i) => {
      running += this.counts[i] ?? 0;
      return { le, count: running };
    });
    return { ...(labels !== undefined ? { labels } : {}), buckets, sum: this.sum, count: this.count };
  }
}
