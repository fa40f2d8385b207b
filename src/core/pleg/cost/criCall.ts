// One CRI call on a virtual clock: it takes its nominal latency, stretched by any window in which the
// runtime is frozen, and fails with DEADLINE_EXCEEDED once runtimeRequestTimeout has passed. A frozen
// runtime is not an error by itself: a call in flight completes right after the runtime resumes, which
// is what the real kubelet showed when containerd got SIGCONT.

export type CriRpc = 'ListPodSandbox' | 'ListContainers' | 'PodSandboxStatus' | 'ContainerStatus' | 'Status' | 'Version';

/** The runtime answers nothing from startMs until startMs + durationMs (SIGSTOP, a deadlocked daemon). */
export interface HangWindow {
  startMs: number;
  durationMs: number;
}

/** The gRPC status text the kubelet logs for a call that hit its deadline. */
export const DEADLINE_EXCEEDED_TEXT = 'rpc error: code = DeadlineExceeded desc = context deadline exceeded';

/** Kubelet default (`runtimeRequestTimeout`). */
export const DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS = 120_000;

export interface CallOutcome {
  endMs: number;
  ok: boolean;
  /** Set when the deadline cut the call short. */
  error?: string;
}

/**
 * When a call issued at `startMs` with `latencyMs` of work finishes, given the runtime's hang windows
 * (sorted by start, non-overlapping) and the per-call deadline. Work done before a freeze counts; the
 * rest resumes with the runtime.
 */
export function criCallOutcome(startMs: number, latencyMs: number, hangs: readonly HangWindow[], timeoutMs: number): CallOutcome {
  let t = startMs;
  let remaining = Math.max(0, latencyMs);
  for (const h of hangs) {
    const hEnd = h.startMs + h.durationMs;
    if (hEnd <= t) continue;
    if (h.startMs >= t + remaining) break;
    // The call is still working when this freeze begins (or it was issued into the freeze).
    remaining -= Math.max(0, h.startMs - t);
    t = hEnd;
  }
  const endMs = t + remaining;
  if (endMs - startMs > timeoutMs) return { endMs: startMs + timeoutMs, ok: false, error: DEADLINE_EXCEEDED_TEXT };
  return { endMs, ok: true };
}

/** True when the runtime is frozen at `atMs`. */
export function isHung(atMs: number, hangs: readonly HangWindow[]): boolean {
  for (const h of hangs) if (atMs >= h.startMs && atMs < h.startMs + h.durationMs) return true;
  return false;
}

/** Checks hang windows: finite, non-negative durations, sorted and non-overlapping. */
export function validateHangWindows(hangs: readonly HangWindow[], where: string): void {
  let prevEnd = Number.NEGATIVE_INFINITY;
  hangs.forEach((h, i) => {
    if (!Number.isFinite(h.startMs) || !Number.isFinite(h.durationMs) || h.durationMs < 0) {
      throw new RangeError(`${where}[${i}]: a hang window needs a finite start and a non-negative duration`);
    }
    if (h.startMs < prevEnd) throw new RangeError(`${where}[${i}]: hang windows must be sorted and must not overlap`);
    prevEnd = h.startMs + h.durationMs;
  });
}
