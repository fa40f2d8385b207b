// The typed message channel between the host and the timeline webview. Both sides import this file;
// the host validates every inbound message at runtime (isWebviewMessage), because a webview is
// untrusted input like any other.

export type KubeletLine = '1.26' | '1.32';

/** The what-if knobs the user can turn. Units are in the names. */
export interface WhatIfParams {
  pods: number;
  containersPerPod: number;
  /** Typical latency of one CRI call. */
  rpcLatencyMs: number;
  /** Pods whose containers change in an average relist (churn). */
  changedPodsPerRelist: number;
  /** Freeze the runtime (SIGSTOP-like) at this time; 0 = no freeze. */
  freezeAtS: number;
  freezeForS: number;
  durationS: number;
  kubelet: KubeletLine;
}

export interface TimelineRelist {
  startMs: number;
  durationMs: number;
  ok: boolean;
}

export interface TimeWindow {
  fromMs: number;
  toMs: number;
}

export interface TimelineData {
  title: string;
  thresholdMs: number;
  relists: TimelineRelist[];
  /** Windows where Healthy() returned an error. */
  unhealthy: TimeWindow[];
  /** Windows where the node's Ready condition was False. */
  notReady: TimeWindow[];
  /** Plain-language findings, e.g. "threshold crossed 179 s after the freeze". */
  notes: string[];
}

export type HostToWebview =
  | { type: 'init'; strings: Record<string, string>; params: WhatIfParams }
  | { type: 'timeline'; requestId: number; data: TimelineData }
  | { type: 'error'; requestId: number; message: string };

export type WebviewToHost = { type: 'ready' } | { type: 'simulate'; requestId: number; params: WhatIfParams };

const LIMITS: Record<Exclude<keyof WhatIfParams, 'kubelet'>, [number, number]> = {
  pods: [0, 1000],
  containersPerPod: [0, 50],
  rpcLatencyMs: [0, 600_000],
  changedPodsPerRelist: [0, 1000],
  freezeAtS: [0, 86_400],
  freezeForS: [0, 86_400],
  durationS: [1, 86_400],
};

/** Returns a reason when the params are not acceptable, or undefined when they are. */
export function whatIfParamsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'params must be an object';
  const record = value as Record<string, unknown>;
  for (const [key, [min, max]] of Object.entries(LIMITS)) {
    const n = record[key];
    if (typeof n !== 'number' || !Number.isFinite(n)) return `${key} must be a number`;
    if (n < min || n > max) return `${key} must be between ${min} and ${max}`;
  }
  if (record['kubelet'] !== '1.26' && record['kubelet'] !== '1.32') return 'kubelet must be "1.26" or "1.32"';
  return undefined;
}

export function isWebviewMessage(value: unknown): value is WebviewToHost {
  if (typeof value !== 'object' || value === null) return false;
  const msg = value as Record<string, unknown>;
  switch (msg['type']) {
    case 'ready':
      return true;
    case 'simulate':
      return Number.isInteger(msg['requestId']) && whatIfParamsProblem(msg['params']) === undefined;
    default:
      return false;
  }
}
