// Writes metric families back in the text exposition format 0.0.4: the inverse of parsePrometheusText.
// The property tests print random families and parse them back; the demo's kubelet endpoints can use it to
// serve a /metrics body that a real scraper would accept.

import type { MetricFamily, Sample } from './prometheusText';

export function formatPrometheusFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  // JavaScript's shortest round-trip form is also a valid Go float; only the sign of zero needs help.
  return Object.is(value, -0) ? '-0' : String(value);
}

function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

function escapeHelp(help: string): string {
  return help.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));
}

export function formatSample(sample: Sample): string {
  const labels = Object.entries(sample.labels);
  const labelText = labels.length === 0 ? '' : `{${labels.map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',')}}`;
  const timestamp = sample.timestampMs === undefined ? '' : ` ${sample.timestampMs}`;
  return `${sample.name}${labelText} ${formatPrometheusFloat(sample.value)}${timestamp}`;
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
