import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HistogramSummary, KubeletMetricsSummary } from '../../../../src/core/parse/kubeletEndpointTypes';
import { KubeletMetricsError, histogramDelta, histogramQuantile, summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { PrometheusTextError } from '../../../../src/core/parse/prometheusText';

const metrics = (phase: string): KubeletMetricsSummary =>
  summarizeKubeletMetrics(readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/metrics-${phase}.txt`, import.meta.url), 'utf8'));

function relist(m: KubeletMetricsSummary): HistogramSummary {
  if (m.plegRelistDuration === undefined) throw new Error('no relist histogram');
  return m.plegRelistDuration;
}

// fault-times.json of the recording.
const SIGSTOP_EPOCH = 1795316444.2446399;
const SIGCONT_EPOCH = 1795316744.3412013;

describe('summarizeKubeletMetrics on the real kubelet 1.32 recording', () => {
  it('T+180 s: last seen frozen at the last good relist, two list_podsandbox errors', () => {
    const m = metrics('stopped-T+180s');
    expect(m.nodeName).toBe('pleg-node');
    expect(m.plegLastSeenSeconds).toBe(1795316443);
    expect(m.runtimeOperations['list_podsandbox']).toMatchObject({ total: 140, errors: 2 });
    expect(m.runtimeOperations['list_podsandbox']?.duration).toMatchObject({ count: 140, sum: 240.092771262 });
    expect(m.runtimeOperations['podsandbox_status']?.errors).toBeUndefined();
    expect(m.runningPods).toBe(4);
    expect(m.runningContainers).toEqual({ running: 5 });
    expect(m.plegDiscardEvents).toBe(0);
    expect(m.eventedPleg).toEqual({ connectionErrors: 0, connectionSuccesses: 0 });
    expect(m.legacyNames).toBe(false);
    expect(m.sampleCount).toBe(1074);
    // The freeze began ≈1 s after the relist that last_seen records.
    expect(SIGSTOP_EPOCH - (m.plegLastSeenSeconds ?? 0)).toBeGreaterThan(0);
    expect(SIGSTOP_EPOCH - (m.plegLastSeenSeconds ?? 0)).toBeLessThan(2);
  });

  it('reads all 15 buckets of the runtime operation histograms and the 12 of the relist one', () => {
    const m = metrics('healthy');
    expect(m.runtimeOperations['list_podsandbox']?.duration?.buckets.map((b) => b.le)).toEqual([
      0.005, 0.0125, 0.03125, 0.078125, 0.1953125, 0.48828125, 1.220703125, 3.0517578125, 7.62939453125, 19.073486328125, 47.6837158203125,
      119.20928955078125, 298.0232238769531, 745.0580596923828, Infinity,
    ]);
    expect(relist(m).buckets.map((b) => b.le)).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, Infinity]);
  });

  it('the relist histogram gains one ≈120 s sample per failed attempt; a hanging relist is not in it', () => {
    const phases = ['healthy-end', 'stopped-T+030s', 'stopped-T+060s', 'stopped-T+090s', 'stopped-T+120s', 'stopped-T+240s', 'stopped-T+270s', 'stopped-final'];
    const counts = phases.map((p) => relist(metrics(p)).count);
    expect(counts).toEqual([87, 87, 87, 87, 88, 88, 89, 89]);

    const first = histogramDelta(relist(metrics('stopped-T+120s')), relist(metrics('healthy-end')));
    expect(first?.count).toBe(1);
    expect(first?.sum).toBeCloseTo(120.0006, 3);
    // The one new sample lies beyond the highest finite bound (10 s).
    expect(first?.buckets.map((b) => b.count)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);

    const second = histogramDelta(relist(metrics('stopped-final')), relist(metrics('stopped-T+240s')));
    expect(second?.count).toBe(1);
    expect(second?.sum).toBeCloseTo(120.0013, 3);
  });

  it('after SIGCONT the relist in flight completes and last seen moves past the resume', () => {
    const frozen = metrics('stopped-final');
    const recovered = metrics('recovered-C+005s');
    expect(recovered.plegLastSeenSeconds).toBeGreaterThan(SIGCONT_EPOCH);
    const delta = histogramDelta(relist(recovered), relist(frozen));
    // The third attempt started ≈ +243 s and ended at the resume (+300 s): one ≈58 s sample, then fast ones.
    expect(delta?.count).toBe(6);
    expect(delta?.sum).toBeGreaterThan(57);
    expect(delta?.sum).toBeLessThan(59);
    // Cumulative buckets: exactly one of the six lies above 10 s.
    expect((delta?.buckets.at(-1)?.count ?? 0) - (delta?.buckets.at(-2)?.count ?? 0)).toBe(1);
  });

  it('counts runtime errors rising between scrapes for the operations the README lists', () => {
    const errors = (phase: string): Record<string, number | undefined> =>
      Object.fromEntries(Object.entries(metrics(phase).runtimeOperations).flatMap(([op, v]) => (v.errors === undefined ? [] : [[op, v.errors]])));
    expect(errors('healthy')).toEqual({});
    expect(errors('stopped-T+120s')['list_podsandbox']).toBe(1);
    expect(errors('stopped-T+150s')['list_podsandbox']).toBe(2);
    expect(errors('stopped-final')).toEqual({ exec_sync: 2, list_containers: 2, list_images: 2, list_podsandbox: 3, status: 2, version: 3 });
  });

  it('relist p99: fast when healthy, the highest finite bound (10 s) once a 120 s sample lands in +Inf', () => {
    expect(histogramQuantile(relist(metrics('healthy')), 0.99)).toBeLessThan(0.01);
    expect(histogramQuantile(relist(metrics('stopped-T+120s')), 0.99)).toBe(10);
    // Over the freeze's interval alone every relist took 120 s.
    const delta = histogramDelta(relist(metrics('stopped-T+120s')), relist(metrics('stopped-T+090s')));
    expect(delta === undefined ? undefined : histogramQuantile(delta, 0.5)).toBe(10);
  });

  const PHASES = readdirSync(new URL('../../../fixtures/real-kubelet-1.32/', import.meta.url))
    .filter((f) => /^metrics-.+\.txt$/.test(f) && f !== 'metrics-requests.txt')
    .map((f) => f.slice('metrics-'.length, -'.txt'.length));

  it('has all 17 recorded /metrics bodies', () => {
    expect(PHASES).toHaveLength(17);
  });

  it.each(PHASES)('%s summarizes: node, last seen, relist histogram, CRI operations', (phase) => {
    const m = metrics(phase);
    expect(m.nodeName).toBe('pleg-node');
    expect(m.plegLastSeenSeconds).toBeGreaterThan(1_795_316_380);
    expect(relist(m).buckets).toHaveLength(12);
    expect(relist(m).buckets.at(-1)?.count).toBe(relist(m).count);
    expect(m.runtimeOperations['list_containers']?.total).toBeGreaterThan(0);
    expect(m.runningPods).toBe(4);
    // last_seen only stands still while the runtime is frozen.
    if (phase.startsWith('stopped-')) expect(m.plegLastSeenSeconds).toBe(1795316443);
  });
});

describe('summarizeKubeletMetrics across versions', () => {
  const legacy = [
    '# TYPE kubelet_pleg_relist_latency_microseconds summary',
    'kubelet_pleg_relist_latency_microseconds{quantile="0.5"} 5000',
    'kubelet_pleg_relist_latency_microseconds{quantile="0.99"} 250000',
    'kubelet_pleg_relist_latency_microseconds_sum 2.5e+06',
    'kubelet_pleg_relist_latency_microseconds_count 100',
    '# TYPE kubelet_pleg_relist_interval_microseconds summary',
    'kubelet_pleg_relist_interval_microseconds{quantile="0.5"} 1.0e+06',
    'kubelet_pleg_relist_interval_microseconds_sum 1.01e+08',
    'kubelet_pleg_relist_interval_microseconds_count 100',
    '# TYPE kubelet_runtime_operations counter',
    'kubelet_runtime_operations{operation_type="list_podsandbox"} 100',
    '# TYPE kubelet_runtime_operations_errors counter',
    'kubelet_runtime_operations_errors{operation_type="list_podsandbox"} 4',
    '# TYPE kubelet_runtime_operations_latency_microseconds summary',
    'kubelet_runtime_operations_latency_microseconds{operation_type="list_podsandbox",quantile="0.9"} 3000',
    'kubelet_runtime_operations_latency_microseconds_sum{operation_type="list_podsandbox"} 300000',
    'kubelet_runtime_operations_latency_microseconds_count{operation_type="list_podsandbox"} 100',
    '',
  ].join('\n');

  it('≤1.13: converts the microsecond summaries to seconds, keeps count and sum, no buckets', () => {
    const m = summarizeKubeletMetrics(legacy);
    expect(m.legacyNames).toBe(true);
    expect(m.plegRelistDuration).toEqual({ count: 100, sum: 2.5, buckets: [] });
    expect(m.plegRelistInterval).toEqual({ count: 100, sum: 101, buckets: [] });
    expect(m.runtimeOperations['list_podsandbox']).toEqual({ total: 100, errors: 4, duration: { count: 100, sum: 0.3, buckets: [] } });
    expect(histogramQuantile(m.plegRelistDuration ?? { count: 0, sum: 0, buckets: [] }, 0.99)).toBeUndefined();
  });

  it('1.15–1.17: when old and new names are both exposed the new ones win', () => {
    const both = `${legacy}# TYPE kubelet_runtime_operations_total counter\nkubelet_runtime_operations_total{operation_type="list_podsandbox"} 7\n# TYPE kubelet_pleg_relist_duration_seconds histogram\nkubelet_pleg_relist_duration_seconds_bucket{le="1"} 3\nkubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} 3\nkubelet_pleg_relist_duration_seconds_sum 0.3\nkubelet_pleg_relist_duration_seconds_count 3\n`;
    const m = summarizeKubeletMetrics(both);
    expect(m.legacyNames).toBe(false);
    expect(m.runtimeOperations['list_podsandbox']?.total).toBe(7);
    expect(m.plegRelistDuration).toEqual({ count: 3, sum: 0.3, buckets: [{ le: 1, count: 3 }, { le: Infinity, count: 3 }] });
  });

  it('1.17–1.18: kubelet_running_pod_count and kubelet_running_container_count', () => {
    const m = summarizeKubeletMetrics(
      '# TYPE kubelet_running_pod_count gauge\nkubelet_running_pod_count 12\n# TYPE kubelet_running_container_count gauge\nkubelet_running_container_count{container_state="running"} 20\nkubelet_running_container_count{container_state="exited"} 1100\n',
    );
    expect(m.runningPods).toBe(12);
    expect(m.runningContainers).toEqual({ running: 20, exited: 1100 });
  });

  it('1.27+: evented PLEG counters, even when only one is exposed', () => {
    const m = summarizeKubeletMetrics('# TYPE kubelet_evented_pleg_connection_error_count counter\nkubelet_evented_pleg_connection_error_count 6\n');
    expect(m.eventedPleg).toEqual({ connectionErrors: 6, connectionSuccesses: 0 });
    expect(m.plegRelistDuration).toBeUndefined();
    expect(m.runtimeOperations).toEqual({});
  });

  it('rejects a body with no kubelet metric, naming what it found', () => {
    expect(() => summarizeKubeletMetrics('# TYPE go_goroutines gauge\ngo_goroutines 12\n')).toThrow(KubeletMetricsError);
    expect(() => summarizeKubeletMetrics('')).toThrow(/no kubelet_\* metric among 0 metric families/);
  });

  it('passes on the parser error, with its line, for a body that is not Prometheus text', () => {
    expect(() => summarizeKubeletMetrics('kubelet_running_pods 3\n<html>oops</html>\n')).toThrow(PrometheusTextError);
    expect(() => summarizeKubeletMetrics('kubelet_running_pods 3\n<html>oops</html>\n')).toThrow(/line 2/);
  });

  it('rejects a histogram series without its _count, or without a +Inf bucket', () => {
    expect(() => summarizeKubeletMetrics('# TYPE kubelet_pleg_relist_duration_seconds histogram\nkubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} 1\nkubelet_pleg_relist_duration_seconds_sum 1\n')).toThrow(
      /kubelet_pleg_relist_duration_seconds: a series lacks its _count sample/,
    );
    expect(() =>
      summarizeKubeletMetrics(
        '# TYPE kubelet_pleg_relist_duration_seconds histogram\nkubelet_pleg_relist_duration_seconds_bucket{le="1"} 1\nkubelet_pleg_relist_duration_seconds_sum 1\nkubelet_pleg_relist_duration_seconds_count 1\n',
      ),
    ).toThrow(/no le="\+Inf" bucket/);
  });

  it('rejects a PLEG histogram exposed under another type', () => {
    expect(() => summarizeKubeletMetrics('# TYPE kubelet_pleg_relist_duration_seconds gauge\nkubelet_pleg_relist_duration_seconds 1\n')).toThrow(/is a gauge, expected a histogram or summary/);
  });
});

const h = (pairs: [number, number][], sum = 0): HistogramSummary => ({ count: pairs.at(-1)?.[1] ?? 0, sum, buckets: pairs.map(([le, count]) => ({ le, count })) });

describe('histogramQuantile (Prometheus histogram_quantile)', () => {
  const hist = h([
    [1, 10],
    [2, 20],
    [4, 20],
    [Infinity, 20],
  ]);

  it('interpolates linearly inside the bucket that holds the rank', () => {
    expect(histogramQuantile(hist, 0.5)).toBe(1);
    expect(histogramQuantile(hist, 0.25)).toBe(0.5);
    expect(histogramQuantile(hist, 0.75)).toBe(1.5);
    expect(histogramQuantile(hist, 1)).toBe(2);
    expect(histogramQuantile(hist, 0)).toBe(0);
  });

  it('gives the highest finite bound for a rank in the +Inf bucket', () => {
    expect(histogramQuantile(h([[1, 1], [5, 2], [Infinity, 10]]), 0.9)).toBe(5);
    expect(histogramQuantile(h([[1, 1], [5, 2], [Infinity, 10]]), 0.15)).toBe(3);
  });

  it('answers ±Inf outside [0, 1] and undefined where Prometheus answers NaN', () => {
    expect(histogramQuantile(hist, -0.1)).toBe(-Infinity);
    expect(histogramQuantile(hist, 1.1)).toBe(Infinity);
    expect(histogramQuantile(hist, NaN)).toBeUndefined();
    expect(histogramQuantile({ count: 5, sum: 1, buckets: [] }, 0.5)).toBeUndefined();
    expect(histogramQuantile(h([[Infinity, 5]]), 0.5)).toBeUndefined();
    expect(histogramQuantile(h([[1, 5], [2, 5]]), 0.5)).toBeUndefined();
    expect(histogramQuantile(h([[1, 0], [Infinity, 0]]), 0.5)).toBeUndefined();
  });

  it('starts the lowest bucket at 0, or returns its bound when that is ≤ 0', () => {
    expect(histogramQuantile(h([[10, 4], [Infinity, 4]]), 0.5)).toBe(5);
    expect(histogramQuantile(h([[-1, 4], [0, 8], [Infinity, 8]]), 0.25)).toBe(-1);
    expect(histogramQuantile(h([[-1, 4], [0, 8], [Infinity, 8]]), 0.75)).toBe(-0.5);
  });

  it('sorts unsorted buckets and forces cumulative counts monotonic', () => {
    expect(histogramQuantile({ count: 20, sum: 0, buckets: [{ le: Infinity, count: 20 }, { le: 2, count: 20 }, { le: 1, count: 10 }] }, 0.75)).toBe(1.5);
    // A dip (7 after 10) is read as 10, as Prometheus' ensureMonotonic does.
    expect(histogramQuantile(h([[1, 10], [2, 7], [3, 20], [Infinity, 20]]), 0.75)).toBe(2.5);
  });

  it('does not modify its input', () => {
    const input = h([[2, 20], [1, 25], [Infinity, 30]]);
    const copy = structuredClone(input);
    histogramQuantile(input, 0.5);
    expect(input).toEqual(copy);
  });
});

describe('histogramDelta', () => {
  const earlier = h([[1, 5], [Infinity, 6]], 10);
  const later = h([[1, 7], [Infinity, 9]], 130);

  it('subtracts counts, sum and every bucket', () => {
    expect(histogramDelta(later, earlier)).toEqual({ count: 3, sum: 120, buckets: [{ le: 1, count: 2 }, { le: Infinity, count: 3 }] });
    expect(histogramDelta(later, later)).toEqual({ count: 0, sum: 0, buckets: [{ le: 1, count: 0 }, { le: Infinity, count: 0 }] });
  });

  it('is undefined when a counter went down (a kubelet restart)', () => {
    expect(histogramDelta(earlier, later)).toBeUndefined();
    expect(histogramDelta(h([[1, 4], [Infinity, 9]], 130), earlier)).toBeUndefined();
    expect(histogramDelta({ ...later, sum: 5 }, earlier)).toBeUndefined();
  });

  it('is undefined when the bucket layouts differ', () => {
    expect(histogramDelta(h([[2, 7], [Infinity, 9]], 130), earlier)).toBeUndefined();
    expect(histogramDelta(h([[1, 7], [2, 8], [Infinity, 9]], 130), earlier)).toBeUndefined();
  });
});

describe('summarizeKubeletMetrics without TYPE lines', () => {
  it('puts an untyped histogram back together from its _bucket, _sum and _count samples', () => {
    const m = summarizeKubeletMetrics(
      [
        'kubelet_pleg_relist_duration_seconds_bucket{le="1"} 3',
        'kubelet_pleg_relist_duration_seconds_bucket{le="+Inf"} 4',
        'kubelet_pleg_relist_duration_seconds_sum 121.5',
        'kubelet_pleg_relist_duration_seconds_count 4',
        'kubelet_runtime_operations_duration_seconds_bucket{operation_type="list_podsandbox",le="+Inf"} 2',
        'kubelet_runtime_operations_duration_seconds_sum{operation_type="list_podsandbox"} 0.5',
        'kubelet_runtime_operations_duration_seconds_count{operation_type="list_podsandbox"} 2',
        'kubelet_pleg_last_seen_seconds 1.795316443e+09',
        '',
      ].join('\n'),
    );
    expect(m.plegRelistDuration).toEqual({ count: 4, sum: 121.5, buckets: [{ le: 1, count: 3 }, { le: Infinity, count: 4 }] });
    expect(m.runtimeOperations['list_podsandbox']?.duration).toEqual({ count: 2, sum: 0.5, buckets: [{ le: Infinity, count: 2 }] });
    expect(m.plegLastSeenSeconds).toBe(1795316443);
  });

  it('and an untyped legacy summary from its _sum and _count', () => {
    const m = summarizeKubeletMetrics('kubelet_pleg_relist_latency_microseconds_sum 3e6\nkubelet_pleg_relist_latency_microseconds_count 30\n');
    expect(m.plegRelistDuration).toEqual({ count: 30, sum: 3, buckets: [] });
    expect(m.legacyNames).toBe(true);
  });
});

describe('summarizeKubeletMetrics on a real kubelet 1.36.2 scrape', () => {
  const m = summarizeKubeletMetrics(readFileSync(new URL('../../../fixtures/real-kubelet-1.36/metrics-containerd2.3.txt', import.meta.url), 'utf8'));

  it('reads the per-pod relist histogram beside the global one', () => {
    expect(m.plegPodRelistDuration).toMatchObject({ count: 4, sum: 0.017060187 });
    expect(m.plegPodRelistDuration?.buckets.slice(0, 2)).toEqual([
      { le: 0.005, count: 3 },
      { le: 0.01, count: 4 },
    ]);
    expect(m.plegPodRelistDuration?.buckets.at(-1)).toEqual({ le: Infinity, count: 4 });
    expect(m.plegRelistDuration).toMatchObject({ count: 5, sum: 0.010123404 });
  });

  it('reads the feature gates from kubernetes_feature_enabled', () => {
    expect(m.featureGates?.['PLEGOnDemandRelist']).toBe(true);
    expect(m.featureGates?.['EventedPLEG']).toBe(false);
    expect(Object.keys(m.featureGates ?? {})).toHaveLength(245);
  });
});

describe('feature gates and the per-pod relist histogram, edge cases', () => {
  it('has neither on a kubelet that exports neither (1.32)', () => {
    const m = metrics('healthy');
    expect(m.plegPodRelistDuration).toBeUndefined();
    expect(m.featureGates?.['PLEGOnDemandRelist']).toBeUndefined();
  });

  it('regroups an untyped per-pod histogram and keeps gate names that look like Object members as data', () => {
    const text = [
      'kubelet_pleg_pod_relist_duration_seconds_bucket{le="1"} 2',
      'kubelet_pleg_pod_relist_duration_seconds_bucket{le="+Inf"} 3',
      'kubelet_pleg_pod_relist_duration_seconds_sum 42.5',
      'kubelet_pleg_pod_relist_duration_seconds_count 3',
      'kubernetes_feature_enabled{name="__proto__",stage=""} 1',
      'kubernetes_feature_enabled{name="PLEGOnDemandRelist",stage="BETA"} 0',
      'kubernetes_feature_enabled{stage="BETA"} 1',
      '',
    ].join('\n');
    const m = summarizeKubeletMetrics(text);
    expect(m.plegPodRelistDuration).toEqual({ count: 3, sum: 42.5, buckets: [{ le: 1, count: 2 }, { le: Infinity, count: 3 }] });
    expect(Object.getOwnPropertyNames(m.featureGates)).toEqual(['__proto__', 'PLEGOnDemandRelist']);
    expect(m.featureGates?.['PLEGOnDemandRelist']).toBe(false);
  });
});
