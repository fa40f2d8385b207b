// The Prometheus text format's data, as the parser (prometheusText.ts) returns it and its line and sample
// readers build it. A leaf of types, so those three modules do not import each other in a ring.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name, e.g. `x_bucket` inside the histogram family `x`. */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
  /** Milliseconds since the epoch, when the line carried a timestamp. */
  timestampMs?: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help?: string;
  /** In the order the text listed them. */
  samples: Sample[];
}
