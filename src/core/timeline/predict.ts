// The sentence the timeline states about the threshold: when Healthy() turns false at this rate, and when
// the kubelet then posts NotReady (at its first node status evaluation after the crossing, which a hung
// runtime delays: nodeStatusLoop.ts). Based on the model's relists when the session has them, else on the
// kubelet's own kubelet_pleg_last_seen_seconds.

import { utcClock } from './utcClock';
import { formatGoDurationMs } from '../util/goDuration';
import { firstEvaluationFrom, syncLoopOf } from './nodeStatusLoop';
import { hungSyncMs, JITTERED_LOOP } from './nodeStatusLoopShape';
import type { TimelineSession } from './session';

export type PredictionState =
  /** Relists run within budget. */
  | 'healthy'
  /** The stamp has stopped moving (relists fail or hang) or the last relist took longer than its budget. */
  | 'crossing'
  /** Healthy() is already false. */
  | 'unhealthy'
  /** Nothing to go on yet. */
  | 'unknown';

export interface ThresholdPrediction {
  state: PredictionState;
  sentence: string;
  basis: 'model' | 'kubelet-metrics' | 'none';
  thresholdMs: number;
  /** The stamp Healthy() compares with (session ms): the last successful relist's start. */
  lastStampMs?: number;
  ageMs?: number;
  /** When the age exceeds the threshold (session ms). */
  crossingAtMs?: number;
  /** When the kubelet posts NotReady after that: its first node status evaluation after the crossing. */
  notReadyByMs?: number;
  /**
   * The last relist's duration and the largest one that keeps Healthy() true: threshold − period − GetPods,
   * less one per-pod relist with PLEGOnDemandRelist on (a periodic relist may wait behind it).
   */
  lastRelistMs?: number;
  budgetMs?: number;
}

export interface PredictOptions {
  /** Formats a wall-clock instant (epoch ms) for the sentence; default HH:MM:SS UTC. */
  formatTime?: (epochMs: number) => string;
  /**
   * The session's source is not answering (the agent while its port-forward waits on a hung runtime): its
   * relists stop arriving, which says nothing of the runtime by itself, so a crossing is stated as of its
   * last relist and a NotReady post as of its last answer, unless a stall says the status updates wait.
   */
  sourceSilent?: boolean;
}

export function predictThreshold(session: TimelineSession, nowMs: number, options: PredictOptions = {}): ThresholdPrediction {
  const threshold = session.settings.thresholdMs;
  const period = session.settings.relistPeriodMs;
  const base = Date.parse(session.startedAt);
  const epoch = (ms: number): number => (Number.isFinite(base) ? base : 0) + ms;
  // A time on another day than now (a NotReady stated to have begun days ago) carries its date.
  const at = (ms: number): string => (options.formatTime ?? ((e: number) => utcClock(e, epoch(nowMs))))(epoch(ms));
  const fmt = (ms: number): string => formatGoDurationMs(Math.max(0, Math.round(ms)));

  const model = modelStamp(session);
  const kubelet = model === null ? kubeletStamp(session) : null;
  const stamp = model ?? kubelet;
  if (stamp === null) {
    const never = session.relists.length > 0;
    return {
      state: 'unknown',
      basis: never ? 'model' : 'none',
      thresholdMs: threshold,
      sentence: never ? 'no relist has succeeded yet: Healthy() reports "pleg has yet to be successful"' : 'no relist and no kubelet metrics yet',
    };
  }
  const basis = model !== null ? 'model' : 'kubelet-metrics';
  const ageMs = nowMs - stamp.stampMs;
  const crossingAtMs = stamp.stampMs + threshold;
  const loop = syncLoopOf(session, nowMs);
  const notReadyByMs = firstEvaluationFrom(loop, crossingAtMs) ?? crossingAtMs;
  const hung = loop.stall !== undefined && loop.stall.kind === 'hang' && loop.stall.untilMs === undefined;
  const postWhy = hung
    ? `its status updates wait ${fmt(session.settings.runtimeRequestTimeoutMs)} (the runtime request timeout) on the hung runtime${(loop.shape?.callsBeforeVersionMs.length ?? 0) > 0 ? `, after ${fmt(hungSyncMs(loop.shape ?? JITTERED_LOOP, 0))} in cAdvisor's docker version calls` : ''}`
    : `its next node status update${loop.anchored ? '' : ', every ' + fmt(loop.updateFrequencyMs ?? 10_000)}`;
  const common = { basis, thresholdMs: threshold, lastStampMs: stamp.stampMs, ageMs } as const;
  if (ageMs > threshold) {
    return {
      ...common,
      state: 'unhealthy',
      crossingAtMs,
      notReadyByMs,
      sentence: `PLEG is unhealthy since ${at(crossingAtMs)}: last seen active ${fmt(ageMs)} ago, threshold ${fmt(threshold)}; ${postedSentence(session, crossingAtMs, notReadyByMs, nowMs, at, postWhy)}`,
    };
  }
  const last = session.relists.at(-1);
  // The runtime's stall (a call waiting far longer than usual) tells before the relist fails on its deadline.
  const runtimeStalled = loop.stall !== undefined && loop.stall.untilMs === undefined;
  const stalled = basis === 'model' ? runtimeStalled || (last !== undefined && (!last.ok || nowMs - last.endMs > Math.max(3 * period, 5_000))) : stamp.stalled;
  const lastRelistMs = last !== undefined && basis === 'model' ? last.endMs - last.startMs : undefined;
  const getPods = last?.ok === true ? getPodsMs(last) : 0;
  // 1.36+ with PLEGOnDemandRelist on: the periodic relist may wait behind one per-pod relist under the
  // relist lock, which ages the stamp by as much (the same budget as pleg/cost/projection.ts).
  const waitMs = session.settings.onDemandRelist?.enabled === true ? (session.cost.at(-1)?.podRelistWaitMs ?? 0) : 0;
  const budgetMs = Math.max(0, threshold - period - waitMs - getPods);
  const tooSlow = lastRelistMs !== undefined && lastRelistMs > budgetMs;
  if (stalled || tooSlow) {
    const silentOnly = options.sourceSilent === true && basis === 'model' && !runtimeStalled && last !== undefined;
    const why = stalled
      ? basis === 'model'
        ? runtimeStalled && last?.ok === true
          ? 'the runtime stopped answering'
          : silentOnly
            ? `no relist has arrived since ${at(last.endMs)}: its source is silent`
            : 'relists are failing or not finishing'
        : 'the kubelet has not relisted since'
      : `the last relist took ${fmt(lastRelistMs ?? 0)}, over its ${fmt(budgetMs)} budget`;
    return {
      ...common,
      state: 'crossing',
      crossingAtMs,
      notReadyByMs,
      ...(lastRelistMs !== undefined ? { lastRelistMs } : {}),
      budgetMs,
      sentence: `at this rate the threshold is crossed at ${at(crossingAtMs)} (${why}); the kubelet will post NotReady at about ${at(notReadyByMs)} (${postWhy}${silentOnly ? ', as of its source\u2019s last answer: later if its runtime hangs' : ''})`,
    };
  }
  return {
    ...common,
    state: 'healthy',
    ...(lastRelistMs !== undefined ? { lastRelistMs } : {}),
    budgetMs,
    sentence:
      lastRelistMs !== undefined
        ? `healthy: the last relist took ${fmt(lastRelistMs)}, budget ${fmt(budgetMs)}`
        : `healthy: the kubelet last relisted ${fmt(ageMs)} ago, threshold ${fmt(threshold)}`,
  };
}

/** What the unhealthy sentence says of the NotReady post: seen, due, or expected. */
function postedSentence(session: TimelineSession, crossingAtMs: number, notReadyByMs: number, nowMs: number, at: (ms: number) => string, why: string): string {
  const posted = session.ready.find((r) => r.atMs >= crossingAtMs && r.message.includes('PLEG is not healthy'));
  // The session's first Ready reading is not a post it saw: the node was NotReady when the session began.
  // With the lastTransitionTime the API server gave, the sentence says since when.
  if (posted !== undefined && posted === session.ready[0]) {
    const stated = Date.parse(posted.lastTransitionTime ?? '') - Date.parse(session.startedAt);
    if (Number.isFinite(stated) && stated <= posted.atMs) return `the node has been NotReady since ${at(stated)}, before the session began (${at(posted.atMs)})`;
    return `the kubelet had posted NotReady before the session began (${at(posted.atMs)})`;
  }
  if (posted !== undefined) return `the kubelet posted NotReady at ${at(posted.atMs)}`;
  if (notReadyByMs < nowMs) return `the kubelet's NotReady post was due at about ${at(notReadyByMs)} (${why})`;
  return `the kubelet posts NotReady at about ${at(notReadyByMs)} (${why})`;
}

/** The model's stamp: the last successful relist's start. */
function modelStamp(session: TimelineSession): { stampMs: number; stalled: boolean } | null {
  for (let i = session.relists.length - 1; i >= 0; i--) {
    const r = session.relists[i];
    if (r?.ok === true) return { stampMs: r.startMs, stalled: false };
  }
  return null;
}

/** The kubelet's stamp from its last scrape with kubelet_pleg_last_seen_seconds; stalled when it did not move between the last two. */
function kubeletStamp(session: TimelineSession): { stampMs: number; stalled: boolean } | null {
  const withAge = session.kubelet.filter((k) => k.lastSeenAgeS !== undefined);
  const last = withAge.at(-1);
  if (last?.lastSeenAgeS === undefined) return null;
  const stampMs = last.atMs - last.lastSeenAgeS * 1000;
  const prev = withAge.at(-2);
  const prevStamp = prev?.lastSeenAgeS === undefined ? undefined : prev.atMs - prev.lastSeenAgeS * 1000;
  // last_seen has one-second resolution: a stamp within 1.5 s of the previous one has not moved.
  const stalled = prev !== undefined && prevStamp !== undefined && Math.abs(stampMs - prevStamp) < 1_500 && last.atMs - prev.atMs > 2_000;
  return { stampMs, stalled };
}

function getPodsMs(relist: TimelineSession['relists'][number]): number {
  let ms = 0;
  let n = 0;
  for (const r of relist.rpcs) {
    if (r.pod !== undefined) break;
    ms += r.latencyMs;
    if (++n === 2) break;
  }
  return ms;
}
