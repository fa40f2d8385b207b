// What the timeline's headline states: the node's state now (a live session: the Ready condition the API
// server reported last) or at a recording's end. The verdict is not judged here: the session's last Ready
// condition is handed to classifyNode, the classifier behind the tree, the report's headline and the CLI,
// so the surfaces cannot disagree on one condition. The host words it (src/host/timeline/timelineHeadline.ts).

import { classifyNode } from '../classify/classifyNode';
import type { Verdict } from '../classify/types';
import type { KubeNode } from '../kube/objects';
import type { SessionReady, TimelineSession } from './session';

export interface HeadlineState {
  /** The classifier's verdict; null when the session holds no Ready condition. */
  verdict: Verdict | null;
  ready?: SessionReady;
  /** Epoch ms since which the Ready status has been what it is (the condition's lastTransitionTime). */
  sinceEpochMs?: number;
  /**
   * False when the status was already so at the session's first Ready entry: the transition came before
   * the session, and sinceEpochMs is only a lower bound (the session's first reading).
   */
  sinceSeen?: boolean;
  /** Epoch ms of the session's end: now for a live session. */
  atEpochMs: number;
}

/**
 * The last Ready condition as the API server would show it, with the start of the run of entries that
 * have its status as its lastTransitionTime (the classifier needs it to tell a start-up transient from a
 * lasting error). Undefined when the session has no Ready entry.
 */
export function lastReadyCondition(session: TimelineSession): { ready: SessionReady; transitionMs: number; seen: boolean } | undefined {
  const entries = session.ready;
  const last = entries.at(-1);
  if (last === undefined) return undefined;
  let from = entries.length - 1;
  while (from > 0 && entries[from - 1]?.status === last.status) from--;
  return { ready: last, transitionMs: entries[from]?.atMs ?? last.atMs, seen: from > 0 };
}

export function headlineState(session: TimelineSession): HeadlineState {
  const base = Date.parse(session.startedAt);
  const epoch = (ms: number): number => (Number.isFinite(base) ? base : 0) + ms;
  const atEpochMs = epoch(session.durationMs);
  const last = lastReadyCondition(session);
  if (last === undefined) return { verdict: null, atEpochMs };
  const { ready, transitionMs, seen } = last;
  const sinceEpochMs = epoch(transitionMs);
  // A transition before the session is unknown: the classifier is given none rather than a wrong one.
  const condition = { type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, ...(seen ? { lastTransitionTime: new Date(sinceEpochMs).toISOString() } : {}) };
  const node: KubeNode = { metadata: { name: session.node }, status: { conditions: [condition] } };
  return { verdict: classifyNode(node, new Date(atEpochMs)).verdict, ready, sinceEpochMs, sinceSeen: seen, atEpochMs };
}
