// What classification says about one Node. Produced by classifyNode() (src/core/classify/classifyNode.ts),
// consumed by the tree view, the CLI and the diagnostics.

import type { PlegAtRisk } from '../npd/atRiskCondition';

/**
 * The verdict, most specific first. `pleg` wins over `runtime-down` when both appear in one Ready message,
 * because the PLEG error is what the user came for; the other errors stay in `errors`.
 */
export type Verdict =
  | 'ready'
  /** Ready=True, and node-problem-detector's PLEGAtRisk=True: pleg-doctor predicts a PLEG NotReady (issue #28's monitor). */
  | 'pleg-at-risk'
  | 'pleg' // Ready=False with "PLEG is not healthy" (or EventedPLEG is not healthy)
  | 'runtime-down' // "container runtime is down" / "container runtime not ready"
  | 'startup' // "container runtime status check may not have completed yet" / PLEG has yet to be successful just after start
  | 'network' // NetworkReady=false / NetworkUnavailable=True
  | 'lease-lost' // Ready=Unknown: the kubelet stopped posting status
  | 'not-ready-other';

export const VERDICTS: readonly Verdict[] = [
  'ready',
  'pleg-at-risk',
  'pleg',
  'runtime-down',
  'startup',
  'network',
  'lease-lost',
  'not-ready-other',
];

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';

/** One error found in the Ready message (the kubelet joins several). */
export interface ReadyError {
  kind:
    | 'pleg-stale' // R1
    | 'pleg-never' // R2
    | 'evented-pleg-full' // R3
    | 'runtime-down' // R4 first form
    | 'runtime-status-pending' // R4 second form
    | 'runtime-not-ready' // R5
    | 'network-not-ready' // R5 network form
    | 'capacity-missing' // R6
    | 'shutting-down' // R6
    | 'other';
  text: string;
  /** pleg-stale: the Go duration after "last seen active", verbatim (e.g. `3m46.752815514s`). */
  lastSeenAgo?: string;
  /** pleg-stale: the Go duration after "threshold is", verbatim (e.g. `3m0s`). */
  threshold?: string;
  /** evented-pleg-full: the number of events in the full channel. */
  channelEvents?: number;
}

export interface NodeClassification {
  name: string;
  verdict: Verdict;
  /** One line for the tree's description, e.g. "PLEG not healthy (3m46s > 3m0s)". */
  summary: string;
  /** The kubelet's own Ready message (or the controller's), verbatim; an explanation when there is none. */
  message: string;
  readyStatus: 'True' | 'False' | 'Unknown' | 'missing';
  readyReason?: string;
  /** lastTransitionTime of the Ready condition, ISO 8601. */
  since?: string;
  cordoned: boolean;
  pressures: PressureCondition[];
  errors: ReadyError[];
  /** Seconds since the last successful relist start; null when the kubelet says it never succeeded. */
  plegLastSeenAgoSeconds?: number | null;
  plegThresholdSeconds?: number;
  versions: { kubelet?: string; runtime?: string; kernel?: string; osImage?: string };
  pods: { capacity?: number; allocatable?: number };
  taints: string[];
  /** NetworkUnavailable=True (set by the cloud provider or CNI; not by the kubelet's Ready setter). */
  networkUnavailable?: boolean;
  /** lastHeartbeatTime of the Ready condition, ISO 8601: how fresh the kubelet's (or controller's) report is. */
  lastHeartbeat?: string;
  /**
   * node-problem-detector's PLEGAtRisk condition, when the Node has one. Its own verdict only while Ready=True;
   * next to a NotReady verdict it is still shown (the tooltip), the kubelet's words lead.
   */
  atRisk?: PlegAtRisk;
  /** Problems with the input itself (no conditions, unparsable duration...). Never thrown. */
  warnings: string[];
}
