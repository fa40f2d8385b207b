// Writes metric families in the text exposition format 0.0.4, as the kubelet's client_golang does
// (github.com/prometheus/common expfmt, text_create.go MetricFamilyToText: `# HELP` with `\` and newline
// escaped, `# TYPE`, then one line per sample, label values with `\`, `"` and newline escaped, floats by
// writeFloat: strconv.AppendFloat(f, 'g', -1, 64), +Inf, -Inf and NaN spelled out). The inverse of
// parsePrometheusText. The demo's kubelet serves its /metrics through it (src/demo/kubelet/promWriter.ts);
// the property tests print random families with it and parse them back.

import type { MetricFamily, Sample } from './prometheusTypes';

/**
 * strconv.FormatFloat(v, 'g', -1, 64): the shortest digits that read back as v, in exponent form when the
 * decimal exponent is < -4 or ≥ 6 (Go's strconv/ftoa.go formatDigits, case 'g': with the shortest digits
 * eprec is 6), the exponent at least two digits (1.795316443e+09, 1e-05).
 */
export function formatPrometheusFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  // toExponential() without digits gives the shortest mantissa that reads back as v, as Go's -1 precision does.
  const [mantissa = '0', expText = '0'] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(v);
}

function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/gu, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function escapeHelp(help: string): string {
  return help.replace(/[\\\n]/gu, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

/** `{k="v",…}` in the order given, or nothing for no labels. */
export function formatLabels(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels);
  return pairs.length === 0 ? '' : `{${pairs.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
}

export function formatSample(sample: Sample): string {
  const timestamp = sample.timestampMs === undefined ? '' : ` ${sample.timestampMs}`;
  return `${sample.name}${formatLabels(sample.labels)} ${formatPrometheusFloat(sample.value)}${timestamp}`;
}

export function formatPrometheusText(families: readonly MetricFamily[]): string {
  const out: string[] = [];
  for (const family of families) {
    if (family.help !== undefined) out.push(`# HELP ${family.name} ${escapeHelp(family.help)}`);
    out.push(`# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) out.push(formatSample(sample));
  }
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}
