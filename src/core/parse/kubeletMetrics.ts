// Reads the kubelet's /metrics into the few figures PLEG diagnosis needs (docs/kubelet-metrics.md), across the
// metric renames: ≤1.13 `kubelet_runtime_operations` + `…_latency_microseconds` summaries, 1.14+ `_seconds`
// histograms and `_total` counters, 1.17–1.18 `kubelet_running_pod_count`. When both old and new names are
// exposed (the 1.15–1.17 deprecation window) the new ones win.

import type { HistogramSummary, KubeletMetricsSummary, MetricsServedFacts, RuntimeOperationMetrics } from './kubeletEndpointTypes';
import type { MetricFamily, Sample } from './prometheusText';
import { parsePrometheusFloat, parsePrometheusText } from './prometheusText';

export class KubeletMetricsError extends Error {
  override readonly name = 'KubeletMetricsError';
}

const MICROSECONDS = 1e-6;

const LEGACY_PLEG_NAMES = ['kubelet_pleg_relist_latency_microseconds', 'kubelet_pleg_relist_interval_microseconds'];
const MODERN_NAMES = [
  'kubelet_pleg_relist_duration_seconds',
  'kubelet_pleg_relist_interval_seconds',
  'kubelet_runtime_operations_total',
  'kubelet_runtime_operations_errors_total',
  'kubelet_runtime_operations_duration_seconds',
];

/** The histograms and summaries read here, whose parts are regrouped when a body omits their TYPE line. */
const HISTOGRAM_NAMES = [
  'kubelet_pleg_relist_duration_seconds',
  'kubelet_pleg_pod_relist_duration_seconds',
  'kubelet_pleg_relist_latency_microseconds',
  'kubelet_pleg_relist_interval_seconds',
  'kubelet_pleg_relist_interval_microseconds',
  'kubelet_runtime_operations_duration_seconds',
  'kubelet_runtime_operations_latency_microseconds',
];

/**
 * Without `# TYPE x histogram` the parser cannot know that `x_bucket`, `x_sum` and `x_count` belong
 * together and leaves them as three untyped families; for the names we read, put them back together.
 */
function adoptUntypedParts(families: Map<string, MetricFamily>, name: string): void {
  if (families.has(name)) return;
  const parts = ['_bucket', '_sum', '_count'].map((suffix) => families.get(name + suffix));
  if (parts.some((p) => p !== undefined && p.type !== 'untyped') || parts[2] === undefined) return;
  const samples = parts.flatMap((p) => p?.samples ?? []);
  families.set(name, { name, type: parts[0] === undefined ? 'summary' : 'histogram', samples });
}

/** Parses a /metrics body; throws PrometheusTextError (bad text) or KubeletMetricsError (not a kubelet's). */
export function summarizeKubeletMetrics(text: string): KubeletMetricsSummary {
  const families = new Map<string, MetricFamily>();
  let sampleCount = 0;
  for (const family of parsePrometheusText(text)) {
    families.set(family.name, family);
    sampleCount += family.samples.length;
  }
  for (const name of HISTOGRAM_NAMES) adoptUntypedParts(families, name);
  if (![...families.keys()].some((name) => name.startsWith('kubelet_'))) {
    throw new KubeletMetricsError(`not a kubelet /metrics body: no kubelet_* metric among ${families.size} metric families`);
  }
  const summary: KubeletMetricsSummary = { runtimeOperations: {}, legacyNames: false, sampleCount };

  const nodeName = families.get('kubelet_node_name')?.samples.find((s) => s.labels['node'] !== undefined)?.labels['node'];
  if (nodeName !== undefined) summary.nodeName = nodeName;
  const lastSeen = scalar(families.get('kubelet_pleg_last_seen_seconds'));
  if (lastSeen !== undefined) summary.plegLastSeenSeconds = lastSeen;

  const relist = histogramOf(families.get('kubelet_pleg_relist_duration_seconds'), 1) ?? histogramOf(families.get('kubelet_pleg_relist_latency_microseconds'), MICROSECONDS);
  if (relist !== undefined) summary.plegRelistDuration = relist;
  const interval =
    histogramOf(families.get('kubelet_pleg_relist_interval_seconds'), 1) ?? histogramOf(families.get('kubelet_pleg_relist_interval_microseconds'), MICROSECONDS);
  if (interval !== undefined) summary.plegRelistInterval = interval;
  const podRelist = histogramOf(families.get('kubelet_pleg_pod_relist_duration_seconds'), 1);
  if (podRelist !== undefined) summary.plegPodRelistDuration = podRelist;
  const gates = featureGates(families.get('kubernetes_feature_enabled'));
  if (gates !== undefined) summary.featureGates = gates;

  const discards = scalar(families.get('kubelet_pleg_discard_events'));
  if (discards !== undefined) summary.plegDiscardEvents = discards;
  const eventedErrors = scalar(families.get('kubelet_evented_pleg_connection_error_count'));
  const eventedSuccesses = scalar(families.get('kubelet_evented_pleg_connection_success_count'));
  if (eventedErrors !== undefined || eventedSuccesses !== undefined) {
    summary.eventedPleg = { connectionErrors: eventedErrors ?? 0, connectionSuccesses: eventedSuccesses ?? 0 };
  }

  const pods = scalar(families.get('kubelet_running_pods')) ?? scalar(families.get('kubelet_running_pod_count'));
  if (pods !== undefined) summary.runningPods = pods;
  const containers = families.get('kubelet_running_containers') ?? families.get('kubelet_running_container_count');
  if (containers !== undefined && containers.samples.length > 0) {
    const byState: Record<string, number> = {};
    // Before container_state existed the gauge counted running containers only.
    for (const s of containers.samples) byState[s.labels['container_state'] ?? 'running'] = s.value;
    summary.runningContainers = byState;
  }

  const served = servedFacts(families);
  if (served !== undefined) summary.served = served;

  const legacyOps = readRuntimeOperations(summary.runtimeOperations, families);
  const legacy = legacyOps || LEGACY_PLEG_NAMES.some((n) => families.has(n));
  summary.legacyNames = legacy && !MODERN_NAMES.some((n) => families.has(n));
  return summary;
}

/** Fills `ops`; returns true when any ≤1.13 runtime-operation name was seen. */
function readRuntimeOperations(ops: Record<string, RuntimeOperationMetrics>, families: Map<string, MetricFamily>): boolean {
  const entry = (type: string): RuntimeOperationMetrics => {
    let e = ops[type];
    if (e === undefined) {
      e = {};
      ops[type] = e;
    }
    return e;
  };
  const counters = (modern: string, old: string, field: 'total' | 'errors'): boolean => {
    const family = families.get(modern) ?? families.get(old);
    if (family === undefined) return false;
    for (const s of family.samples) {
      const type = s.labels['operation_type'];
      if (type !== undefined) entry(type)[field] = s.value;
    }
    return family.name === old;
  };
  let legacy = counters('kubelet_runtime_operations_total', 'kubelet_runtime_operations', 'total');
  legacy = counters('kubelet_runtime_operations_errors_total', 'kubelet_runtime_operations_errors', 'errors') || legacy;
  const durations = families.get('kubelet_runtime_operations_duration_seconds') ?? families.get('kubelet_runtime_operations_latency_microseconds');
  if (durations !== undefined) {
    const isOld = durations.name === 'kubelet_runtime_operations_latency_microseconds';
    legacy ||= isOld;
    for (const [type, samples] of groupBy(durations.samples, 'operation_type')) {
      entry(type).duration = histogramFromSamples(durations, samples, isOld ? MICROSECONDS : 1);
    }
  }
  return legacy;
}

/** `kubernetes_feature_enabled{name="X",stage="BETA"} 1|0` → {X: true|false}; series without a name are skipped. */
function featureGates(family: MetricFamily | undefined): Record<string, boolean> | undefined {
  if (family === undefined) return undefined;
  const gates: [string, boolean][] = [];
  for (const s of family.samples) {
    const name = s.labels['name'];
    if (name !== undefined && name !== '') gates.push([name, s.value === 1]);
  }
  // fromEntries defines own properties, so a gate named like an Object.prototype member stays data.
  return Object.fromEntries(gates);
}

function groupBy(samples: Sample[], label: string): Map<string, Sample[]> {
  const groups = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = s.labels[label];
    if (key === undefined) continue;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [s]);
    else group.push(s);
  }
  return groups;
}

/** The value of a one-series gauge or counter (the first series when there are several). */
/**
 * The process figures that bound when the body was served. `kubelet_http_requests_total` is counted by the
 * kubelet's Server.ServeHTTP (pkg/kubelet/server/server.go) when a request arrives, before it is handled,
 * so the body of the Nth /metrics request since the start reads N.
 */
function servedFacts(families: Map<string, MetricFamily>): MetricsServedFacts | undefined {
  const served: MetricsServedFacts = {};
  const lastGc = scalar(families.get('go_memstats_last_gc_time_seconds'));
  if (lastGc !== undefined && lastGc > 0) served.lastGcSeconds = lastGc;
  const start = scalar(families.get('process_start_time_seconds'));
  if (start !== undefined && start > 0) served.processStartSeconds = start;
  const gogc = scalar(families.get('go_gc_gogc_percent'));
  if (gogc !== undefined) served.gogcPercent = gogc;
  const requests = families.get('kubelet_http_requests_total') ?? families.get('kubelet_http_requests');
  const metricsSamples = requests?.samples.filter((s) => s.labels['path'] === 'metrics' && s.labels['method'] === 'GET') ?? [];
  if (metricsSamples.length > 0) served.metricsRequests = metricsSamples.reduce((sum, s) => sum + s.value, 0);
  return Object.keys(served).length > 0 ? served : undefined;
}

function scalar(family: MetricFamily | undefined): number | undefined {
  return family?.samples.find((s) => s.name === family.name)?.value;
}

/** A histogram or summary family with a single series (the PLEG ones are unlabelled). */
function histogramOf(family: MetricFamily | undefined, scale: number): HistogramSummary | undefined {
  if (family === undefined || family.samples.length === 0) return undefined;
  return histogramFromSamples(family, family.samples, scale);
}

/**
 * One series' `_bucket`/`_sum`/`_count` samples (or a summary's `_sum`/`_count`; its quantiles are
 * dropped) as a HistogramSummary, `_sum` and the bounds scaled into seconds.
 */
function histogramFromSamples(family: MetricFamily, samples: Sample[], scale: number): HistogramSummary {
  if (family.type !== 'histogram' && family.type !== 'summary') {
    throw new KubeletMetricsError(`${family.name} is a ${family.type}, expected a histogram or summary`);
  }
  let count: number | undefined;
  let sum: number | undefined;
  const buckets: { le: number; count: number }[] = [];
  for (const s of samples) {
    if (s.name === `${family.name}_count`) count = s.value;
    else if (s.name === `${family.name}_sum`) sum = s.value * scale;
    else if (s.name === `${family.name}_bucket`) {
      // The parser has checked that `le` is a number.
      const le = parsePrometheusFloat(s.labels['le'] ?? '') ?? NaN;
      buckets.push({ le: le * scale, count: s.value });
    }
  }
  if (count === undefined || sum === undefined) {
    throw new KubeletMetricsError(`${family.name}: a series lacks its ${count === undefined ? '_count' : '_sum'} sample`);
  }
  buckets.sort((a, b) => a.le - b.le);
  if (family.type === 'histogram' && buckets.at(-1)?.le !== Infinity) {
    throw new KubeletMetricsError(`${family.name}: a series has no le="+Inf" bucket`);
  }
  return { count, sum, buckets };
}

/**
 * `histogram_quantile(q, h)` as Prometheus computes it: find the bucket holding rank q·count, interpolate
 * linearly inside it (the lowest bucket starts at 0 unless its bound is ≤ 0); a rank in the +Inf bucket
 * gives the highest finite bound. Buckets whose cumulative counts dip are forced monotonic first.
 * q < 0 → -Inf and q > 1 → +Inf, as Prometheus does. Undefined where Prometheus answers NaN: no
 * observations, no +Inf bucket, fewer than two buckets (a legacy summary has none), or q NaN.
 * Two corners differ, so the result stays monotone in q: q = 0 with an empty lowest bucket gives that
 * bucket's lower edge, and a bucket above an le="-Inf" one gives its own bound (Prometheus: NaN for both).
 */
export function histogramQuantile(h: HistogramSummary, q: number): number | undefined {
  if (Number.isNaN(q)) return undefined;
  if (q < 0) return -Infinity;
  if (q > 1) return Infinity;
  const sorted = [...h.buckets].sort((a, b) => a.le - b.le);
  const buckets: { le: number; count: number }[] = [];
  for (const b of sorted) {
    if (Number.isNaN(b.le)) return undefined;
    const last = buckets.at(-1);
    if (last !== undefined && last.le === b.le) last.count += b.count;
    else buckets.push({ le: b.le, count: b.count });
  }
  const top = buckets.at(-1);
  if (top === undefined || top.le !== Infinity || buckets.length < 2) return undefined;
  let runningMax = -Infinity;
  for (const b of buckets) {
    if (Number.isNaN(b.count)) return undefined;
    runningMax = Math.max(runningMax, b.count);
    b.count = runningMax;
  }
  const observations = top.count;
  if (!(observations > 0)) return undefined;
  let rank = q * observations;
  let index = 0;
  // Binary search over all but the +Inf bucket, like Go's sort.Search.
  let hi = buckets.length - 1;
  while (index < hi) {
    const mid = (index + hi) >>> 1;
    if ((buckets[mid]?.count ?? 0) >= rank) hi = mid;
    else index = mid + 1;
  }
  if (index === buckets.length - 1) return buckets[buckets.length - 2]?.le;
  const bucket = buckets[index];
  if (bucket === undefined) return undefined;
  if (index === 0 && bucket.le <= 0) return bucket.le;
  let start = 0;
  let count = bucket.count;
  const previous = index > 0 ? buckets[index - 1] : undefined;
  if (previous !== undefined) {
    start = previous.le;
    count -= previous.count;
    rank -= previous.count;
  }
  if (count === 0) return start;
  // A -Inf lower edge would make Prometheus answer NaN; the bucket's own bound is the only finite answer.
  if (start === -Infinity) return bucket.le;
  // Rounding may overshoot the bound by an ulp, which would put this above the next bucket's answers.
  return Math.min(bucket.le, start + (bucket.le - start) * (rank / count));
}

/**
 * What a histogram gained between two scrapes of the same series (`later` − `earlier`), so quantiles and
 * means describe only that interval. Undefined when a counter went down (the kubelet restarted) or the
 * bucket layouts differ (a different kubelet build answered).
 */
export function histogramDelta(later: HistogramSummary, earlier: HistogramSummary): HistogramSummary | undefined {
  if (later.count < earlier.count || later.sum < earlier.sum) return undefined;
  if (later.buckets.length !== earlier.buckets.length) return undefined;
  const buckets: { le: number; count: number }[] = [];
  for (let i = 0; i < later.buckets.length; i++) {
    const a = later.buckets[i];
    const b = earlier.buckets[i];
    if (a === undefined || b === undefined || a.le !== b.le || a.count < b.count) return undefined;
    buckets.push({ le: a.le, count: a.count - b.count });
  }
  return { count: later.count - earlier.count, sum: later.sum - earlier.sum, buckets };
}
