// Vocabulary of the PLEG model, shared by the generic and evented PLEG, the simulator and the replay CLI.
// Times are milliseconds on the model's clock (the oracle's time base: ms after a base instant).

export type ContainerState = 'running' | 'exited' | 'unknown' | 'created';

export interface RuntimeContainer {
  id: string;
  state: ContainerState;
}

/** One pod as the runtime reports it (sandboxes are containers to PLEG). */
export interface RuntimePod {
  uid: string;
  name: string;
  namespace: string;
  ips?: string[];
  sandboxes: RuntimeContainer[];
  containers: RuntimeContainer[];
  /** The runtime's status timestamp (EventedPLEG cache rules); ms on the model clock. */
  statusTimestampMs?: number;
}

export type PlegEventType = 'ContainerStarted' | 'ContainerDied' | 'ContainerRemoved' | 'ContainerChanged' | 'PodSync' | 'ConditionMet';

export interface PlegEvent {
  pod: string;
  type: PlegEventType;
  /** The container ID; null for PodSync, which carries no data (generic.go reconcilePodRecord). */
  data: string | null;
}

/** Kubelet version families whose PLEG behaves differently (see docs/pleg-model.md). */
export type KubeletProfileId = '1.13' | '1.14-1.25' | '1.26-1.31' | '1.32+' | '1.36+';

// ---- Extensions (compatible): the status, cache, runtime and per-relist report seams of the model. ----

/** A sandbox as GetPodStatus reports it: READY iff the runtime says it is running. */
export interface SandboxStatus {
  id: string;
  ready: boolean;
}

/**
 * Time of a pod-cache entry: nanoseconds after the model clock's 0, exact (EventedPLEG compares runtime
 * timestamps to the nanosecond, and a misread createdAt lands far outside any float range).
 * `null` is Go's zero time, which is before every other instant. See stamp.ts for conversions.
 */
export type CacheStamp = bigint | null;

/** What GetPodStatus returns: the kubelet's PodStatus, reduced to what PLEG and its cache look at. */
export interface PodStatus {
  uid: string;
  name: string;
  namespace: string;
  ips: readonly string[];
  containers: readonly RuntimeContainer[];
  sandboxes: readonly SandboxStatus[];
  /**
   * The runtime's status timestamp in ms on the model clock, null = Go's zero time (used as the cache time
   * when EventedPLEG is in use).
   */
  timestamp: number | null;
}

export type GetPodsResult = { ok: true; pods: readonly RuntimePod[] } | { ok: false; error: string };
export type GetPodStatusResult = { ok: true; status: PodStatus } | { ok: false; error: string };
/** What GetPod (1.36+, one pod by UID) returns; a pod the runtime no longer has is an error (ErrPodNotFound). */
export type GetPodResult = { ok: true; pod: RuntimePod } | { ok: false; error: string };

/**
 * The container runtime as PLEG sees it. Calls are synchronous on the virtual clock; a caller that wants
 * latency advances its clock inside these calls (the PLEG reads the clock before and after each).
 */
export interface PlegRuntime {
  getPods(): GetPodsResult;
  getPodStatus(pod: RuntimePod): GetPodStatusResult;
  /** Kubelet 1.36+ runtime.GetPod, used only by the per-pod (on-demand) relist. */
  getPod?(uid: string): GetPodResult;
}

/** The model's clock in ms. */
export interface PlegClock {
  now(): number;
}

/** What a relist (global or per-pod) did with its events and inspections. */
interface RelistOutcome {
  startMs: number;
  ok: boolean;
  error?: string;
  /** Events the relist tried to send (ContainerChanged already filtered out). */
  generated: number;
  delivered: number;
  discarded: number;
  /** Pod UIDs passed to GetPodStatus, in call order, with repeats. */
  inspected: string[];
}

/** What one relist did (for the simulator's cost model and for diagnostics); `error` is GetPods' when ok is false. */
export interface RelistReport extends RelistOutcome {
  /** Kubelet ≤1.13 only: the relist is stuck in a blocking channel send until the consumer drains. */
  blocked: boolean;
}

/** What one per-pod relist (1.36+ relistPod) did; ok is false when GetPod failed (the kubelet only logs, and the next global relist handles the pod). */
export interface PodRelistReport extends RelistOutcome {
  uid: string;
  /** Clock after the relist: its duration is what kubelet_pleg_pod_relist_duration_seconds observes. */
  endMs: number;
}
