// The what-if: "at this latency and churn a relist takes X; Healthy() fails after Y". Relists run back to
// back with a sliding period P. A successful relist stamps its *start*, and the stamp becomes visible as
// soon as its GetPods returns (after G), before the pods are inspected. So just before relist k+1's GetPods
// returns, the stamp is D + P + G old, where D is relist k's duration: the node goes NotReady once one
// relist lasts longer than threshold − P − G (about 179 s with the defaults), as in #94829.
// Kubelet 1.36+ with PLEGOnDemandRelist also relists single pods between periodic relists, under the same
// lock: when the period's timer fires during one, the periodic relist waits for it (at most one, since the
// worker loop serves the timer before the next request), so the stamp can be W older, W being one per-pod
// relist (GetPod + GetPodStatus).

import { formatGoDurationMs } from '../../util/goDuration';
import { DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS } from './criCall';
import { podRelistCost, relistCost, type PodRelistCost, type RelistCost, type RpcLatencies } from './relistCost';

export const DEFAULT_RELIST_PERIOD_MS = 1_000;
export const DEFAULT_RELIST_THRESHOLD_MS = 180_000;

export interface ProjectionInput {
  latencies: RpcLatencies;
  pods: number;
  containersPerPod: number;
  sandboxesPerPod?: number;
  /** Pods inspected per relist (changed pods plus pending reinspections). */
  changedPodsPerRelist: number;
  runtimeRequestTimeoutMs?: number;
  relistPeriodMs?: number;
  thresholdMs?: number;
  /** How long the relist before the change took (its start is the last good stamp). Default 0. */
  previousRelistMs?: number;
  /**
   * Kubelet 1.36+ with PLEGOnDemandRelist: pods are relisted on demand between periodic relists (after a
   * sync that changed something), so a periodic relist may wait behind one. Default false.
   */
  onDemandRelist?: boolean;
}

export interface Projection {
  cost: RelistCost;
  /** 1.36+ on demand: one per-pod relist, the longest a periodic relist waits behind one (else null). */
  podRelist: PodRelistCost | null;
  /** The wait added to the stamp's age (podRelist's duration, or 0). */
  waitMs: number;
  relistMs: number;
  /** Relist start to next relist start. */
  cycleMs: number;
  /** Oldest the last-relist stamp gets in steady state: D + P + G (Infinity when GetPods keeps failing). */
  worstAgeMs: number;
  /** Largest relist duration that still keeps Healthy() true: threshold − P − G. */
  relistBudgetMs: number;
  /** Healthy() fails at some point in steady state. */
  unhealthy: boolean;
  /** From the first relist under these conditions to the first instant Healthy() is false; null: never. */
  thresholdCrossedAfterMs: number | null;
  /** Share of steady-state time during which Healthy() is false (0..1). */
  unhealthyFraction: number;
  /** One sentence for the what-if panel. */
  summary: string;
}

export function projectRelist(input: ProjectionInput): Projection {
  const period = input.relistPeriodMs ?? DEFAULT_RELIST_PERIOD_MS;
  const threshold = input.thresholdMs ?? DEFAULT_RELIST_THRESHOLD_MS;
  const previous = input.previousRelistMs ?? 0;
  if (!(period >= 0) || !(threshold > 0) || !(previous >= 0)) throw new RangeError('relist period, threshold and previous relist time must be non-negative (threshold positive)');
  const work = { pods: input.pods, containersPerPod: input.containersPerPod, inspectedPods: Math.min(input.changedPodsPerRelist, input.pods) };
  const cost = relistCost(
    input.latencies,
    input.sandboxesPerPod === undefined ? work : { ...work, sandboxesPerPod: input.sandboxesPerPod },
    input.runtimeRequestTimeoutMs ?? DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
  );
  const relistMs = cost.totalMs;
  const getPods = cost.getPodsMs;
  const timeout = input.runtimeRequestTimeoutMs ?? DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS;
  const podRelist = input.onDemandRelist === true ? podRelistCost(input.latencies, input.sandboxesPerPod ?? 1, input.containersPerPod, true, timeout) : null;
  const waitMs = podRelist?.totalMs ?? 0;
  const cycleMs = relistMs + period + waitMs;
  const relistBudgetMs = Math.max(0, threshold - period - waitMs - getPods);
  // Stamp ages are measured from the first affected relist's start (t = 0); the last good stamp before it
  // is (period + previous) earlier, and this relist's own stamp shows up at G.
  const firstLag = period + waitMs + previous;
  let worstAgeMs: number;
  let crossed: number | null;
  if (!cost.getPodsOk) {
    worstAgeMs = Number.POSITIVE_INFINITY;
    crossed = Math.max(0, threshold - firstLag);
  } else {
    worstAgeMs = relistMs + period + waitMs + getPods;
    if (getPods + firstLag > threshold) crossed = Math.max(0, threshold - firstLag);
    else if (worstAgeMs > threshold) crossed = threshold;
    else crossed = null;
  }
  const unhealthy = worstAgeMs > threshold;
  const unhealthyFraction = !cost.getPodsOk ? 1 : Math.min(1, Math.max(0, worstAgeMs - threshold) / cycleMs);
  const fmt = (ms: number): string => formatGoDurationMs(ms);
  let summary = cost.getPodsOk
    ? `A relist takes ${fmt(relistMs)} (GetPods ${fmt(cost.getPodsMs)}, ${work.inspectedPods} × GetPodStatus ${fmt(cost.podStatusMs)}); budget ${fmt(relistBudgetMs)}.`
    : `GetPods hits the ${fmt(timeout)} runtimeRequestTimeout, so every relist fails and the stamp never moves.`;
  if (podRelist !== null) summary += ` It may first wait ${fmt(waitMs)} for a per-pod relist holding the lock.`;
  summary +=
    crossed === null
      ? ` PLEG stays healthy (stamp at most ${fmt(worstAgeMs)} old; threshold ${fmt(threshold)}).`
      : ` The ${fmt(threshold)} threshold is crossed ${fmt(crossed)} after the first such relist starts${
          cost.getPodsOk ? `; then NotReady ${(unhealthyFraction * 100).toFixed(1)} % of the time` : ''
        }.`;
  return { cost, podRelist, waitMs, relistMs, cycleMs, worstAgeMs, relistBudgetMs, unhealthy, thresholdCrossedAfterMs: crossed, unhealthyFraction, summary };
}
