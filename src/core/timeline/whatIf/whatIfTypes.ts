// The what-if's inputs and the chart-ready result. Core owns these types; the panel protocol in
// src/shared imports them (never the other way round).

/** The what-if's kubelet lines: 1.26–1.31, 1.32–1.35, 1.36+ (docs/pleg-model.md). */
export type KubeletLine = '1.26' | '1.32' | '1.36';

export const KUBELET_LINES: readonly KubeletLine[] = ['1.26', '1.32', '1.36'];

/** How a line is labelled. */
export const KUBELET_LINE_LABELS: Readonly<Record<KubeletLine, string>> = { '1.26': '1.26 – 1.31', '1.32': '1.32 – 1.35', '1.36': '1.36+' };

/** The what-if knobs the user can turn. Units are in the names. */
export interface WhatIfParams {
  pods: number;
  containersPerPod: number;
  /** Typical latency of one CRI call. */
  rpcLatencyMs: number;
  /** Pods whose containers change in an average relist (churn). */
  changedPodsPerRelist: number;
  /** Freeze the runtime (SIGSTOP-like) at this time. */
  freezeAtS: number;
  /** How long the runtime stays frozen; 0 = no freeze. */
  freezeForS: number;
  durationS: number;
  kubelet: KubeletLine;
}

export type WhatIfNumericKey = Exclude<keyof WhatIfParams, 'kubelet'>;

export const WHAT_IF_NUMERIC_KEYS: readonly WhatIfNumericKey[] = ['pods', 'containersPerPod', 'rpcLatencyMs', 'changedPodsPerRelist', 'freezeAtS', 'freezeForS', 'durationS'];

/** Inclusive limits of every numeric knob. */
export const WHAT_IF_LIMITS: Readonly<Record<WhatIfNumericKey, readonly [number, number]>> = {
  pods: [0, 1000],
  containersPerPod: [0, 50],
  rpcLatencyMs: [0, 600_000],
  changedPodsPerRelist: [0, 1000],
  freezeAtS: [0, 86_400],
  freezeForS: [0, 86_400],
  durationS: [1, 86_400],
};

export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

/**
 * Column-aligned series for the chart (uPlot's data layout): one row per x, null where a series has no
 * point. All values in seconds.
 */
export interface ChartSeries {
  /** Time since the run started. Sorted ascending; equal neighbours draw a vertical drop. */
  x: number[];
  /** What Healthy() compares with the threshold: time since the last successful relist started. */
  sinceLastRelistStart: Array<number | null>;
  /** Duration of each finished relist, at its start. */
  relistDuration: Array<number | null>;
  /** Failed relists (GetPods failed), at their start, with their duration. */
  failedRelist: Array<number | null>;
  /** The relist still running when the run ended, with its duration so far. */
  unfinishedRelist: Array<number | null>;
}

export type FindingLevel = 'critical' | 'warning' | 'info';

export interface Finding {
  level: FindingLevel;
  text: string;
}

export interface WhatIfResult {
  title: string;
  thresholdMs: number;
  /** The whole simulated time: the chart's x axis always spans 0 … durationMs. */
  durationMs: number;
  series: ChartSeries;
  /** Windows where Healthy() returned an error. */
  unhealthy: TimeWindow[];
  /** Windows where the node's Ready condition was False. */
  notReady: TimeWindow[];
  /** Plain-language findings, the most important first. */
  findings: Finding[];
  /** Set when relists below the "slow" mark were not recorded one by one (long runs). */
  approximate: boolean;
}
