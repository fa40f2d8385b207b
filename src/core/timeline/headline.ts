// What the timeline's headline states: the node's state now (a live session: the Ready condition the API
// server reported last) or at a recording's end. The verdict is not judged here: the session's last Ready
// condition is handed to classifyNode, the classifier behind the tree, the report's headline and the CLI,
// so the surfaces cannot disagree on one condition. With it goes node-problem-detector's PLEGAtRisk as the
// session last saw it, so a Ready node at risk heads the panel as it heads the tree's row and the report.
// The host words it (src/host/timeline/timelineHeadline.ts).

import { classifyNode } from '../classify/classifyNode';
import type { Verdict } from '../classify/types';
import type { KubeNode } from '../kube/objects';
import type { SessionAtRisk, SessionReady, TimelineSession } from './session';
import type { PlegAtRisk } from '../npd/atRiskCondition';

export interface HeadlineState {
  /** The classifier's verdict; null when the session holds no Ready condition. */
  verdict: Verdict | null;
  ready?: SessionReady;
  /** Epoch ms since which the Ready status has been what it is (the condition's lastTransitionTime). */
  sinceEpochMs?: number;
  /**
   * True when the transition time is known: seen in the session, or stated by the API server (the condition's
   * lastTransitionTime, kept with the session's first reading). False: the status was already so at the
   * session's first Ready entry and no transition time came with it, so sinceEpochMs is only a lower bound.
   */
  sinceKnown?: boolean;
  /** Epoch ms of the session's end: now for a live session. */
  atEpochMs: number;
  /** PLEGAtRisk as the classifier read it from the session's last entry, when the session has one. */
  atRisk?: PlegAtRisk;
}

/**
 * The last Ready condition as the API server would show it, with the start of the run of entries that
 * have its status as its lastTransitionTime (the classifier needs it to tell a start-up transient from a
 * lasting error): a transition the session saw, else the lastTransitionTime the API server gave with the
 * run's first entry (ms from the session's start, negative before it). Undefined when the session has no
 * Ready entry.
 */
export function lastReadyCondition(session: TimelineSession): { ready: SessionReady; transitionMs: number; seen: boolean; known: boolean } | undefined {
  const entries = session.ready;
  const last = entries.at(-1);
  if (last === undefined) return undefined;
  let from = entries.length - 1;
  while (from > 0 && entries[from - 1]?.status === last.status) from--;
  const first = entries[from] ?? last;
  if (from > 0) return { ready: last, transitionMs: first.atMs, seen: true, known: true };
  const stated = Date.parse(first.lastTransitionTime ?? '') - Date.parse(session.startedAt);
  // A stated time after the reading it came with is not a transition before the session: not used.
  if (Number.isFinite(stated) && stated <= first.atMs) return { ready: last, transitionMs: stated, seen: false, known: true };
  return { ready: last, transitionMs: first.atMs, seen: false, known: false };
}

export function headlineState(session: TimelineSession): HeadlineState {
  const base = Date.parse(session.startedAt);
  const epoch = (ms: number): number => (Number.isFinite(base) ? base : 0) + ms;
  const atEpochMs = epoch(session.durationMs);
  const last = lastReadyCondition(session);
  if (last === undefined) return { verdict: null, atEpochMs };
  const { ready, transitionMs, known } = last;
  const sinceEpochMs = epoch(transitionMs);
  // An unknown transition is not made up: the classifier is given none rather than a wrong one.
  const condition = { type: 'Ready', status: ready.status, reason: ready.reason, message: ready.message, ...(known ? { lastTransitionTime: new Date(sinceEpochMs).toISOString() } : {}) };
  const risk = session.atRisk?.at(-1);
  const node: KubeNode = { metadata: { name: session.node }, status: { conditions: [condition, ...(risk !== undefined ? [atRiskCondition(risk)] : [])] } };
  const c = classifyNode(node, new Date(atEpochMs));
  return { verdict: c.verdict, ready, sinceEpochMs, sinceKnown: known, atEpochMs, ...(c.atRisk !== undefined ? { atRisk: c.atRisk } : {}) };
}

/** The PLEGAtRisk condition of a session entry, as the API server gave it. */
function atRiskCondition(r: SessionAtRisk): NonNullable<NonNullable<KubeNode['status']>['conditions']>[number] {
  return {
    type: 'PLEGAtRisk',
    status: r.status,
    reason: r.reason,
    message: r.message,
    ...(r.lastTransitionTime !== undefined ? { lastTransitionTime: r.lastTransitionTime } : {}),
    ...(r.lastHeartbeatTime !== undefined ? { lastHeartbeatTime: r.lastHeartbeatTime } : {}),
  };
}
