// Reconnect delays: exponential from `initialMs`, capped at `maxMs`, with jitter so that many contexts
// (or many editors against one cluster) do not reconnect in lockstep after an apiserver restart.

export interface BackoffOptions {
  initialMs: number;
  maxMs: number;
  /** Fraction of the delay that is randomized (0 = none, 0.5 = delay is in [50 %, 100 %] of the step). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 30_000, jitter: 0.5 };

/** Delay before reconnect attempt `attempt` (1-based). `random` returns [0, 1). */
export function backoffDelay(attempt: number, options: BackoffOptions = DEFAULT_BACKOFF, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(attempt));
  // 2^30 is far past any cap; clamping the exponent keeps the arithmetic finite.
  const step = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(n - 1, 30));
  const jitter = Math.min(1, Math.max(0, options.jitter));
  return Math.round(step * (1 - jitter * random()));
}
