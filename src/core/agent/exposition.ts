// The Prometheus text exposition format 0.0.4, as its reader parses it (prometheus/common expfmt,
// text_parse.go): `# HELP name text` with `\` and newline escaped, `# TYPE name gauge|counter|histogram`,
// then one `name{label="value"} number` line per sample; label values escape `\`, `"` and newline; the
// special floats are written `+Inf`, `-Inf` and `NaN` (what expfmt's writeFloat writes). A histogram is
// its cumulative `_bucket{le=…}` lines ending with `le="+Inf"`, then `_sum` and `_count`.

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

export function formatFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  return String(v);
}

const escapeHelp = (text: string): string => text.replace(/\\/gu, '\\\\').replace(/\n/gu, '\\n');
const escapeLabel = (text: string): string => text.replace(/\\/gu, '\\\\').replace(/"/gu, '\\"').replace(/\n/gu, '\\n');

function labelText(labels: Readonly<Record<string, string>> | undefined, extra?: [string, string]): string {
  const pairs = Object.entries(labels ?? {});
  if (extra !== undefined) pairs.push(extra);
  if (pairs.length === 0) return '';
  for (const [key] of pairs) if (!LABEL.test(key) || key.startsWith('__')) throw new Error(`metric label name ${JSON.stringify(key)} is not valid`);
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
}

/** The whole exposition; throws on a metric or label name the format cannot carry (a bug, not input). */
export function renderExposition(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (!NAME.test(family.name)) throw new Error(`metric name ${JSON.stringify(family.name)} is not valid`);
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    if (family.type === 'histogram') {
      for (const h of family.samples) {
        for (const b of h.buckets) lines.push(`${family.name}_bucket${labelText(h.labels, ['le', formatFloat(b.le)])} ${formatFloat(b.count)}`);
        lines.push(`${family.name}_bucket${labelText(h.labels, ['le', '+Inf'])} ${formatFloat(h.count)}`);
        lines.push(`${family.name}_sum${labelText(h.labels)} ${formatFloat(h.sum)}`, `${family.name}_count${labelText(h.labels)} ${formatFloat(h.count)}`);
      }
    } else {
      for (const s of family.samples) lines.push(`${family.name}${labelText(s.labels)} ${formatFloat(s.value)}`);
    }
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
