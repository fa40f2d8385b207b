// A recorded (or live, still growing) PLEG timeline of one node: what the model did on the node's real
// runtime data, and what the kubelet itself reported through its metrics and the node's Ready condition.
// One format serves the live panel, its JSON export, `pleg-doctor timeline --out`, and replay. Plain JSON:
// times are ms after `startedAt` (t = 0), the first instant the feed ran.

import type { OnDemandGate } from '../pleg/onDemandGate';
import type { CriRpc } from '../pleg/cost/criCall';
import type { KubeletProfileId } from '../pleg/types';

export const TIMELINE_SESSION_FORMAT = 'pleg-doctor-timeline/1';

/** Where the session's data came from. */
export type SessionSource =
  /** The live feed: CRI over SSH (relists) and/or the kubelet through the API server (metrics). */
  | 'live'
  /** A series of saved /metrics scrapes (an evidence folder such as ../shared/fixtures/real-kubelet-1.32). */
  | 'metrics-series'
  /** `pleg-doctor simulate` output converted for the panel. */
  | 'simulation';

/** One real (or simulated) CRI call the model's relist made. */
export interface RpcSample {
  rpc: CriRpc;
  /** Offset from the relist start. */
  atMs: number;
  latencyMs: number;
  /** The runtime's error text, or "deadline exceeded after N ms". */
  error?: string;
  /** The pod (namespace/name) for status calls. */
  pod?: string;
}

/** One relist as the model ran it on the node's data. */
export interface SessionRelist {
  startMs: number;
  /** endMs − startMs is the relist's duration (GetPods plus the status calls it made). */
  endMs: number;
  ok: boolean;
  /** GetPods failed: the runtime's error. */
  error?: string;
  /** Every CRI call in call order. */
  rpcs: RpcSample[];
  /** Pods (namespace/name) passed to GetPodStatus, in call order. */
  podsInspected: string[];
  /** Events generated (ContainerChanged filtered out), delivered, and discarded because the channel was full. */
  events: number;
  discards: number;
  /** What Healthy() compares with the threshold, sampled at this relist's end. */
  sinceLastRelistStartMs: number;
  /** Pods and containers the runtime listed in this relist (absent when GetPods failed). */
  pods?: number;
  containers?: number;
  /**
   * EventedPLEG forced this relist: its GetContainerEvents stream failed with `error` (the kubelet's
   * text), the `failures`-th time (at eventedPlegMaxStreamRetries it falls back to generic relisting).
   */
  streamFailure?: { error: string; failures: number };
}

export type PodEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged';

/** A PLEG event the model generated for one pod. */
export interface SessionPodEvent {
  atMs: number;
  /** namespace/name */
  pod: string;
  type: PodEventType;
  /** The container id (short form is fine). */
  container: string;
}

/** Healthy() changed: from `atMs` on it returns this. */
export interface SessionHealth {
  atMs: number;
  healthy: boolean;
  /** The error Healthy() returns, e.g. "pleg was last seen active 3m0.5s ago; threshold is 3m0s". */
  message?: string;
}

/** The node's Ready condition as the API server reported it (only changes are recorded). */
export interface SessionReady {
  atMs: number;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /**
   * The condition's lastTransitionTime (RFC 3339) as the API server gave it, when it did: dates a status the
   * session found already so (a session opened on a node NotReady for ten minutes says since when).
   */
  lastTransitionTime?: string;
}

/**
 * node-problem-detector's PLEGAtRisk condition as the API server reported it (a new entry when any field
 * changed, its heartbeat included: a heartbeat that stops moving is what makes the condition stale).
 */
export interface SessionAtRisk {
  atMs: number;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  /** RFC 3339, as the API server gave them: when NPD wrote the message, and its last sync. */
  lastTransitionTime?: string;
  lastHeartbeatTime?: string;
}

/** One scrape of the kubelet's /metrics through the node proxy (or from a saved file). */
export interface KubeletSample {
  atMs: number;
  /** 'hung': no answer within the deadline (itself a sign of a frozen runtime or shim). */
  scrape: 'ok' | 'hung' | 'error' | 'forbidden';
  /** Why the scrape did not give metrics. */
  detail?: string;
  /** Seconds since the kubelet's PLEG last relisted (now − kubelet_pleg_last_seen_seconds). */
  lastSeenAgeS?: number;
  /** Mean relist duration over the interval since the previous sample (histogram sum/count deltas). */
  relistDurationS?: number;
  relistIntervalS?: number;
  /** Cumulative kubelet_pleg_discard_events. */
  discardEvents?: number;
  runningPods?: number;
  runningContainers?: number;
  /** Cumulative runtime operation errors by operation type. */
  runtimeErrors?: Record<string, number>;
  /** Mean runtime operation latency over the interval, by operation type, in seconds. */
  runtimeLatencyS?: Record<string, number>;
  /** 1.36+: mean of kubelet_pleg_pod_relist_duration_seconds over the interval (the on-demand per-pod relists). */
  podRelistDurationS?: number;
  /** How long the scrape took to answer (a frozen runtime makes /metrics hang up to runtimeRequestTimeout). */
  scrapeMs?: number;
}

/** The cost model's reading at one relist: "a relist now costs X ms; at N pods it would cost Y". */
export interface CostReading {
  atMs: number;
  /** The relist's cost at this node's measured latencies and current pod count. */
  relistMs: number;
  pods: number;
  /** The same at `projectedPods` (the node's maxPods when known). */
  projectedPods?: number;
  projectedRelistMs?: number;
  /**
   * 1.36+ with PLEGOnDemandRelist on: one per-pod relist (GetPod + GetPodStatus) at these latencies, the
   * longest a periodic relist waits behind one under the relist lock (pleg/cost/projection.ts).
   */
  podRelistWaitMs?: number;
}

/**
 * The runtime stopped answering the feed's CRI calls: `hang` (a call waited past the stall limit or hit its
 * deadline) or `refused` (calls failed at once: the socket is gone). `untilMs` is set when a call is answered
 * again.
 */
export interface RuntimeStall {
  sinceMs: number;
  untilMs?: number;
  kind: 'hang' | 'refused';
  /**
   * 'kubelet': not seen by the feed's own calls (its way to the node was silent) but stated by the kubelet,
   * which posted "container runtime is down" meanwhile (core/timeline/agentSilence.ts). Absent: the feed's own.
   */
  seenBy?: 'kubelet';
}

/**
 * The kubelet posted its node status: the Ready condition's lastHeartbeatTime changed. `source` says how
 * exact `atMs` is: 'watch' = when the change reached us (ms after the kubelet's PATCH); 'heartbeat' = the
 * heartbeat itself, which the API keeps to the second.
 */
export interface NodeStatusPost {
  atMs: number;
  source: 'watch' | 'heartbeat';
}

/** Events the live timeline predicts before they happen (see postPredictions.ts). */
export type PredictedEvent = 'runtime-down-posted' | 'pleg-unhealthy' | 'pleg-notready-posted' | 'ready-posted';

/**
 * A prediction as it was made: at `atMs` the model expected `event` at `predictedAtMs`; null withdraws an
 * earlier one (its cause went away before it happened). Recorded only when new or moved by ≥ 1 s.
 */
export interface SessionPrediction {
  atMs: number;
  event: PredictedEvent;
  predictedAtMs: number | null;
}

/** What the model and feed were configured with. */
export interface SessionSettings {
  relistPeriodMs: number;
  thresholdMs: number;
  runtimeRequestTimeoutMs: number;
  /** The kubelet version family the model emulates. */
  profile: KubeletProfileId;
  /** The EventedPLEG feature gate (300 s / 10 min while evented). */
  evented: boolean;
  /** The node's maxPods (configz or status.capacity.pods) when known: the cost projection's pod count. */
  maxPods?: number;
  /** The kubelet's nodeStatusUpdateFrequency from /configz when known (default 10 s). */
  nodeStatusUpdateFrequencyMs?: number;
  /**
   * 1.36+: the node's PLEGOnDemandRelist gate and where it was read (its /metrics, its /configz, or its
   * version's default until a scrape says): with it on, a periodic relist may wait behind a per-pod one.
   */
  onDemandRelist?: OnDemandGate;
}

export interface TimelineSession {
  format: typeof TIMELINE_SESSION_FORMAT;
  node: string;
  context?: string;
  source: SessionSource;
  /**
   * How the node's side was reached, as ../nodeAccess/accessWay.ts wayLabel says it ("via agent pod
   * pleg-doctor/pleg-doctor-agent-x7k2", "via SSH 10.0.0.5"); absent when no node side was read, and in
   * recordings made before it existed.
   */
  via?: string;
  /** The node's kubelet version when known (e.g. "v1.26.15"). */
  kubeletVersion?: string;
  /** The node's nodeInfo.containerRuntimeVersion when known (e.g. "docker://20.10.24"): the node-status loop's shape. */
  containerRuntimeVersion?: string;
  /** ISO 8601: the wall-clock instant of t = 0. */
  startedAt: string;
  /** How far the session reaches (the live feed's last sample). */
  durationMs: number;
  settings: SessionSettings;
  /**
   * What this session cannot show and why, in plain words, e.g. "no SSH access configured: relists are
   * the kubelet's own metrics only". The panel states these.
   */
  lacks: string[];
  relists: SessionRelist[];
  podEvents: SessionPodEvent[];
  health: SessionHealth[];
  ready: SessionReady[];
  kubelet: KubeletSample[];
  cost: CostReading[];
  /** Absent in recordings made before these lanes existed. */
  stalls?: RuntimeStall[];
  nodeStatusPosts?: NodeStatusPost[];
  predictions?: SessionPrediction[];
  /** Absent when the Node has no PLEGAtRisk condition (no node-problem-detector with our monitor), and in older recordings. */
  atRisk?: SessionAtRisk[];
}

/**
 * What a live source adds to its session since the last delta (append-only; `lacks` replaces the list
 * when present). Applying every delta in order to the initial session gives the recorded session.
 */
export interface SessionDelta {
  durationMs: number;
  relists?: SessionRelist[];
  podEvents?: SessionPodEvent[];
  health?: SessionHealth[];
  ready?: SessionReady[];
  kubelet?: KubeletSample[];
  cost?: CostReading[];
  /** New stalls, or the open one again with its `untilMs` (replaces the last when `sinceMs` matches). */
  stalls?: RuntimeStall[];
  nodeStatusPosts?: NodeStatusPost[];
  predictions?: SessionPrediction[];
  atRisk?: SessionAtRisk[];
  lacks?: string[];
  /** Replaces the session's settings (learnt after the start: the node's configz, the EventedPLEG fallback). */
  settings?: SessionSettings;
  /** Replaces the session's kubeletVersion (learnt from the Node object after the start). */
  kubeletVersion?: string;
  /** Replaces the session's containerRuntimeVersion (likewise). */
  containerRuntimeVersion?: string;
}

/** Appends a delta to a session in place. */
export function applySessionDelta(session: TimelineSession, delta: SessionDelta): void {
  session.durationMs = Math.max(session.durationMs, delta.durationMs);
  if (delta.relists) session.relists.push(...delta.relists);
  if (delta.podEvents) session.podEvents.push(...delta.podEvents);
  if (delta.health) session.health.push(...delta.health);
  if (delta.ready) session.ready.push(...delta.ready);
  if (delta.atRisk) (session.atRisk ??= []).push(...delta.atRisk);
  if (delta.kubelet) session.kubelet.push(...delta.kubelet);
  if (delta.cost) session.cost.push(...delta.cost);
  if (delta.stalls) {
    const stalls = (session.stalls ??= []);
    for (const stall of delta.stalls) {
      const last = stalls.at(-1);
      if (last !== undefined && last.sinceMs === stall.sinceMs) stalls[stalls.length - 1] = { ...stall };
      else stalls.push({ ...stall });
    }
  }
  if (delta.nodeStatusPosts) (session.nodeStatusPosts ??= []).push(...delta.nodeStatusPosts);
  if (delta.predictions) (session.predictions ??= []).push(...delta.predictions);
  if (delta.lacks) session.lacks = [...delta.lacks];
  if (delta.settings) session.settings = { ...delta.settings };
  if (delta.kubeletVersion !== undefined) session.kubeletVersion = delta.kubeletVersion;
  if (delta.containerRuntimeVersion !== undefined) session.containerRuntimeVersion = delta.containerRuntimeVersion;
}
