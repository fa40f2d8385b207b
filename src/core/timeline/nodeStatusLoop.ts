// When the kubelet posts its Ready condition. The PLEG error and "container runtime is down" reach the
// API server only through the kubelet's node-status loop, and while the runtime hangs that loop is itself
// held up. From the kubelet source (docs/kubelet-node-status.md has the references):
//  - Run() starts `wait.JitterUntil(kl.syncNodeStatus, nodeStatusUpdateFrequency, 0.04, true, …)`:
//    a sliding loop, the next sync 10 s × (1 + up to 4 %) after the previous one returned;
//  - each sync runs the node status setters in order; VersionInfo calls the runtime's Version with the
//    runtime request timeout, and only after it does ReadyCondition read runtimeErrors() (PLEG's Healthy()
//    among them) — so while the runtime hangs, every sync waits the full timeout before it evaluates Ready;
//  - a sync PATCHes the status when it changed (or a minute after the last report), right after that;
//  - `wait.Until(kl.updateRuntimeUp, 5 s)` calls the runtime's Status; runtimeErrors() says "container
//    runtime is down" once the last successful Status is 30 s old (maxWaitForContainerRuntime).
// On the real cluster (runtime request timeout 30 s) this gives syncs 40.1–40.3 s apart while containerd
// is stopped, and the PLEG post 11–21 s after the crossing; with the default 2 min, 70–81 s after it.
// Dockershim kubelets wait longer per sync and do not jitter: nodeStatusLoopShape.ts, picked by version.

import { JITTERED_LOOP, nodeStatusLoopShape, type NodeStatusLoopShape } from './nodeStatusLoopShape';
import type { RuntimeStall } from './session';

export const NODE_STATUS_LOOP = {
  /** nodeStatusUpdateFrequency's default. */
  updateFrequencyMs: 10_000,
  /** JitterUntil's factor: the pause is updateFrequency × (1 + random × 0.04). */
  jitterFactor: 0.04,
  /** updateRuntimeUp's period. */
  runtimeUpPeriodMs: 5_000,
  /** maxWaitForContainerRuntime: how old the last successful Status may be before "container runtime is down". */
  runtimeDownAfterMs: 30_000,
} as const;

/** The mean pause between two syncs (the jitter's mean; the bare frequency for a loop without jitter). */
export function meanSyncPauseMs(updateFrequencyMs: number = NODE_STATUS_LOOP.updateFrequencyMs, shape: NodeStatusLoopShape = JITTERED_LOOP): number {
  return updateFrequencyMs * (1 + (shape.jittered ? NODE_STATUS_LOOP.jitterFactor / 2 : 0));
}

export interface SyncLoopInput {
  /** An instant the kubelet evaluated the node status (a post it made), or an estimate of one. */
  anchorMs: number;
  /** The runtime's stall, if any: syncs that start in it wait in Version until its timeout or the stall's end. */
  stall?: RuntimeStall;
  runtimeRequestTimeoutMs: number;
  updateFrequencyMs?: number;
  /** What a sync waits on, by kubelet version and runtime (default: the current kubelets'). */
  shape?: NodeStatusLoopShape;
}

/** At most this many syncs are looked at (a day at 10 s), so a bad input cannot loop for ever. */
const MAX_SYNCS = 10_000;

/**
 * The instants after `anchorMs` at which the kubelet evaluates its Ready condition (and posts it when it
 * changed), at the mean pause. Each call a sync makes to the runtime in turn (the shape's calls, then
 * Version) waits, when it starts while the runtime hangs, until its timeout or the stall's end; a refused
 * call fails at once. Ready is evaluated when the last of them returns.
 */
export function* syncEvaluations(input: SyncLoopInput): Generator<number> {
  const shape = input.shape ?? JITTERED_LOOP;
  const pause = meanSyncPauseMs(input.updateFrequencyMs, shape);
  const calls = [...shape.callsBeforeVersionMs, input.runtimeRequestTimeoutMs];
  const stall = input.stall;
  let evaluated = input.anchorMs;
  for (let i = 0; i < MAX_SYNCS; i++) {
    let at = evaluated + pause;
    for (const timeoutMs of calls) {
      const hangs = stall !== undefined && stall.kind === 'hang' && at >= stall.sinceMs && (stall.untilMs === undefined || at < stall.untilMs);
      if (hangs) at = stall.untilMs === undefined ? at + timeoutMs : Math.min(at + timeoutMs, stall.untilMs);
    }
    evaluated = at;
    yield evaluated;
  }
}

/** The first evaluation at or after `notBeforeMs`, or undefined when none comes within MAX_SYNCS. */
export function firstEvaluationFrom(input: SyncLoopInput, notBeforeMs: number): number | undefined {
  for (const at of syncEvaluations(input)) if (at >= notBeforeMs) return at;
  return undefined;
}

/**
 * When runtimeErrors() starts saying "container runtime is down" for a stall: 30 s after the last
 * successful Status call. updateRuntimeUp calls it every 5 s, so the last success came 0–5 s before the
 * stall: the middle of that range.
 */
export function runtimeDownFromMs(stall: RuntimeStall): number {
  return stall.sinceMs - NODE_STATUS_LOOP.runtimeUpPeriodMs / 2 + NODE_STATUS_LOOP.runtimeDownAfterMs;
}

/** What a session tells about the node-status loop at `nowMs`: its last known post and the runtime's stall. */
export interface SessionLoopView {
  kubeletVersion?: string;
  containerRuntimeVersion?: string;
  nodeStatusPosts?: readonly { atMs: number; source: 'watch' | 'heartbeat' }[];
  stalls?: readonly RuntimeStall[];
  settings: { runtimeRequestTimeoutMs: number; nodeStatusUpdateFrequencyMs?: number };
}

/**
 * The loop as far as the session knows it at `nowMs`: anchored on the last post seen (a heartbeat, kept to
 * the second by the API, is taken at the middle of its second), else on an even chance of where the
 * loop is: half a pause before the stall began, or before now.
 */
export function syncLoopOf(session: SessionLoopView, nowMs: number): SyncLoopInput & { anchored: boolean } {
  const updateFrequencyMs = session.settings.nodeStatusUpdateFrequencyMs ?? NODE_STATUS_LOOP.updateFrequencyMs;
  const shape = nodeStatusLoopShape(session.kubeletVersion, session.containerRuntimeVersion);
  let stall: RuntimeStall | undefined;
  for (const s of session.stalls ?? []) if (s.sinceMs <= nowMs) stall = s;
  let post: { atMs: number; source: 'watch' | 'heartbeat' } | undefined;
  for (const p of session.nodeStatusPosts ?? []) if (p.atMs <= nowMs && (post === undefined || p.atMs >= post.atMs)) post = p;
  const base = { runtimeRequestTimeoutMs: session.settings.runtimeRequestTimeoutMs, updateFrequencyMs, shape, ...(stall !== undefined ? { stall } : {}) };
  if (post !== undefined) return { ...base, anchorMs: post.source === 'heartbeat' ? post.atMs + 500 : post.atMs, anchored: true };
  const half = meanSyncPauseMs(updateFrequencyMs, shape) / 2;
  return { ...base, anchorMs: (stall !== undefined && stall.untilMs === undefined ? stall.sinceMs : nowMs) - half, anchored: false };
}
