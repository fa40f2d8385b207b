// The Prometheus parser against a reference: random families (counters, gauges, untyped, histograms,
// summaries, old µs-named summaries, label values with every escape) are the expected result, and the text
// handed to the parser writes them the many ways the format allows: labels in any order, blanks around
// `{`, `=`, `,` and the value, a trailing comma, timestamps, CRLF line ends, comments, blank lines, a
// TYPE line after its samples. The scanning parser must read back exactly the families it was given.

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { formatPrometheusFloat } from '../../../../src/core/parse/prometheusFormat';
import type { MetricFamily, MetricType, Sample } from '../../../../src/core/parse/prometheusText';
import { PrometheusTextError, parsePrometheusText } from '../../../../src/core/parse/prometheusText';

const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,6}$/).filter((n) => n !== 'le' && n !== 'quantile');
const labelValue = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\\', '"', '\n', '\r', '\t', '{', '}', ',', '=', '#', 'µ', '😀'), maxLength: 8 });
const labelSet = fc.uniqueArray(fc.tuple(labelName, labelValue), { selector: ([n]) => n, maxLength: 4 });
// Old kubelets (< 1.14) exposed microsecond summaries such as kubelet_pleg_relist_latency_microseconds.
const stem = fc.oneof(
  fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,10}$/),
  fc.constantFrom('kubelet_pleg_relist_latency_microseconds', 'kubelet_runtime_operations_latency_microseconds', 'kubelet_docker_operations_latency_microseconds'),
);
const value = fc.oneof(fc.double(), fc.nat({ max: 1e6 }), fc.constantFrom(0, 1, 88, 2 ** 53, 1795316443));

const familyShape = fc.record({
  stem,
  type: fc.constantFrom<MetricType>('counter', 'gauge', 'histogram', 'summary', 'untyped'),
  help: fc.option(fc.string({ unit: fc.constantFrom('a', ' ', '\\', '\n', 'µ', '"'), maxLength: 10 }).filter((h) => !/^[ \t]/.test(h) && !/[ \t\r]$/.test(h)), { nil: undefined }),
  series: fc.uniqueArray(labelSet, { selector: (labels) => JSON.stringify([...labels].sort()), minLength: 1, maxLength: 3 }),
  bounds: fc.uniqueArray(fc.double({ noNaN: true, noDefaultInfinity: true }).map(formatPrometheusFloat), { maxLength: 4 }),
  values: fc.array(fc.tuple(value, fc.option(fc.integer({ min: -1e12, max: 1e13 }), { nil: undefined })), { minLength: 8, maxLength: 8 }),
});
type FamilyShape = typeof familyShape extends fc.Arbitrary<infer T> ? T : never;

function buildFamily(shape: FamilyShape, index: number): MetricFamily {
  const name = `${shape.stem}_f${index}`;
  let k = 0;
  const next = (): [number, number | undefined] => shape.values[k++ % shape.values.length] ?? [0, undefined];
  const samples: Sample[] = [];
  const add = (n: string, labels: [string, string][]): void => {
    const [v, ts] = next();
    const s: Sample = { name: n, labels: Object.fromEntries(labels), value: v };
    if (ts !== undefined) s.timestampMs = ts;
    samples.push(s);
  };
  for (const labels of shape.series) {
    if (shape.type === 'histogram') {
      for (const le of [...shape.bounds, '+Inf']) add(`${name}_bucket`, [...labels, ['le', le]]);
    } else if (shape.type === 'summary') {
      for (const q of ['0.5', '0.9', '0.99']) add(name, [...labels, ['quantile', q]]);
    }
    if (shape.type === 'histogram' || shape.type === 'summary') {
      add(`${name}_sum`, labels);
      add(`${name}_count`, labels);
    } else add(name, labels);
  }
  const family: MetricFamily = { name, type: shape.type, samples };
  if (shape.help !== undefined) family.help = shape.help;
  return family;
}

/** How one line is written: the random choices the format leaves open. */
const style = fc.record({
  blanks: fc.array(fc.constantFrom('', '', ' ', '\t', '  '), { minLength: 6, maxLength: 6 }),
  shuffle: fc.nat(),
  trailingComma: fc.boolean(),
  emptyBraces: fc.boolean(),
  crlf: fc.boolean(),
  noise: fc.constantFrom('', '', '', '\n', '# a comment\n', '#\n', '   \n', '# HELPING hand\n'),
});
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

const escapeValue = (v: string): string => v.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
const escapeHelp = (h: string): string => h.replace(/[\\\n]/g, (c) => (c === '\n' ? '\\n' : '\\\\'));

function writeSample(s: Sample, st: Style): string {
  const b = (i: number): string => st.blanks[i] ?? '';
  const entries = Object.entries(s.labels);
  // Rotate the labels: the series identity must not depend on their order.
  const rot = entries.length === 0 ? 0 : st.shuffle % entries.length;
  const ordered = [...entries.slice(rot), ...entries.slice(0, rot)];
  let labels = '';
  if (ordered.length > 0) {
    const parts = ordered.map(([k, v]) => `${b(0)}${k}${b(1)}=${b(2)}"${escapeValue(v)}"${b(3)}`);
    labels = `{${parts.join(',')}${st.trailingComma ? `,${b(0)}` : ''}}`;
  } else if (st.emptyBraces) labels = `{${b(0)}}`;
  const ts = s.timestampMs === undefined ? '' : ` ${b(4)}${s.timestampMs}`;
  return `${st.noise}${s.name}${labels}${labels === '' ? ' ' : b(5)} ${formatPrometheusFloat(s.value)}${ts}${b(4)}${st.crlf ? '\r' : ''}\n`;
}

function writeText(families: MetricFamily[], styles: Style[], typeLate: boolean[]): string {
  let text = '';
  let n = 0;
  const nextStyle = (): Style => styles[n++ % styles.length] as Style;
  families.forEach((f, i) => {
    const late = typeLate[i] === true && f.type !== 'histogram' && f.type !== 'summary';
    if (f.help !== undefined) text += `# HELP ${f.name} ${escapeHelp(f.help)}\n`;
    const typeLine = `#${nextStyle().blanks[0] ?? ''} TYPE ${f.name} ${f.type}\n`;
    if (!late) text += typeLine;
    for (const s of f.samples) text += writeSample(s, nextStyle());
    if (late) text += typeLine;
  });
  return text;
}

test.prop([fc.array(familyShape, { maxLength: 6 }), fc.array(style, { minLength: 1, maxLength: 12 }), fc.array(fc.boolean(), { maxLength: 6 })], { numRuns: 1000 })(
  'the parser reads back the reference families from any valid way of writing them',
  (shapes, styles, typeLate) => {
    const families = shapes.map(buildFamily);
    expect(parsePrometheusText(writeText(families, styles, typeLate))).toEqual(families);
  },
);

// 10 MB bodies, adversarial for a scanner: one endless line, an unterminated label value, many escapes,
// many labels on one line (a quadratic duplicate-label check hung here), 2.6 million duplicate lines,
// blanks only, one endless comment. Each must end in a parse or a named error; the generous timeout is a
// hang guard, not a speed goal (that is the benchmark's).
const TEN_MB = 10 * 1024 * 1024;
const HOSTILE: [string, () => string][] = [
  ['one endless value', () => `m ${'1'.repeat(TEN_MB)}\n`],
  ['an unterminated label value', () => `m{a="${'x'.repeat(TEN_MB)}`],
  ['a value of escapes', () => `m{a="${'\\"'.repeat(TEN_MB / 2)}"} 1\n`],
  ['655,360 labels on one line', () => `m{${Array.from({ length: TEN_MB / 16 }, (_, i) => `l${i}="v"`).join(',')}} 1\n`],
  ['the same series on every line', () => 'm 1\n'.repeat(TEN_MB / 4)],
  ['blanks only', () => ' \t'.repeat(TEN_MB / 2)],
  ['one endless comment', () => `${'#'.repeat(TEN_MB)}\n`],
];
describe('10 MB of hostile text', () => {
  it.each(HOSTILE)('%s: parses or fails with a named error, without hanging', (_what, make) => {
    try {
      parsePrometheusText(make());
    } catch (err) {
      expect(err).toBeInstanceOf(PrometheusTextError);
    }
  }, 120_000);
});
