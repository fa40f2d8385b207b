// Everything the checks share, computed once from the evidence: the classification, the Ready condition,
// the kubelet version, the metric deltas between the two scrapes, the age of the last relist, the CRI
// deadline. Checks read this instead of the raw evidence so that each rule is short and all of them agree
// on the same figures.

import { classifyNode } from '../classify/classifyNode';
import type { NodeClassification } from '../classify/types';
import type { KubeEvent } from '../kube/objects';
import type { CriSnapshot, NodeProbeReport } from '../node/nodeSnapshotTypes';
import type {
  GoroutineSummary,
  HealthzReport,
  HistogramSummary,
  KubeletConfigz,
  KubeletMetricsSummary,
} from '../parse/kubeletEndpointTypes';
import { histogramDelta, histogramQuantile } from '../parse/kubeletMetrics';
import { readOnDemandGate, type OnDemandGate } from '../pleg/onDemandGate';
import { parseKubeletVersion, type KubeletVersion } from '../pleg/profiles';
import { plegAgeReading, stalenessDoubts, type PlegAgeReading } from './clock/plegAge';
import type { Fetched, NodeEvidence, NodeSideEvidence } from './evidence';
import type { KubeletLogEvidence } from './kubeletLog';

export const DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS = 120_000;
/** docs/pleg-health.md, row 5: unhealthy only when the last relist started strictly more than this ago. */
export const PLEG_THRESHOLD_SECONDS = 180;

/** One CRI operation type as the two scrapes show it. */
export interface OperationView {
  name: string;
  /** Cumulative errors in the latest scrape. */
  errors?: number;
  /** Errors gained between the scrapes; undefined with one scrape or after a counter reset. */
  errorsDelta?: number;
  totalDelta?: number;
  /** Duration samples of the interval when there were two scrapes, else every sample since kubelet start. */
  duration?: HistogramSummary;
  window: 'interval' | 'sinceStart';
  /** Every sample since kubelet start (latest scrape). */
  cumulative?: HistogramSummary;
  p99Seconds?: number;
}

/** A histogram as a check reads it: the interval between the scrapes when it gained samples, else since start. */
export interface HistogramView {
  histogram: HistogramSummary;
  cumulative: HistogramSummary;
  window: 'interval' | 'sinceStart';
  p99Seconds?: number;
}

export interface CheckContext {
  evidence: NodeEvidence;
  now: Date;
  nodeName: string;
  classification: NodeClassification;
  kubelet?: KubeletVersion;
  /** The latest successful /metrics scrape (the later one when both answered). */
  metrics?: KubeletMetricsSummary;
  earlierMetrics?: KubeletMetricsSummary;
  /** Seconds between the scrapes when both answered. */
  intervalSeconds?: number;
  operations: Map<string, OperationView>;
  /** Relist durations: the interval's samples when there are any, else since kubelet start. */
  relist?: HistogramView;
  /** 1.36+ per-pod (on-demand) relist durations, `kubelet_pleg_pod_relist_duration_seconds`, the same way. */
  podRelist?: HistogramView;
  /**
   * The PLEGOnDemandRelist gate: what the kubelet exports (`kubernetes_feature_enabled`), else its
   * configz, else its version's default; absent for kubelets before 1.36 (no such code) or an unknown one.
   */
  onDemandRelist?: OnDemandGate;
  /** now − kubelet_pleg_last_seen_seconds, when the clock makes it one figure (see plegAge). */
  plegLastSeenAgeSeconds?: number;
  /** The same age as a range, with the clock it was measured against. */
  plegAge?: PlegAgeReading;
  /** Evidence that the relist is running although a derived clock makes the metric stale (plegAge.ts). */
  plegAgeDoubts?: string[];
  /** Discards gained between the scrapes, or undefined. */
  discardDelta?: number;
  runtimeRequestTimeoutMs: number;
  runtimeRequestTimeoutKnown: boolean;
  configz?: KubeletConfigz;
  healthz?: HealthzReport;
  goroutines?: GoroutineSummary;
  events?: KubeEvent[];
  podCount?: number;
  nodeSide?: NodeSideEvidence;
  snapshot?: CriSnapshot;
  probes?: NodeProbeReport;
  /** What the kubelet log says (logSignals.ts reads it for the checks). */
  kubeletLog?: KubeletLogEvidence;
  /** PLEG is unhealthy by the kubelet's Ready message or by the metric age. */
  plegUnhealthy: boolean;
}

/** The value of an ok source; null (a collector bug) reads as absent rather than breaking every check. */
export function okValue<T>(f: Fetched<T> | undefined): T | undefined {
  if (f === undefined || f === null || f.status !== 'ok') return undefined;
  return f.value === null ? undefined : f.value;
}

function finite(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n);
}

function safeQuantile(h: HistogramSummary | undefined, q: number): number | undefined {
  if (h === undefined || !(h.count > 0)) return undefined;
  try {
    const v = histogramQuantile(h, q);
    return finite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

function safeDelta(later: HistogramSummary | undefined, earlier: HistogramSummary | undefined): HistogramSummary | undefined {
  if (later === undefined || earlier === undefined) return undefined;
  try {
    return histogramDelta(later, earlier);
  } catch {
    return undefined;
  }
}

function counterDelta(later: number | undefined, earlier: number | undefined): number | undefined {
  if (!finite(later) || !finite(earlier) || later < earlier) return undefined;
  return later - earlier;
}

function operationViews(latest: KubeletMetricsSummary | undefined, earlier: KubeletMetricsSummary | undefined): Map<string, OperationView> {
  const views = new Map<string, OperationView>();
  const ops = latest?.runtimeOperations;
  if (ops === undefined || ops === null || typeof ops !== 'object') return views;
  for (const [name, op] of Object.entries(ops)) {
    if (op === undefined || op === null) continue;
    const before = earlier?.runtimeOperations?.[name];
    const delta = safeDelta(op.duration, before?.duration);
    const useInterval = earlier !== undefined && delta !== undefined;
    const view: OperationView = { name, window: useInterval ? 'interval' : 'sinceStart' };
    if (finite(op.errors)) view.errors = op.errors;
    if (earlier !== undefined) {
      // An operation type absent from the earlier scrape had zero errors then: a counter appears on first use.
      const errorsDelta = counterDelta(op.errors, before === undefined ? 0 : (before.errors ?? 0));
      if (errorsDelta !== undefined) view.errorsDelta = errorsDelta;
      const totalDelta = counterDelta(op.total, before === undefined ? 0 : before.total);
      if (totalDelta !== undefined) view.totalDelta = totalDelta;
    }
    const duration = useInterval ? delta : op.duration;
    if (duration !== undefined) view.duration = duration;
    if (op.duration !== undefined) view.cumulative = op.duration;
    const p99 = safeQuantile(duration, 0.99);
    if (p99 !== undefined) view.p99Seconds = p99;
    views.set(name, view);
  }
  return views;
}

function histogramView(latest: HistogramSummary | undefined, before: HistogramSummary | undefined, twoScrapes: boolean): HistogramView | undefined {
  if (latest === undefined || latest === null) return undefined;
  const delta = twoScrapes ? safeDelta(latest, before) : undefined;
  const useInterval = delta !== undefined && delta.count > 0;
  const view: HistogramView = { histogram: useInterval ? delta : latest, cumulative: latest, window: useInterval ? 'interval' : 'sinceStart' };
  const p99 = safeQuantile(view.histogram, 0.99);
  if (p99 !== undefined) view.p99Seconds = p99;
  return view;
}

function kubeletVersion(ctx: { classification: NodeClassification; probes?: NodeProbeReport }): KubeletVersion | undefined {
  const candidates = [ctx.classification.versions.kubelet];
  if (ctx.probes?.kubeletVersion.status === 'ok') candidates.push(ctx.probes.kubeletVersion.value);
  for (const text of candidates) {
    if (text === undefined) continue;
    try {
      return parseKubeletVersion(text);
    } catch {
      // Not a version we can read (a distribution suffix we do not know): try the next source.
    }
  }
  return undefined;
}

/**
 * The moment the figures describe: `now` when given, else when the latest /metrics scrape was taken
 * (collection start, plus the interval when the second scrape answered), so a report rendered later
 * still reads the metric ages as they were.
 */
export function referenceTime(evidence: NodeEvidence, now: Date | undefined): Date {
  if (now instanceof Date && !Number.isNaN(now.getTime())) return now;
  const e = evidence as Partial<NodeEvidence> | null | undefined;
  const collected = typeof e?.collectedAt === 'string' ? Date.parse(e.collectedAt) : Number.NaN;
  if (Number.isNaN(collected)) return new Date();
  const interval = e?.metricsLater?.status === 'ok' && finite(e.metricsIntervalMs) && e.metricsIntervalMs > 0 ? e.metricsIntervalMs : 0;
  return new Date(collected + interval);
}

export function buildCheckContext(evidence: NodeEvidence, now: Date): CheckContext {
  const classification = classifyNode(evidence.node, now);
  const first = okValue(evidence.metrics);
  const later = okValue(evidence.metricsLater);
  const metrics = later ?? first;
  const earlier = later !== undefined ? first : undefined;
  const nodeSide = okValue(evidence.nodeSide);
  const configz = okValue(evidence.configz);
  const ctx: CheckContext = {
    evidence,
    now,
    nodeName: typeof evidence.nodeName === 'string' && evidence.nodeName !== '' ? evidence.nodeName : classification.name,
    classification,
    operations: operationViews(metrics, earlier),
    runtimeRequestTimeoutMs:
      configz !== undefined && finite(configz.runtimeRequestTimeoutMs) && configz.runtimeRequestTimeoutMs > 0
        ? configz.runtimeRequestTimeoutMs
        : DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
    runtimeRequestTimeoutKnown: configz !== undefined && configz.runtimeRequestTimeoutDefaulted !== true,
    plegUnhealthy: false,
  };
  if (metrics !== undefined) ctx.metrics = metrics;
  if (earlier !== undefined) {
    ctx.earlierMetrics = earlier;
    if (finite(evidence.metricsIntervalMs) && evidence.metricsIntervalMs > 0) ctx.intervalSeconds = evidence.metricsIntervalMs / 1000;
    const discards = counterDelta(metrics?.plegDiscardEvents, earlier.plegDiscardEvents);
    if (discards !== undefined) ctx.discardDelta = discards;
  }
  if (configz !== undefined) ctx.configz = configz;
  const healthz = okValue(evidence.healthz);
  if (healthz !== undefined) ctx.healthz = healthz;
  const goroutines = okValue(evidence.goroutines);
  if (goroutines !== undefined) ctx.goroutines = goroutines;
  const events = okValue(evidence.events);
  if (Array.isArray(events)) ctx.events = events;
  const podCount = okValue(evidence.podCount);
  if (finite(podCount)) ctx.podCount = podCount;
  if (nodeSide !== undefined) {
    ctx.nodeSide = nodeSide;
    if (nodeSide.snapshot !== undefined) ctx.snapshot = nodeSide.snapshot;
    if (nodeSide.probes !== undefined) ctx.probes = nodeSide.probes;
  }
  const kubeletLog = okValue(evidence.kubeletLog);
  if (kubeletLog !== undefined && Array.isArray(kubeletLog.plegStretches)) ctx.kubeletLog = kubeletLog;
  const version = kubeletVersion(ctx);
  if (version !== undefined) ctx.kubelet = version;

  const relist = histogramView(metrics?.plegRelistDuration, earlier?.plegRelistDuration, earlier !== undefined);
  if (relist !== undefined) ctx.relist = relist;
  const podRelist = histogramView(metrics?.plegPodRelistDuration, earlier?.plegPodRelistDuration, earlier !== undefined);
  if (podRelist !== undefined) ctx.podRelist = podRelist;
  const onDemand = readOnDemandGate({ metricsGates: metrics?.featureGates, configzGates: configz?.featureGates, minor: version?.minor });
  if (onDemand !== undefined) ctx.onDemandRelist = onDemand;
  if (finite(metrics?.plegLastSeenSeconds) && metrics.plegLastSeenSeconds > 0) {
    const lastSeen = metrics.plegLastSeenSeconds;
    const clock = evidence.captureClock ?? undefined;
    const file = (later !== undefined ? clock?.metricsFiles.metricsLater : clock?.metricsFiles.metrics) ?? '/metrics';
    const reading = plegAgeReading(lastSeen, clock, file, now);
    ctx.plegAge = reading;
    if (reading.collectorClock) ctx.plegLastSeenAgeSeconds = reading.minSeconds;
    if (clock !== undefined && reading.minSeconds > PLEG_THRESHOLD_SECONDS) {
      const doubts = stalenessDoubts({ lastSeenSeconds: lastSeen, thresholdSeconds: PLEG_THRESHOLD_SECONDS, classification, clock, ...(ctx.goroutines !== undefined ? { goroutines: ctx.goroutines } : {}) });
      if (doubts.length > 0) ctx.plegAgeDoubts = doubts;
    }
  }
  ctx.plegUnhealthy = classification.verdict === 'pleg' || plegStaleByMetric(ctx);
  return ctx;
}

/** The metric says, beyond doubt, that the last relist started more than 3 minutes before the capture. */
export function plegStaleByMetric(ctx: Pick<CheckContext, 'plegAge' | 'plegAgeDoubts'>): boolean {
  return ctx.plegAge !== undefined && ctx.plegAge.minSeconds > PLEG_THRESHOLD_SECONDS && (ctx.plegAgeDoubts?.length ?? 0) === 0;
}

/** The metric says the last relist started at most 3 minutes before the capture. */
export function plegFreshByMetric(ctx: Pick<CheckContext, 'plegAge'>): boolean {
  const max = ctx.plegAge?.maxSeconds;
  return max !== undefined && max <= PLEG_THRESHOLD_SECONDS;
}

/** The Ready condition's status as classified ('missing' when there is none). */
export function readyStatus(ctx: CheckContext): NodeClassification['readyStatus'] {
  return ctx.classification.readyStatus;
}
