// The timeline panel's what-if: turns the user's few knobs into a simulator scenario, runs it, and
// reduces the simulator's timeline to what the chart draws. Pure, so the panel stays a thin adapter.

import { parseScenario, type Scenario } from '../../pleg/sim/scenario';
import { simulate } from '../../pleg/sim/simulate';
import type { SimulationRun } from '../../pleg/sim/simulationRun';
import { chartSeries } from './chartSeries';
import { whatIfFindings } from './findings';
import { KUBELET_LINE_LABELS, type WhatIfResult, type TimeWindow, type WhatIfParams } from './whatIfTypes';

export const DEFAULT_WHAT_IF: WhatIfParams = {
  pods: 110,
  containersPerPod: 2,
  rpcLatencyMs: 5,
  changedPodsPerRelist: 1,
  freezeAtS: 60,
  freezeForS: 300,
  durationS: 900,
  kubelet: '1.32',
};

/** Above this many simulated seconds only notable relists are kept, so the chart stays light. */
const RECORD_ALL_UP_TO_S = 6 * 3600;

export function whatIfScenario(p: WhatIfParams): unknown {
  const latency = p.rpcLatencyMs <= 0 ? { kind: 'constant', ms: 0 } : { kind: 'lognormal', medianMs: p.rpcLatencyMs, p99Ms: p.rpcLatencyMs * 4 };
  return {
    name: 'what-if',
    seed: 1,
    duration: p.durationS * 1000,
    // x.y.0 of the line: 1.36's on-demand relist follows its default (on), after every churn.
    kubeletVersion: `${p.kubelet}.0`,
    pods: { count: p.pods, containersPerPod: p.containersPerPod },
    // Relists run about once a second, so "changed pods per relist" is a rate per second.
    churn: { containerRestartsPerHour: p.changedPodsPerRelist * 3600, podReplacementsPerHour: 0 },
    latency: { listPodSandbox: latency, listContainers: latency, podSandboxStatus: latency, containerStatus: latency, status: latency, version: latency },
    runtimeHangs: p.freezeForS > 0 ? [{ startMs: p.freezeAtS * 1000, durationMs: p.freezeForS * 1000 }] : [],
    record: { relists: p.durationS <= RECORD_ALL_UP_TO_S ? 'all' : 'notable' },
  };
}

/** Windows where `isBad` holds, from a list of state changes ordered by time. */
function windowsOf<T extends { atMs: number }>(changes: readonly T[], isBad: (c: T) => boolean, endMs: number): TimeWindow[] {
  const out: TimeWindow[] = [];
  let openedAt: number | undefined;
  for (const change of changes) {
    if (isBad(change) && openedAt === undefined) openedAt = change.atMs;
    else if (!isBad(change) && openedAt !== undefined) {
      out.push({ fromMs: openedAt, toMs: change.atMs });
      openedAt = undefined;
    }
  }
  if (openedAt !== undefined) out.push({ fromMs: openedAt, toMs: endMs });
  return out;
}

export interface TimelineSettings {
  title: string;
  thresholdMs: number;
  periodMs: number;
  channelCapacity: number;
  freezeAtMs?: number;
}

/** What the chart draws for a simulator timeline: a what-if run, or a `pleg-doctor simulate` recording. */
export function timelineData(timeline: SimulationRun, settings: TimelineSettings): WhatIfResult {
  // Before the first successful relist Healthy() says "pleg has yet to be successful": a startup
  // transient of a few milliseconds here, not the failure the user is asking about.
  const firstHealthy = timeline.health.findIndex((h) => h.healthy);
  const afterStartup = firstHealthy < 0 ? timeline.health : timeline.health.slice(firstHealthy);
  const unhealthy = windowsOf(afterStartup, (h) => !h.healthy, timeline.durationMs);
  const notReady = windowsOf(timeline.nodeReady, (n) => n.status === 'False', timeline.durationMs);
  return {
    title: settings.title,
    thresholdMs: settings.thresholdMs,
    durationMs: timeline.durationMs,
    series: chartSeries(timeline, settings.periodMs),
    unhealthy,
    notReady,
    findings: whatIfFindings({ timeline, freezeAtMs: settings.freezeAtMs, thresholdMs: settings.thresholdMs, channelCapacity: settings.channelCapacity, unhealthy, notReady }),
    approximate: timeline.relistsRecorded === 'notable',
  };
}

export function runWhatIf(p: WhatIfParams, signal?: AbortSignal): WhatIfResult {
  const scenario = parseScenario(whatIfScenario(p));
  const title = `${p.pods} pods × ${p.containersPerPod} containers, ${p.rpcLatencyMs} ms per CRI call, kubelet ${KUBELET_LINE_LABELS[p.kubelet]}`;
  return timelineData(simulate(scenario, signal), { title, ...scenarioSettings(scenario) });
}

/** The kubelet settings the chart needs from a scenario. */
export function scenarioSettings(scenario: Scenario): Omit<TimelineSettings, 'title'> {
  const k = scenario.kubelet;
  const settings: Omit<TimelineSettings, 'title'> = { thresholdMs: k.relistThresholdMs, periodMs: k.relistPeriodMs, channelCapacity: k.channelCapacity };
  const firstHang = scenario.runtimeHangs[0];
  if (firstHang !== undefined) settings.freezeAtMs = firstHang.startMs;
  return settings;
}
