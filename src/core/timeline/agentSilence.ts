// The panel on a node agent's session (host/timeline/liveSource.ts), with the editor's own watch of the Node
// beside it. The agent's session reaches the editor through a pod port-forward, and the kubelet serves a
// port-forward by asking the runtime first (CRI RuntimeService/PortForward, from the kubelet's
// GetPortForward in pkg/kubelet/kuberuntime/kuberuntime_manager.go): while the runtime hangs, the agent
// is silent, exactly when its story matters. One source per fact, so the panel and the tree agree:
//  - the Node's facts (Ready, PLEGAtRisk, the kubelet's status posts) come from the editor's watch from the
//    moment it started: it reaches the editor through the API server, as the tree's watch does, and a
//    frozen runtime does not stop it. The agent records the same facts from its own watch; its record is
//    kept only for the time before the editor watched (a panel opened on a session that began earlier),
//    and its later entries are dropped rather than shown twice at slightly different instants;
//  - what is read on the node (relists, Healthy(), stalls, metrics, settings, versions, predictions) stays
//    the agent's: the editor cannot see it.

import { RUNTIME_DOWN } from './postPredictions';
import { MIN_STALL_MS, stallStartBetween } from './runtimeStall';
import type { NodeStatusPost, RuntimeStall, SessionAtRisk, SessionDelta, SessionReady, TimelineSession } from './session';

/** The Node's facts as the editor's watch recorded them, at epoch ms: they outlive a replaced session. */
export interface EditorNodeFacts {
  /** When the editor's watch started: the agent's own record of these facts is kept only before it. */
  fromEpochMs: number;
  ready: SessionReady[];
  atRisk: SessionAtRisk[];
  nodeStatusPosts: NodeStatusPost[];
}

export function newEditorNodeFacts(fromEpochMs: number): EditorNodeFacts {
  return { fromEpochMs, ready: [], atRisk: [], nodeStatusPosts: [] };
}

/** Notes what a delta of the editor's watch adds (session ms, t = 0 at `zeroEpochMs`). */
export function recordNodeFacts(facts: EditorNodeFacts, delta: SessionDelta, zeroEpochMs: number): void {
  const epoch = <T extends { atMs: number }>(e: T): T => ({ ...e, atMs: e.atMs + zeroEpochMs });
  facts.ready.push(...(delta.ready ?? []).map(epoch));
  facts.atRisk.push(...(delta.atRisk ?? []).map(epoch));
  facts.nodeStatusPosts.push(...(delta.nodeStatusPosts ?? []).map(epoch));
}

/** An agent's delta without the facts the editor's watch holds. */
export function withoutNodeFacts(delta: SessionDelta): SessionDelta {
  const { ready: _ready, atRisk: _atRisk, nodeStatusPosts: _posts, ...rest } = delta;
  return rest;
}

/** The agent's whole session with the Node's facts the editor's watch recorded from its start on. */
export function withNodeFacts(session: TimelineSession, facts: EditorNodeFacts): TimelineSession {
  const zero = Date.parse(session.startedAt);
  const before = facts.fromEpochMs - zero;
  const here = <T extends { atMs: number }>(e: T): T => ({ ...e, atMs: e.atMs - zero });
  const merged = <T extends { atMs: number }>(agent: readonly T[] | undefined, editor: readonly T[]): T[] => [...(agent ?? []).filter((e) => e.atMs < before), ...editor.map(here)];
  const latest = Math.max(session.durationMs, ...[...facts.ready, ...facts.atRisk, ...facts.nodeStatusPosts].map((e) => e.atMs - zero));
  return {
    ...session,
    durationMs: latest,
    ready: merged(session.ready, facts.ready),
    atRisk: merged(session.atRisk, facts.atRisk),
    nodeStatusPosts: merged(session.nodeStatusPosts, facts.nodeStatusPosts),
  };
}

/** The agent's silence as the editor's polls saw it (session ms). */
export interface AgentSilence {
  /** When the last poll that answered returned. */
  lastAnswerMs: number;
  /** The first poll that got no answer: when it started, and how long it waited before it failed. */
  failedPollStartMs: number;
  failedPollWaitedMs: number;
}

/**
 * What the editor may say of the runtime while the agent is silent. A failed port-forward alone says
 * nothing about it (the API server, the network or the agent's pod may be at fault): no stall. Once the
 * kubelet posts "container runtime is down" after the agent's last answer, the kubelet itself states that
 * its runtime calls fail; the stall is then put where the silence began, as the feed's own detector puts
 * one (between the last answer and the call that got none: the port-forward asked the runtime too), a
 * `hang` when that poll waited past the detector's limit before failing, `refused` when it failed at once.
 * Undefined when the session already holds an open stall (the agent's own, seen before it fell silent).
 */
export function stallOfSilence(session: Pick<TimelineSession, 'ready' | 'stalls'>, silence: AgentSilence): RuntimeStall | undefined {
  const open = session.stalls?.at(-1);
  if (open !== undefined && open.untilMs === undefined) return undefined;
  const stated = session.ready.some((r) => r.atMs >= silence.lastAnswerMs && r.status === 'False' && r.message.includes(RUNTIME_DOWN));
  if (!stated) return undefined;
  return {
    sinceMs: stallStartBetween(silence.lastAnswerMs, silence.failedPollStartMs),
    kind: silence.failedPollWaitedMs >= MIN_STALL_MS ? 'hang' : 'refused',
    seenBy: 'kubelet',
  };
}
