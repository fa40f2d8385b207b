// The agent's timeline session and the deltas that built it, for GET /v1/session: the whole session (the
// format the panel exports and opens) or, from a cursor, the deltas after it (applySessionDelta in order
// gives the same session the agent holds). The agent runs for weeks: both are kept for `retainMs` only,
// the state lanes (health, Ready, stalls) keeping their last change before the window so that the
// current state is never dropped. A cursor names its agent run (t = 0 in ms) so that a client holding
// one from before a restart is told to start over.

import { applySessionDelta, type SessionDelta, type TimelineSession } from '../timeline/session';

export type SinceAnswer =
  | { kind: 'deltas'; cursor: string; deltas: SessionDelta[] }
  /** The cursor is older than the window, or from another run of the agent: read the whole session. */
  | { kind: 'gone'; reason: string }
  | { kind: 'bad'; reason: string };

export class SessionLog {
  private readonly entries: { seq: number; delta: SessionDelta }[] = [];
  private seq = 0;
  /** The first sequence number the window no longer holds (deltas up to it were dropped). */
  private droppedThrough = 0;
  private readonly run: string;

  constructor(
    readonly session: TimelineSession,
    private readonly retainMs: number,
  ) {
    if (!(retainMs > 0)) throw new RangeError(`session retention must be positive, got ${retainMs} ms`);
    this.run = String(Date.parse(session.startedAt));
  }

  get cursor(): string {
    return `${this.run}-${this.seq}`;
  }

  apply(delta: SessionDelta): void {
    applySessionDelta(this.session, delta);
    this.entries.push({ seq: ++this.seq, delta });
    const cutoff = this.session.durationMs - this.retainMs;
    // In batches (a tenth of the window past the cutoff), so that trimming costs nothing per delta.
    const first = this.entries[0];
    if (first !== undefined && first.delta.durationMs < cutoff - this.retainMs / 10) {
      const keep = this.entries.findIndex((e) => e.delta.durationMs >= cutoff);
      const dropped = this.entries.splice(0, keep < 0 ? this.entries.length : keep);
      this.droppedThrough = dropped.at(-1)?.seq ?? this.droppedThrough;
      trimSession(this.session, cutoff);
    }
  }

  since(cursor: string): SinceAnswer {
    const m = /^(\d+)-(\d+)$/u.exec(cursor);
    if (m === null) return { kind: 'bad', reason: `since: ${JSON.stringify(cursor)} is not a cursor of this agent (RUN-SEQ, as the last answer's cursor)` };
    if (m[1] !== this.run) return { kind: 'gone', reason: 'the cursor is from an earlier run of the agent (it restarted): read /v1/session again' };
    const seq = Number(m[2]);
    if (seq > this.seq) return { kind: 'bad', reason: `since: cursor ${seq} is ahead of this agent (at ${this.seq})` };
    if (seq < this.droppedThrough) return { kind: 'gone', reason: `the cursor is older than the ${this.retainMs / 1000} s the agent keeps: read /v1/session again` };
    return { kind: 'deltas', cursor: this.cursor, deltas: this.entries.filter((e) => e.seq > seq).map((e) => e.delta) };
  }
}

/** Drops what ended before `cutoffMs`; a state lane keeps its last change before it (the state then). */
export function trimSession(session: TimelineSession, cutoffMs: number): void {
  const drop = <T>(list: T[] | undefined, at: (x: T) => number, keepLastBefore: boolean): void => {
    if (list === undefined) return;
    let n = 0;
    while (n < list.length && at(list[n] as T) < cutoffMs) n++;
    if (keepLastBefore && n > 0) n--;
    list.splice(0, n);
  };
  drop(session.relists, (r) => r.endMs, false);
  drop(session.podEvents, (e) => e.atMs, false);
  drop(session.kubelet, (k) => k.atMs, false);
  drop(session.cost, (c) => c.atMs, false);
  drop(session.nodeStatusPosts, (p) => p.atMs, false);
  drop(session.predictions, (p) => p.atMs, false);
  drop(session.health, (h) => h.atMs, true);
  drop(session.ready, (r) => r.atMs, true);
  drop(session.atRisk, (r) => r.atMs, true);
  drop(session.stalls, (s) => s.untilMs ?? Infinity, false);
}
