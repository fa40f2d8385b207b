// Properties of the kubelet endpoint parsers: they fail only with their own named errors, whatever the
// input; Prometheus text printed from random families parses back to the same families; quantiles are
// monotone in q and stay within the buckets; deltas undo cumulative growth.

import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import type { HistogramSummary } from '../../../src/core/parse/kubeletEndpointTypes';
import { GoroutineDumpError, summarizeGoroutineDump } from '../../../src/core/parse/goroutineDump';
import { HealthzParseError, parseHealthz } from '../../../src/core/parse/healthz';
import { KubeletConfigzError, parseKubeletConfigz } from '../../../src/core/parse/kubeletConfigz';
import { KubeletMetricsError, histogramDelta, histogramQuantile, summarizeKubeletMetrics } from '../../../src/core/parse/kubeletMetrics';
import { formatPrometheusFloat, formatPrometheusText } from '../../../src/core/parse/prometheusFormat';
import type { MetricFamily, MetricType, Sample } from '../../../src/core/parse/prometheusText';
import { PrometheusTextError, parsePrometheusText } from '../../../src/core/parse/prometheusText';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');
// Slices of real bodies, so mutations start from text that is nearly right.
const REAL_TEXTS = [fixture('metrics-stopped-T+180s.txt').slice(40_000, 52_000), fixture('goroutines-stopped-T+210s.txt').slice(0, 12_000), fixture('healthz-healthy.txt'), fixture('configz.json')];

const SYNTAX = [
  '#', ' ', '\t', '\n', '\r', '{', '}', '"', '\\', '=', ',', 'a', '_', ':', '1', '0', '.', 'e', '+', '-', 'Inf', 'NaN', '# HELP ', '# TYPE ', 'histogram',
  'summary', 'counter', 'le', 'quantile', '_bucket', '_sum', '_count', 'kubelet_', 'goroutine 7 ', '[select, 2 minutes]:', '(', ')', '\tf.go:1', 'created by ',
  'ok', '[+]', '[-]', 'failed: ', 'healthz check passed', '{"kubeletconfig":', 'null', 'true', '[', ']', '"2m0s"', 'é', '😀',
];
const syntaxText = fc.string({ unit: fc.constantFrom(...SYNTAX), maxLength: 60 });
const mutatedReal = fc
  .tuple(fc.constantFrom(...REAL_TEXTS), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 4 }), syntaxText), { minLength: 1, maxLength: 6 }))
  .map(([text, edits]) =>
    edits.reduce((t, [at, cut, insert]) => {
      const i = t.length === 0 ? 0 : at % t.length;
      return t.slice(0, i) + insert + t.slice(i + cut);
    }, text),
  );
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), syntaxText, mutatedReal);

function throwsOnly(run: () => unknown, ...allowed: (abstract new (...args: never[]) => Error)[]): void {
  try {
    run();
  } catch (err) {
    if (!allowed.some((cls) => err instanceof cls)) throw new Error(`unexpected ${String(err)}`, { cause: err });
    expect((err as Error).message.length).toBeGreaterThan(0);
  }
}

test.prop([anyText])('parsePrometheusText and summarizeKubeletMetrics throw only their named errors', (text) => {
  throwsOnly(() => parsePrometheusText(text), PrometheusTextError);
  throwsOnly(() => summarizeKubeletMetrics(text), PrometheusTextError, KubeletMetricsError);
});

test.prop([anyText, fc.integer({ min: 100, max: 599 })])('parseHealthz throws only HealthzParseError', (text, status) => {
  throwsOnly(() => parseHealthz(text, status), HealthzParseError);
});

test.prop([anyText])('summarizeGoroutineDump throws only GoroutineDumpError', (text) => {
  throwsOnly(() => summarizeGoroutineDump(text), GoroutineDumpError);
});

const configzJson = fc.oneof(
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify({ kubeletconfig: v })),
  fc
    .record(
      {
        runtimeRequestTimeout: fc.oneof(fc.string(), fc.constantFrom('2m0s', '4m30.5s', '-1s', '1.5h', '9999999999h'), fc.jsonValue()),
        featureGates: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.boolean(), fc.jsonValue())), fc.jsonValue()),
        maxPods: fc.jsonValue(),
        syncFrequency: fc.oneof(fc.string(), fc.jsonValue()),
        enableProfilingHandler: fc.jsonValue(),
      },
      { requiredKeys: [] },
    )
    .map((c) => JSON.stringify({ kubeletconfig: c })),
);
test.prop([fc.oneof(anyText, configzJson)])('parseKubeletConfigz throws only KubeletConfigzError', (text) => {
  throwsOnly(() => parseKubeletConfigz(text), KubeletConfigzError);
});

// Random metric families. Every family name ends in `_f<index>`, so no family's name can be another's
// `_bucket`/`_sum`/`_count` sample name.
const labelName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,6}$/).filter((n) => n !== 'le' && n !== 'quantile');
const labelValue = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '\\', '"', '\n', '\r', '\t', '{', '}', ',', '=', '#', 'é', '😀'), maxLength: 8 });
const labelSet = fc.uniqueArray(fc.tuple(labelName, labelValue), { selector: ([n]) => n, maxLength: 3 });
const value = fc.double();
const timestamp = fc.option(fc.integer({ min: -1e12, max: 1e13 }), { nil: undefined });
const help = fc.option(
  fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\\', '\n', '"', 'é', '\t'), maxLength: 12 }).filter((h) => !h.startsWith(' ') && !h.startsWith('\t')),
  { nil: undefined },
);

function sample(name: string, labels: [string, string][], v: number, ts: number | undefined): Sample {
  const s: Sample = { name, labels: Object.fromEntries(labels), value: v };
  if (ts !== undefined) s.timestampMs = ts;
  return s;
}

const familyShape = fc.record({
  stem: fc.stringMatching(/^[a-zA-Z_:][a-zA-Z0-9_:]{0,8}$/),
  type: fc.constantFrom<MetricType>('counter', 'gauge', 'histogram', 'summary', 'untyped'),
  help,
  series: fc.uniqueArray(labelSet, { selector: (labels) => JSON.stringify([...labels].sort()), maxLength: 3 }),
  bounds: fc.uniqueArray(fc.double({ noNaN: true, noDefaultInfinity: true }).map(formatPrometheusFloat), { minLength: 0, maxLength: 4 }),
  values: fc.array(fc.tuple(value, timestamp), { minLength: 8, maxLength: 8 }),
});

type FamilyShape = typeof familyShape extends fc.Arbitrary<infer T> ? T : never;

function buildFamily(shape: FamilyShape, index: number): MetricFamily {
  const name = `${shape.stem}_f${index}`;
  let k = 0;
  const next = (): [number, number | undefined] => shape.values[k++ % shape.values.length] ?? [0, undefined];
  const samples: Sample[] = [];
  for (const labels of shape.series) {
    if (shape.type === 'histogram' || shape.type === 'summary') {
      const extra = shape.type === 'histogram' ? 'le' : 'quantile';
      const points = shape.type === 'histogram' ? [...shape.bounds.filter((b) => b !== '+Inf'), '+Inf'] : shape.bounds;
      for (const p of points) samples.push(sample(shape.type === 'histogram' ? `${name}_bucket` : name, [...labels, [extra, p]], ...next()));
      samples.push(sample(`${name}_sum`, labels, ...next()), sample(`${name}_count`, labels, ...next()));
    } else samples.push(sample(name, labels, ...next()));
  }
  const family: MetricFamily = { name, type: shape.type, samples };
  if (shape.help !== undefined) family.help = shape.help;
  return family;
}

test.prop([fc.array(familyShape, { maxLength: 6 })])('printing random families and parsing them back gives the same families', (shapes) => {
  const families = shapes.map(buildFamily);
  expect(parsePrometheusText(formatPrometheusText(families))).toEqual(families);
});

// Histograms with arbitrary (possibly duplicate, unsorted) bounds and arbitrary, possibly dipping counts.
const histogram: fc.Arbitrary<HistogramSummary> = fc
  .array(fc.tuple(fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 0.005, 1, 10)), fc.nat({ max: 1000 })), { maxLength: 8 })
  .chain((finite) =>
    fc.tuple(fc.constant(finite), fc.nat({ max: 1000 }), fc.boolean()).map(([pairs, infCount, withInf]) => {
      const buckets = pairs.map(([le, count]) => ({ le, count }));
      if (withInf) buckets.push({ le: Infinity, count: infCount });
      return { count: infCount, sum: 0, buckets };
    }),
  );
const q = fc.double({ min: 0, max: 1, noNaN: true });

test.prop([histogram, q, q])('histogramQuantile is monotone in q and stays within the finite bounds', (h, a, b) => {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  const qlo = histogramQuantile(h, lo);
  const qhi = histogramQuantile(h, hi);
  // Whether there is an answer depends on the histogram, not on q.
  expect(qlo === undefined).toBe(qhi === undefined);
  if (qlo === undefined || qhi === undefined) return;
  expect(qlo).toBeLessThanOrEqual(qhi);
  const finite = h.buckets.map((x) => x.le).filter((le) => le !== Infinity);
  expect(qhi).toBeLessThanOrEqual(Math.max(...finite));
  expect(qlo).toBeGreaterThanOrEqual(Math.min(0, ...finite));
});

test.prop([histogram, fc.double()])('histogramQuantile never throws', (h, anyQ) => {
  const r = histogramQuantile(h, anyQ);
  if (r !== undefined) expect(Number.isNaN(r)).toBe(false);
});

test.prop([
  fc.array(fc.nat({ max: 1000 }), { minLength: 1, maxLength: 6 }),
  fc.array(fc.nat({ max: 1000 }), { minLength: 6, maxLength: 6 }),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
  fc.double({ min: 0, max: 1e6, noNaN: true }),
])('histogramDelta of a histogram that grew gives back the growth; the reverse is a reset', (base, growth, sum, extraSum) => {
  const cumulative = (xs: number[]): number[] => xs.reduce<number[]>((acc, x) => [...acc, (acc.at(-1) ?? 0) + x], []);
  const les = base.map((_, i) => (i === base.length - 1 ? Infinity : i + 1));
  const earlierCounts = cumulative(base);
  const addCounts = cumulative(growth.slice(0, base.length));
  const mk = (counts: number[], s: number): HistogramSummary => ({ count: counts.at(-1) ?? 0, sum: s, buckets: les.map((le, i) => ({ le, count: counts[i] ?? 0 })) });
  const earlier = mk(earlierCounts, sum);
  const later = mk(
    earlierCounts.map((c, i) => c + (addCounts[i] ?? 0)),
    sum + extraSum,
  );
  const delta = histogramDelta(later, earlier);
  expect(delta?.buckets.map((x) => x.count)).toEqual(addCounts);
  expect(delta?.count).toBe(addCounts.at(-1));
  expect(delta?.sum).toBeCloseTo(extraSum, 3);
  if ((addCounts.at(-1) ?? 0) > 0) expect(histogramDelta(earlier, later)).toBeUndefined();
});
