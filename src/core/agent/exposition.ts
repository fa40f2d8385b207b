// The agent's metrics in the text exposition format 0.0.4: its families as the agent keeps them (a gauge's
// samples, a histogram's cumulative buckets) turned into the sample lines expfmt reads — a histogram's
// `_bucket{…,le=…}` lines ending with `le="+Inf"`, then `_sum` and `_count` — and written by the project's
// one text writer (core/parse/prometheusFormat.ts: escaping, HELP/TYPE, Go's float spelling).

import { formatPrometheusFloat, formatPrometheusText } from '../parse/prometheusFormat';
import type { MetricFamily as TextFamily, Sample as TextSample } from '../parse/prometheusTypes';

export type MetricType = 'gauge' | 'counter' | 'histogram';

export interface Sample {
  labels?: Readonly<Record<string, string>>;
  value: number;
}

export interface HistogramSample {
  labels?: Readonly<Record<string, string>>;
  /** Cumulative counts per upper bound, ascending; the +Inf bucket is `count`. */
  buckets: readonly { le: number; count: number }[];
  sum: number;
  count: number;
}

export type MetricFamily =
  | { name: string; help: string; type: 'gauge' | 'counter'; samples: readonly Sample[] }
  | { name: string; help: string; type: 'histogram'; samples: readonly HistogramSample[] };

/** The media type a scraper is answered with for this format. */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/u;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/u;

/** One sample line's labels, with `le` last where the histogram adds it; checks every label name. */
function labelsOf(labels: Readonly<Record<string, string>> | undefined, le?: string): Record<string, string> {
  const out: Record<string, string> = { ...labels };
  for (const key of Object.keys(out)) if (!LABEL.test(key) || key.startsWith('__')) throw new Error(`metric label name ${JSON.stringify(key)} is not valid`);
  if (le !== undefined) out['le'] = le;
  return out;
}

/** The agent's families as the text writer's (core/parse/prometheusFormat.ts, the project's one writer). */
function toTextFamily(family: MetricFamily): TextFamily {
  if (!NAME.test(family.name)) throw new Error(`metric name ${JSON.stringify(family.name)} is not valid`);
  const samples: TextSample[] = [];
  if (family.type === 'histogram') {
    for (const h of family.samples) {
      for (const b of h.buckets) samples.push({ name: `${family.name}_bucket`, labels: labelsOf(h.labels, formatPrometheusFloat(b.le)), value: b.count });
      samples.push({ name: `${family.name}_bucket`, labels: labelsOf(h.labels, '+Inf'), value: h.count });
      samples.push({ name: `${family.name}_sum`, labels: labelsOf(h.labels), value: h.sum }, { name: `${family.name}_count`, labels: labelsOf(h.labels), value: h.count });
    }
  } else {
    for (const s of family.samples) samples.push({ name: family.name, labels: labelsOf(s.labels), value: s.value });
  }
  return { name: family.name, type: family.type, help: family.help, samples };
}

/** The whole exposition; throws on a metric or label name the format cannot carry (a bug, not input). */
export function renderExposition(families: readonly MetricFamily[]): string {
  return formatPrometheusText(families.map(toTextFamily));
}
