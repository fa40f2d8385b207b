// Facts read off a cumulative Prometheus histogram beyond a quantile: how many samples lie above a bound
// and roughly how long they took. The kubelet's relist histogram tops out at 10 s, so a 240 s relist
// lands in +Inf; its size can only be estimated from `sum` minus what the finite buckets can account for.

import type { HistogramSummary } from '../parse/kubeletEndpointTypes';

export interface SlowSamples {
  /** Samples above `overSeconds` (by bucket bounds: those not inside any bucket whose bound ≤ overSeconds). */
  count: number;
  /** Estimated mean of those samples, in seconds (finite buckets counted at their midpoints). */
  meanSeconds: number;
}

export function slowSamples(h: HistogramSummary, overSeconds: number): SlowSamples | undefined {
  const buckets = [...h.buckets].filter((b) => Number.isFinite(b.count)).sort((a, b) => a.le - b.le);
  let below = 0;
  let estimatedFastSum = 0;
  let previousLe = 0;
  let previousCount = 0;
  for (const b of buckets) {
    if (!(b.le <= overSeconds)) break;
    const inBucket = Math.max(0, b.count - previousCount);
    estimatedFastSum += inBucket * ((previousLe + b.le) / 2);
    below = b.count;
    previousLe = b.le;
    previousCount = b.count;
  }
  const count = Math.max(0, h.count - below);
  if (count === 0) return undefined;
  const meanSeconds = Math.max(overSeconds, (h.sum - estimatedFastSum) / count);
  return { count, meanSeconds };
}

/** Mean of a histogram, or undefined when it holds no samples. */
export function histogramMean(h: HistogramSummary | undefined): number | undefined {
  if (h === undefined || !(h.count > 0)) return undefined;
  return h.sum / h.count;
}
