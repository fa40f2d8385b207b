// What a client makes of the agent's answers (docs/agent.md, written by src/infra/agent/agentServer.ts):
// `/v1/session?since=CURSOR` → deltas to apply, or "read the whole session again" (410: the cursor is older
// than the agent's window or from before a restart); and how old the agent's last diagnosis is, so that a
// snapshot taken two minutes ago is never shown as if it were taken now.

import type { SessionDelta } from '../timeline/session';
import { formatGoDurationMs } from '../util/goDuration';

export type SinceStep =
  | { kind: 'deltas'; cursor: string; deltas: SessionDelta[] }
  | { kind: 'reread'; reason: string }
  | { kind: 'error'; message: string };

function errorField(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}

/** The agent's answer to `/v1/session?since=CURSOR` (status and body) as the next step of a follower. */
export function sinceStep(status: number, body: string): SinceStep {
  if (status === 410) return { kind: 'reread', reason: errorField(body) ?? 'the agent no longer holds the cursor (410)' };
  // 400: a cursor this agent never issued (say, one of a replaced pod): starting over is the only way on.
  if (status === 400) return { kind: 'reread', reason: `the agent refused the cursor: ${errorField(body) ?? body.trim().slice(0, 200)}` };
  if (status !== 200) return { kind: 'error', message: `the agent answered HTTP ${status}: ${errorField(body) ?? body.trim().slice(0, 200)}` };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: 'error', message: `the agent's answer is not JSON: ${body.slice(0, 120)}` };
  }
  const o = parsed as { cursor?: unknown; deltas?: unknown };
  if (typeof o.cursor !== 'string' || o.cursor === '' || !Array.isArray(o.deltas)) return { kind: 'error', message: 'the agent\u2019s answer has no cursor or no deltas array' };
  const bad = o.deltas.findIndex((d) => typeof d !== 'object' || d === null || typeof (d as { durationMs?: unknown }).durationMs !== 'number');
  if (bad >= 0) return { kind: 'error', message: `the agent's delta ${bad} has no durationMs` };
  return { kind: 'deltas', cursor: o.cursor, deltas: o.deltas as SessionDelta[] };
}

export interface SnapshotAge {
  ageMs: number;
  /** "taken 1m10s ago by the agent". */
  text: string;
  /** "taken 1m10s ago": for a label that already names the agent pod. */
  ago: string;
}

/**
 * How long before `nowMs` the agent took its last diagnosis (`collectedAt`, ISO 8601), floored to the
 * second. A time ahead of `nowMs` (the node's clock is ahead of this one) reads "just now" with the skew
 * said, never a negative age; an unreadable time is an error, not a fresh snapshot.
 */
export function snapshotAge(collectedAt: string, nowMs: number): SnapshotAge {
  const at = Date.parse(collectedAt);
  if (!Number.isFinite(at)) throw new Error(`the agent's diagnosis has no readable collectedAt (${JSON.stringify(collectedAt)})`);
  const ageMs = nowMs - at;
  if (ageMs < 0) {
    const skew = `its clock is ${formatGoDurationMs(Math.ceil(-ageMs / 1000) * 1000)} ahead of this one`;
    return { ageMs: 0, text: `taken just now by the agent (${skew})`, ago: `taken just now (${skew})` };
  }
  const ago = `taken ${formatGoDurationMs(Math.floor(ageMs / 1000) * 1000)} ago`;
  return { ageMs, text: `${ago} by the agent`, ago };
}
