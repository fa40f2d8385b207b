// Deadlines that always fire. On Node 20, AbortSignal.timeout() is held only weakly by its own timer, and
// AbortSignal.any() does not hold its sources either: a timeout signal combined with any() is dropped by
// the next garbage collection and the deadline never comes (nodejs/node#57736). That is how
// `pleg-doctor timeline --for 2s` recorded for a minute under CI's memory pressure. These signals are held
// by their timer until it fires; the timer does not keep the process alive, as with AbortSignal.timeout().

/** Aborts with a TimeoutError after `ms`, like AbortSignal.timeout(), but survives garbage collection. */
export function timeoutSignal(ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`The operation timed out after ${ms} ms`, 'TimeoutError')), ms);
  (timer as { unref?: () => void }).unref?.();
  return controller.signal;
}

/** `signal` (when given) or a deadline of `ms`, whichever aborts first. */
export function withDeadline(signal: AbortSignal | undefined, ms: number): AbortSignal {
  const deadline = timeoutSignal(ms);
  return signal === undefined ? deadline : AbortSignal.any([signal, deadline]);
}
