// What the live timeline predicts, as instants, so that a recording can be held against what happened:
//  - runtime-down-posted: the kubelet posts Ready=False "container runtime is down" (a runtime stall: the
//    first node status evaluation once the last successful Status is 30 s old);
//  - pleg-unhealthy: Healthy() turns false (the model's crossing, predict.ts);
//  - pleg-notready-posted: the kubelet posts "PLEG is not healthy" (the first evaluation after the crossing);
//  - ready-posted: Ready=True again once the runtime answers and PLEG is healthy.
// nodeStatusLoop.ts says when the evaluations happen. The tracker records a prediction when it is first
// made and whenever it moves by a second or more, and withdraws one whose cause went away.

import { firstEvaluationFrom, NODE_STATUS_LOOP, runtimeDownFromMs, syncLoopOf, type SyncLoopInput } from './nodeStatusLoop';
import { hungSyncMs, JITTERED_LOOP } from './nodeStatusLoopShape';
import { predictThreshold } from './predict';
import type { PredictedEvent, RuntimeStall, SessionPrediction, TimelineSession } from './session';

export const PREDICTED_EVENTS: readonly PredictedEvent[] = ['runtime-down-posted', 'pleg-unhealthy', 'pleg-notready-posted', 'ready-posted'];

/**
 * An evaluation that should have posted this long ago may still be on its way (the PATCH, the watch):
 * until then the prediction stays on it rather than moving to the next one.
 */
const IN_FLIGHT_MS = 2_000;

export interface PostPredictions {
  /** Predicted instants (session ms) of the events expected now. */
  at: Partial<Record<PredictedEvent, number>>;
  /** Events the session shows have happened (their predictions are done, not withdrawn). */
  happened: ReadonlySet<PredictedEvent>;
}

export const RUNTIME_DOWN = 'container runtime is down';
const PLEG_NOT_HEALTHY = 'PLEG is not healthy';

export function predictPosts(session: TimelineSession, nowMs: number): PostPredictions {
  const at: Partial<Record<PredictedEvent, number>> = {};
  const happened = new Set<PredictedEvent>();
  const loop = syncLoopOf(session, nowMs);
  const after = (fromMs: number): number | undefined => firstEvaluationFrom(loop, Math.max(fromMs, nowMs - IN_FLIGHT_MS));
  const ready = session.ready.at(-1);
  const stall = loop.stall;
  const openStall = stall !== undefined && stall.untilMs === undefined ? stall : undefined;

  if (ready?.status === 'False' && ready.message.includes(RUNTIME_DOWN)) happened.add('runtime-down-posted');
  else if (openStall !== undefined) {
    const post = after(runtimeDownFromMs(openStall));
    if (post !== undefined) at['runtime-down-posted'] = firstHungPostBound(openStall, loop, post, nowMs);
  }

  const threshold = predictThreshold(session, nowMs);
  if (threshold.state === 'unhealthy') happened.add('pleg-unhealthy');
  else if (threshold.state === 'crossing' && threshold.crossingAtMs !== undefined) at['pleg-unhealthy'] = threshold.crossingAtMs;

  if (ready?.message.includes(PLEG_NOT_HEALTHY) === true) happened.add('pleg-notready-posted');
  else if ((threshold.state === 'crossing' || threshold.state === 'unhealthy') && threshold.crossingAtMs !== undefined) {
    const post = after(threshold.crossingAtMs);
    if (post !== undefined) at['pleg-notready-posted'] = post;
  }

  const previous = session.ready.at(-2);
  if (ready?.status === 'True' && previous !== undefined && previous.status !== 'True') happened.add('ready-posted');
  else if (ready !== undefined && ready.status !== 'True' && (ready.message.includes(RUNTIME_DOWN) || ready.message.includes(PLEG_NOT_HEALTHY)) && openStall === undefined && threshold.state === 'healthy') {
    // NotReady for the runtime or PLEG, and now the runtime answers and PLEG is healthy: the next evaluation
    // posts Ready (a sync waiting in Version when the runtime came back evaluates at once).
    const post = after(stall?.untilMs ?? nowMs);
    if (post !== undefined) at['ready-posted'] = post;
  }
  return { at, happened };
}

/**
 * With a timeout of at least 30 s the first sync that starts in a hang posts "container runtime is down"
 * when its Version call gives up, and that sync starts within one pause (at most 10.4 s) of the stall: so
 * the post comes by stall + timeout + 10.4 s whatever the loop's phase (a dockershim kubelet's sync waits
 * 20 s more in cAdvisor's docker calls first: nodeStatusLoopShape.ts). When the phase we had is proved wrong
 * (its evaluation passed with no post), the post is put in the middle of what is left of that range
 * instead of a whole sync later.
 */
function firstHungPostBound(stall: RuntimeStall, loop: SyncLoopInput, predicted: number, nowMs: number): number {
  const shape = loop.shape ?? JITTERED_LOOP;
  const hungMs = hungSyncMs(shape, loop.runtimeRequestTimeoutMs);
  if (stall.kind !== 'hang' || stall.sinceMs + hungMs < runtimeDownFromMs(stall)) return predicted;
  const latest = stall.sinceMs + hungMs + (loop.updateFrequencyMs ?? NODE_STATUS_LOOP.updateFrequencyMs) * (1 + (shape.jittered ? NODE_STATUS_LOOP.jitterFactor : 0));
  if (predicted <= latest) return predicted;
  return nowMs >= latest ? nowMs : (nowMs + latest) / 2;
}

/** Records predictions as they are made: new, moved by ≥ 1 s, or withdrawn (null). */
export class PredictionTracker {
  private readonly current = new Map<PredictedEvent, number>();

  update(nowMs: number, predictions: PostPredictions): SessionPrediction[] {
    const out: SessionPrediction[] = [];
    for (const event of PREDICTED_EVENTS) {
      const next = predictions.at[event];
      const prev = this.current.get(event);
      if (next === undefined) {
        if (prev !== undefined) {
          this.current.delete(event);
          if (!predictions.happened.has(event)) out.push({ atMs: nowMs, event, predictedAtMs: null });
        }
        continue;
      }
      if (prev === undefined || Math.abs(next - prev) >= 1_000) {
        this.current.set(event, next);
        out.push({ atMs: nowMs, event, predictedAtMs: Math.round(next) });
      }
    }
    return out;
  }
}

/** The prediction in force for `event` just before `beforeMs`: the last one recorded earlier (null if withdrawn). */
export function predictionBefore(predictions: readonly SessionPrediction[], event: PredictedEvent, beforeMs: number): SessionPrediction | undefined {
  let found: SessionPrediction | undefined;
  for (const p of predictions) if (p.event === event && p.atMs < beforeMs) found = p;
  return found;
}
