// The demo kubelet's /metrics: the PLEG and runtime-operation families a real 1.32 kubelet exposes, with
// counts that follow from the node's state and "now" (so two scrapes an interval apart show rates).
// Figures: relists every second taking a few ms; a flapper's earlier hung relists of ≈ 236 s with two
// PodSandboxStatus calls each timing out at 120 s; a dead runtime's calls failing at once, often.

import { DEFAULT_BUCKETS, PromWriter, RUNTIME_OPERATION_BUCKETS } from './promWriter';
import type { Observations } from './promWriter';
import { hash } from './kubeletState';
import type { KubeletState } from './kubeletState';
import { CRASHLOOP } from '../demoCluster';

interface Operation {
  total: number;
  errors: number;
  observations: Observations[];
}

/** A fast CRI call's duration, in seconds: most within 5 ms, a few slower. */
const FAST_S = 0.0021;
const SLOWER_S = 0.0093;
/** A call failing with Unavailable (connection refused) returns in well under a millisecond. */
const REFUSED_S = 0.00043;

function fastCalls(count: number, seed: number): Observations[] {
  const slower = Math.floor(count / 40) + (seed % 2);
  const n = Math.max(0, Math.floor(count));
  const s = Math.min(slower, n);
  return [
    { value: FAST_S, count: n - s },
    { value: SLOWER_S, count: s },
  ];
}

function op(total: number, errors: number, observations: Observations[]): Operation {
  return { total: Math.floor(total), errors: Math.floor(errors), observations };
}

/** Seconds of `[from, to]` overlapping `[0, upTo]`, never negative. */
function span(from: number, to: number): number {
  return Math.max(0, to - from);
}

interface Timeline {
  /** Seconds the relist loop ran normally (one relist a second). */
  healthyRelistS: number;
  /** Seconds the runtime has been down in the current episode. */
  downS: number;
  /** Seconds the current hung relist has been hanging. */
  stuckS: number;
  /** Seconds of earlier runtime-down episodes. */
  earlierDownS: number;
}

function timeline(state: KubeletState): Timeline {
  const uptime = span(state.startS, state.nowS);
  const c = state.condition;
  const stuckS = c.kind === 'stuckRelist' ? span(c.sinceS, state.nowS) : 0;
  const downS = c.kind === 'runtimeDown' ? span(c.sinceS, state.nowS) : 0;
  const earlierDownS = state.earlierRuntimeDowns * CRASHLOOP.downS;
  const hungS = state.earlierHungRelists * state.hungRelistS;
  return { healthyRelistS: Math.max(0, uptime - hungS - stuckS - downS - earlierDownS), downS, stuckS, earlierDownS };
}

function operations(state: KubeletState, t: Timeline): Record<string, Operation> {
  const seed = hash(state.nodeName);
  const uptime = span(state.startS, state.nowS);
  const failing = t.downS + t.earlierDownS;
  const relists = t.healthyRelistS + state.earlierHungRelists;
  // Each earlier hung relist: GetPodStatus of the stuck pod waited out runtimeRequestTimeout twice; the
  // current one has timed out once per 2 min so far (the stuck node works through many such pods).
  const timedOut = state.earlierHungRelists * 2 + Math.floor(t.stuckS / state.runtimeTimeoutS);
  const sandboxStatusFast = state.pods * 4 + Math.floor(uptime / 45);
  const refused = (every: number): number => Math.floor(t.downS / every) + Math.floor(t.earlierDownS / every);
  const listPodSandboxErrors = refused(1);
  const listContainersErrors = refused(2);
  const statusErrors = refused(5);
  const versionErrors = refused(5);
  const withRefused = (ok: Observations[], errors: number): Observations[] => [...ok, { value: REFUSED_S, count: errors }];
  return {
    list_podsandbox: op(relists + listPodSandboxErrors, listPodSandboxErrors, withRefused(fastCalls(relists, seed), listPodSandboxErrors)),
    list_containers: op(relists + listContainersErrors, listContainersErrors, withRefused(fastCalls(relists, seed + 1), listContainersErrors)),
    podsandbox_status: op(sandboxStatusFast + timedOut, timedOut, [...fastCalls(sandboxStatusFast, seed + 2), { value: state.runtimeTimeoutS + 0.0017, count: timedOut }]),
    container_status: op(state.containers * 4, 0, fastCalls(state.containers * 4, seed + 3)),
    status: op((uptime - failing) / 5 + statusErrors, statusErrors, withRefused(fastCalls((uptime - failing) / 5, seed + 4), statusErrors)),
    version: op((uptime - failing) / 5 + versionErrors, versionErrors, withRefused(fastCalls((uptime - failing) / 5, seed + 5), versionErrors)),
    list_images: op(uptime / 300, 0, fastCalls(uptime / 300, seed + 6)),
    image_status: op(state.containers * 2, 0, fastCalls(state.containers * 2, seed + 7)),
    exec_sync: op(uptime / 10, 0, [{ value: 0.031, count: Math.floor(uptime / 10) }]),
    runtime_config: op(1, 0, [{ value: FAST_S, count: 1 }]),
  };
}

export function kubeletMetricsBody(state: KubeletState): string {
  const t = timeline(state);
  const w = new PromWriter();
  const c = state.condition;
  const healthyRelists = Math.floor(t.healthyRelistS);
  // A relist that is still hanging is not observed yet: only finished ones count (kubernetes#87108).
  const failedRelists = Math.floor(t.downS) + Math.floor(t.earlierDownS);
  const relistDurations: Observations[] = [
    ...fastCalls(healthyRelists, hash(state.nodeName)).map((o) => ({ value: o.value * 2, count: o.count })),
    { value: REFUSED_S * 2, count: failedRelists },
    { value: state.hungRelistS + 0.0004, count: state.earlierHungRelists },
  ];
  const relistIntervals: Observations[] = [
    { value: 1.0013, count: healthyRelists + failedRelists },
    { value: state.hungRelistS + 1.0011, count: state.earlierHungRelists },
  ];
  // Set when health is evaluated: the start of the last relist that got through GetPods.
  const lastSeen = c.kind === 'stuckRelist' || c.kind === 'runtimeDown' ? c.sinceS : Math.floor(state.nowS) - 0.27;

  w.gauge('kubelet_node_name', "[ALPHA] The node's name. The count is always 1.", 1, { node: state.nodeName });
  w.gauge('kubelet_pleg_last_seen_seconds', '[ALPHA] Timestamp in seconds when PLEG was last seen active.', Math.round(lastSeen * 1000) / 1000);
  w.histogram('kubelet_pleg_relist_duration_seconds', '[ALPHA] Duration in seconds for relisting pods in PLEG.', { buckets: DEFAULT_BUCKETS, observations: relistDurations });
  w.histogram('kubelet_pleg_relist_interval_seconds', '[ALPHA] Interval in seconds between relisting in PLEG.', { buckets: DEFAULT_BUCKETS, observations: relistIntervals });
  w.counter('kubelet_pleg_discard_events', '[ALPHA] The number of discard events in PLEG.', 0);
  w.counter('kubelet_evented_pleg_connection_error_count', '[ALPHA] The number of errors encountered during the establishment of streaming connection with the CRI runtime.', 0);
  w.counter('kubelet_evented_pleg_connection_success_count', '[ALPHA] The number of times a streaming client was obtained to receive CRI Events.', 0);
  w.gauge('kubelet_running_pods', '[ALPHA] Number of pods that have a running pod sandbox', state.pods);
  const containersHelp = '[ALPHA] Number of containers currently running';
  w.gauge('kubelet_running_containers', containersHelp, state.containers, { container_state: 'running' });
  w.gauge('kubelet_running_containers', containersHelp, 2, { container_state: 'exited' });
  for (const [type, o] of Object.entries(operations(state, t))) {
    const labels = { operation_type: type };
    w.counter('kubelet_runtime_operations_total', '[ALPHA] Cumulative number of runtime operations by operation type.', o.total, labels);
    if (o.errors > 0) w.counter('kubelet_runtime_operations_errors_total', '[ALPHA] Cumulative number of runtime operation errors by operation type.', o.errors, labels);
    w.histogram(
      'kubelet_runtime_operations_duration_seconds',
      '[ALPHA] Duration in seconds of runtime operations. Broken down by operation type.',
      { buckets: RUNTIME_OPERATION_BUCKETS, observations: o.observations.filter((x) => x.count > 0) },
      labels,
    );
  }
  return w.text();
}
