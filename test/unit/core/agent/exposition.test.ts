// The agent's Prometheus text (core/agent/exposition.ts) as expfmt's text parser reads it: HELP/TYPE lines,
// escaped label values and HELP text, the special floats, cumulative histograms ending at +Inf. The real
// reader (promtool check metrics) holds the whole /metrics in test/integration/agent/agent.test.ts.

import { describe, expect, it } from 'vitest';
import { renderExposition } from '../../../../src/core/agent/exposition';
import { formatPrometheusFloat } from '../../../../src/core/parse/prometheusFormat';
import { Histogram } from '../../../../src/core/agent/histogram';

describe('renderExposition', () => {
  it('writes HELP, TYPE and one line per sample, label values and HELP escaped', () => {
    const text = renderExposition([
      { name: 'x_total', help: 'a \\ b\nc', type: 'counter', samples: [{ value: 3 }] },
      { name: 'y', help: 'y', type: 'gauge', samples: [{ labels: { cause: 'a"b\\c\nd' }, value: 1.5 }] },
    ]);
    expect(text).toBe('# HELP x_total a \\\\ b\\nc\n# TYPE x_total counter\nx_total 3\n# HELP y y\n# TYPE y gauge\ny{cause="a\\"b\\\\c\\nd"} 1.5\n');
  });

  it('writes the special floats as expfmt does', () => {
    expect([Infinity, -Infinity, NaN, 0, 0.25, 1e21].map(formatPrometheusFloat)).toEqual(['+Inf', '-Inf', 'NaN', '0', '0.25', '1e+21']);
  });

  it('writes a histogram as cumulative buckets, +Inf, sum and count, with its labels before le', () => {
    const h = new Histogram([0.1, 1, 10]);
    for (const v of [0.05, 0.5, 0.7, 5, 700]) h.observe(v);
    const text = renderExposition([{ name: 'd_seconds', help: 'd', type: 'histogram', samples: [h.snapshot({ rpc: 'ListPodSandbox' })] }]);
    expect(text.split('\n').slice(2, -1)).toEqual([
      'd_seconds_bucket{rpc="ListPodSandbox",le="0.1"} 1',
      'd_seconds_bucket{rpc="ListPodSandbox",le="1"} 3',
      'd_seconds_bucket{rpc="ListPodSandbox",le="10"} 4',
      'd_seconds_bucket{rpc="ListPodSandbox",le="+Inf"} 5',
      'd_seconds_sum{rpc="ListPodSandbox"} 706.25',
      'd_seconds_count{rpc="ListPodSandbox"} 5',
    ]);
  });

  it('refuses names the format cannot carry', () => {
    expect(() => renderExposition([{ name: 'bad-name', help: '', type: 'gauge', samples: [] }])).toThrow(/bad-name/u);
    expect(() => renderExposition([{ name: 'ok', help: '', type: 'gauge', samples: [{ labels: { 'a-b': 'x' }, value: 1 }] }])).toThrow(/a-b/u);
  });
});

describe('Histogram', () => {
  it('refuses bounds that do not ascend', () => {
    expect(() => new Histogram([1, 1])).toThrow(RangeError);
  });

  it('goes up to 600 s by default, past the kubelet\u2019s 10 s', () => {
    const h = new Histogram();
    h.observe(150);
    const snap = h.snapshot();
    expect(snap.buckets.at(-1)?.le).toBe(600);
    expect(snap.buckets.find((b) => b.le === 120)?.count).toBe(0);
    expect(snap.buckets.find((b) => b.le === 180)?.count).toBe(1);
  });
});
