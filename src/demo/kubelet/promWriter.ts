// Writes the Prometheus text exposition format the way the kubelet's client_golang does: HELP and TYPE
// lines, label values quoted, floats in Go's shortest 'g' form (1.795316443e+09, 0.0125, +Inf), families
// sorted by name, histogram buckets cumulative with a final +Inf.

/** strconv.FormatFloat(v, 'g', -1, 64): exponent form when the exponent is < -4 or ≥ 6 (Go's shortest %g rule). */
export function goFloat(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return '0';
  const [mantissa = '0', expText = '0'] = v.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(v);
}

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

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Labels, extra?: [string, string]): string {
  const pairs = Object.entries(labels);
  if (extra) pairs.push(extra);
  if (pairs.length === 0) return '';
  return `{${pairs.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`;
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
    const lines: string[] = [];
    for (const name of [...this.families.keys()].sort()) {
      const f = this.families.get(name);
      if (!f) continue;
      lines.push(`# HELP ${name} ${f.help}`, `# TYPE ${name} ${f.type}`);
      const samples = [...f.samples].sort((a, b) => labelText(a.labels).localeCompare(labelText(b.labels)));
      for (const s of samples) {
        if ('value' in s) {
          lines.push(`${name}${labelText(s.labels)} ${goFloat(s.value)}`);
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
          lines.push(`${name}_bucket${labelText(s.labels, ['le', goFloat(le)])} ${goFloat(below)}`);
        }
        lines.push(`${name}_bucket${labelText(s.labels, ['le', '+Inf'])} ${goFloat(total)}`);
        lines.push(`${name}_sum${labelText(s.labels)} ${goFloat(sum)}`);
        lines.push(`${name}_count${labelText(s.labels)} ${goFloat(total)}`);
      }
    }
    return `${lines.join('\n')}\n`;
  }
}
