// When the runtime stopped answering, from the feed's own CRI calls (serial, like the kubelet's relist):
// a call still waiting well past what the runtime usually takes, or one that hit its deadline, opens a
// `hang`; calls refused at once (the socket is gone) open a `refused`; any answer closes the stall. The
// stall's start is put between the last answer and the waiting call's start (the runtime froze somewhere
// in that gap), at most a second before the call.

import type { RuntimeStall } from './session';

export type CallOutcome = 'ok' | 'deadline' | 'refused' | 'error';

/** A waiting call counts as a hang after max(this, 5 × the slowest recent answer), at most its deadline. */
export const MIN_STALL_MS = 2_000;
const RECENT = 20;
const MAX_GAP_MS = 1_000;

export class StallDetector {
  private pendingSinceMs: number | undefined;
  private lastAnswerMs: number | undefined;
  private readonly recent: number[] = [];
  private open: RuntimeStall | undefined;

  constructor(private readonly deadlineMs: () => number) {}

  /** The stall in progress, if any. */
  get current(): RuntimeStall | undefined {
    return this.open;
  }

  callStarted(atMs: number): void {
    this.pendingSinceMs = atMs;
  }

  /** A call ended; returns the stall when it opened or closed. */
  callEnded(atMs: number, outcome: CallOutcome): RuntimeStall | undefined {
    const started = this.pendingSinceMs ?? atMs;
    this.pendingSinceMs = undefined;
    if (outcome === 'ok' || outcome === 'error') {
      if (outcome === 'ok') {
        this.recent.push(atMs - started);
        if (this.recent.length > RECENT) this.recent.shift();
      }
      this.lastAnswerMs = atMs;
      if (this.open === undefined) return undefined;
      this.open = { ...this.open, untilMs: atMs };
      const closed = this.open;
      this.open = undefined;
      return closed;
    }
    if (this.open !== undefined) return undefined;
    this.open = { sinceMs: this.sinceFor(started), kind: outcome === 'deadline' ? 'hang' : 'refused' };
    return this.open;
  }

  /** While a call waits: opens a hang once it has waited past the limit. */
  check(atMs: number): RuntimeStall | undefined {
    if (this.open !== undefined || this.pendingSinceMs === undefined) return undefined;
    if (atMs - this.pendingSinceMs < this.limitMs()) return undefined;
    this.open = { sinceMs: this.sinceFor(this.pendingSinceMs), kind: 'hang' };
    return this.open;
  }

  private limitMs(): number {
    const slowest = this.recent.length > 0 ? Math.max(...this.recent) : 0;
    return Math.min(this.deadlineMs(), Math.max(MIN_STALL_MS, 5 * slowest));
  }

  private sinceFor(callStartMs: number): number {
    return stallStartBetween(this.lastAnswerMs, callStartMs);
  }
}

/** Where a stall is put: between the last answer and the start of the call that got none, at most MAX_GAP_MS before the call. */
export function stallStartBetween(lastAnswerMs: number | undefined, callStartMs: number): number {
  const from = Math.max(lastAnswerMs ?? callStartMs, callStartMs - MAX_GAP_MS);
  return Math.round((from + callStartMs) / 2);
}
