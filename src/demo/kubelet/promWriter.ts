// Builds the demo kubelet's metric families the way the kubelet's client_golang registry gathers them:
// families sorted by name, samples by their labels, a histogram as cumulative buckets with a final +Inf,
// then _sum and _count. The text itself is written by the one writer, core/parse/prometheusFormat.ts.

import { formatLabels, formatPrometheusFloat, formatPrometheusText } from '../../core/parse/prometheusFormat';
import type { MetricFamily, Sample } from '../../core/parse/prometheusTypes';

/** prometheus.ExponentialBuckets: each bound the previous one times the factor (same float steps as Go). */
export function exponentialBuckets(start: number, factor: number, count: number): number[] {
  const out: number[] = [];
  let b = start;
  for (let i = 0; i < count; i++) {
    out.push(b);
    b *= factor;
  }
  return out;
}

/** prometheus.DefBuckets, used by the PLEG relist histograms. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The kubelet's runtime-operation buckets: from 5 ms, ×2.5, 14 of them. */
export const RUNTIME_OPERATION_BUCKETS = exponentialBuckets(0.005, 2.5, 14);

export type Labels = Record<string, string>;

/** Observations folded into a histogram: `count` samples of about `value` seconds each. */
export interface Observations {
  value: number;
  count: number;
}

export interface HistogramValue {
  buckets: readonly number[];
  observations: readonly Observations[];
}

type FamilySample = { labels: Labels; value: number } | { labels: Labels; histogram: HistogramValue };

interface Family {
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  samples: FamilySample[];
}

export class PromWriter {
  private readonly families = new Map<string, Family>();

  private family(name: string, help: string, type: Family['type']): Family {
    let f = this.families.get(name);
    if (!f) {
      f = { help, type, samples: [] };
      this.families.set(name, f);
    }
    if (f.type !== type) throw new Error(`metric ${name} is a ${f.type}, not a ${type}`);
    return f;
  }

  gauge(name: string, help: string, value: number, labels: Labels = {}): this {
    this.family(name, help, 'gauge').samples.push({ labels, value });
    return this;
  }

  counter(name: string, help: string, value: number, labels: Labels = {}): this {
    this.family(name, help, 'counter').samples.push({ labels, value });
    return this;
  }

  histogram(name: string, help: string, histogram: HistogramValue, labels: Labels = {}): this {
    this.family(name, help, 'histogram').samples.push({ labels, histogram });
    return this;
  }

  text(): string {
    const families: MetricFamily[] = [];
    for (const name of [...this.families.keys()].sort()) {
      const f = this.families.get(name);
      if (!f) continue;
      const samples: Sample[] = [];
      for (const s of [...f.samples].sort((a, b) => formatLabels(a.labels).localeCompare(formatLabels(b.labels)))) {
        if ('value' in s) {
          samples.push({ name, labels: s.labels, value: s.value });
          continue;
        }
        const { buckets, observations } = s.histogram;
        let total = 0;
        let sum = 0;
        for (const o of observations) {
          total += o.count;
          sum += o.value * o.count;
        }
        for (const le of buckets) {
          const below = observations.reduce((n, o) => (o.value <= le ? n + o.count : n), 0);
          samples.push({ name: `${name}_bucket`, labels: { ...s.labels, le: formatPrometheusFloat(le) }, value: below });
        }
        samples.push({ name: `${name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: total });
        samples.push({ name: `${name}_sum`, labels: s.labels, value: sum });
        samples.push({ name: `${name}_count`, labels: s.labels, value: total });
      }
      families.push({ name, type: f.type, help: f.help, samples });
    }
    return formatPrometheusText(families);
  }
}
