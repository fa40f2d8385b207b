// The simulator's output: plain JSON, times in ms after the scenario start (t = 0, the sync loop start).

export interface RelistEntry {
  startMs: number;
  endMs: number;
  durationMs: number;
  /** When GetPods returned: a successful relist's start becomes the stamp Healthy() sees from here on. */
  getPodsEndMs: number;
  ok: boolean;
  error?: string;
  /** Events the relist tried to send (ContainerChanged filtered out). */
  events: number;
  delivered: number;
  discards: number;
  podsInspected: number;
}

export interface HealthTransition {
  atMs: number;
  healthy: boolean;
}

export interface RuntimeStatusTransition {
  atMs: number;
  /** false: runtimeErrors() reports `container runtime is down` from here on. */
  up: boolean;
}

export interface NodeStatusPost {
  atMs: number;
  status: 'True' | 'False';
  reason: string;
  message: string;
}

export interface SkipWindow {
  startMs: number;
  /** The first pass that was not skipped; null when the run ended while skipping. */
  endMs: number | null;
  skips: number;
  firstError: string;
}

export interface BlockedWindow {
  startMs: number;
  endMs: number;
  cause: 'housekeeping' | 'consumerStall';
}

export interface SimLogLine {
  atMs: number;
  line: string;
}

export interface TimelineSummary {
  relists: number;
  failedRelists: number;
  maxRelistMs: number;
  meanRelistMs: number;
  events: number;
  discards: number;
  criCalls: number;
  criTimeouts: number;
  unhealthyMs: number;
  notReadyPosts: number;
  skips: number;
  logLinesDropped: number;
}

export interface EventedSummary {
  /** Failed GetContainerEvents streams (each forced a generic relist). */
  streamFailures: number;
  /** When the kubelet fell back to the generic relist period and threshold; null if it did not. */
  fallbackAtMs: number | null;
  /** CRI container events handed to EventedPLEG, and how many it ignored (no sandbox status). */
  criEvents: number;
  criEventsIgnored: number;
}

/** One on-demand per-pod relist (kubelet 1.36+ relistPod). */
export interface PodRelistEntry {
  pod: string;
  requestedMs: number;
  startMs: number;
  endMs: number;
  durationMs: number;
  /** False when GetPod failed (logged only; the next periodic relist handles the pod). */
  ok: boolean;
  error?: string;
  events: number;
  delivered: number;
  discards: number;
}

/** The on-demand relist's part of a run (1.36+ with PLEGOnDemandRelist on). */
export interface OnDemandSummary {
  /** RequestRelist calls, and how many the full 200-slot queue dropped. */
  requests: number;
  dropped: number;
  /** Per-pod relists run, and requests skipped because a periodic relist started after them. */
  podRelists: number;
  stale: number;
  failedPodRelists: number;
  maxPodRelistMs: number;
  meanPodRelistMs: number;
  /** Periodic relists whose timer fired while a per-pod relist held the lock, and how long they waited. */
  delayedRelists: number;
  maxRelistDelayMs: number;
  totalRelistDelayMs: number;
}

export interface SimulationRun {
  scenario: string;
  seed: number;
  kubeletVersion: string;
  profile: string;
  startTime: string;
  durationMs: number;
  relistsRecorded: 'all' | 'notable';
  /** EventedPLEG's part of the run; null when the feature gate is off. */
  evented: EventedSummary | null;
  /** The on-demand relist's part; only present when the kubelet has one (1.36+) and its gate is on. */
  onDemand?: OnDemandSummary;
  /** Per-pod relists (all, or the notable ones: failed or slow, as `relistsRecorded` says); with onDemand. */
  podRelists?: PodRelistEntry[];
  relists: RelistEntry[];
  /** The relist still running when the run ended (its report is already known to the simulator). */
  relistInFlight: { startMs: number; getPodsEndMs: number; ok: boolean } | null;
  health: HealthTransition[];
  runtimeStatus: RuntimeStatusTransition[];
  /** Node status posts whose Ready condition differs from the previous post (the first post always). */
  nodeReady: NodeStatusPost[];
  skipWindows: SkipWindow[];
  blocked: BlockedWindow[];
  logLines: SimLogLine[];
  summary: TimelineSummary;
}
