// One kubelet /metrics scrape → a KubeletSample: the age of kubelet_pleg_last_seen_seconds at the scrape,
// and the interval means (relist duration and interval, runtime operation latency) from the histogram
// deltas since the previous scrape. Metric names per kubelet version come from summarizeKubeletMetrics
// (≤1.13 microsecond summaries, 1.14+ seconds histograms, the 1.17–1.18 running pod/container names,
// 1.36's kubelet_pleg_pod_relist_duration_seconds).

import { histogramDelta, summarizeKubeletMetrics } from '../parse/kubeletMetrics';
import type { HistogramSummary, KubeletMetricsSummary } from '../parse/kubeletEndpointTypes';
import type { KubeletSample } from './session';
import { errorText } from '../util/errorText';

/**
 * 1.36+: the histogram of the on-demand per-pod relists (generic.go relistPod: one pod's GetPod and
 * GetPodStatus after a sync, under the global relist's lock).
 */
export const POD_RELIST_DURATION_METRIC = 'kubelet_pleg_pod_relist_duration_seconds';

export interface MetricsScrape {
  /** When the scrape was sent (epoch ms): the instant its gauges describe at the earliest. */
  epochMs: number;
  outcome: KubeletSample['scrape'];
  /** The /metrics body when outcome is 'ok'. */
  text?: string;
  detail?: string;
  scrapeMs?: number;
}

const mean = (h: HistogramSummary | undefined): number | undefined => (h !== undefined && h.count > 0 ? h.sum / h.count : undefined);

function intervalMean(now: HistogramSummary | undefined, prev: HistogramSummary | undefined): number | undefined {
  if (now === undefined) return undefined;
  if (prev === undefined) return undefined;
  return mean(histogramDelta(now, prev));
}

/** `kubernetes_build_info{git_version="v1.32.10"}` when the body has it. */
export function kubeletVersionFromMetrics(text: string): string | undefined {
  return /kubernetes_build_info\{[^}]*git_version="([^"]+)"/u.exec(text)?.[1];
}

/** Turns successive scrapes of one kubelet into samples; keeps the previous scrape for the deltas. */
export class KubeletSampler {
  private prev: KubeletMetricsSummary | null = null;

  /** `kubernetes_feature_enabled` of the last scrape that parsed (the kubelet's own gates), if it had any. */
  get featureGates(): Record<string, boolean> | undefined {
    return this.prev?.featureGates;
  }

  constructor(private readonly startEpochMs: number) {}

  sample(scrape: MetricsScrape): KubeletSample {
    const atMs = scrape.epochMs - this.startEpochMs;
    const base: KubeletSample = { atMs, scrape: scrape.outcome };
    if (scrape.detail !== undefined) base.detail = scrape.detail;
    if (scrape.scrapeMs !== undefined) base.scrapeMs = Math.round(scrape.scrapeMs);
    if (scrape.outcome !== 'ok' || scrape.text === undefined) return base;
    let summary: KubeletMetricsSummary;
    try {
      summary = summarizeKubeletMetrics(scrape.text);
    } catch (err) {
      return { atMs, scrape: 'error', detail: `/metrics did not parse: ${errorText(err)}`, ...(base.scrapeMs !== undefined ? { scrapeMs: base.scrapeMs } : {}) };
    }
    const prev = this.prev;
    this.prev = summary;
    const out = base;
    if (summary.plegLastSeenSeconds !== undefined) out.lastSeenAgeS = Math.round((scrape.epochMs / 1000 - summary.plegLastSeenSeconds) * 1000) / 1000;
    const relist = intervalMean(summary.plegRelistDuration, prev?.plegRelistDuration);
    if (relist !== undefined) out.relistDurationS = relist;
    const interval = intervalMean(summary.plegRelistInterval, prev?.plegRelistInterval);
    if (interval !== undefined) out.relistIntervalS = interval;
    const pod = intervalMean(summary.plegPodRelistDuration, prev?.plegPodRelistDuration);
    if (pod !== undefined) out.podRelistDurationS = pod;
    if (summary.plegDiscardEvents !== undefined) out.discardEvents = summary.plegDiscardEvents;
    if (summary.runningPods !== undefined) out.runningPods = summary.runningPods;
    const running = summary.runningContainers?.['running'];
    if (running !== undefined) out.runningContainers = running;
    const errors: Record<string, number> = {};
    const latency: Record<string, number> = {};
    for (const [op, m] of Object.entries(summary.runtimeOperations)) {
      if (m.errors !== undefined) errors[op] = m.errors;
      const l = intervalMean(m.duration, prev?.runtimeOperations[op]?.duration);
      if (l !== undefined) latency[op] = l;
    }
    if (Object.keys(errors).length > 0) out.runtimeErrors = errors;
    if (Object.keys(latency).length > 0) out.runtimeLatencyS = latency;
    return out;
  }
}
