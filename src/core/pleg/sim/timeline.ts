// The simulator's output: plain JSON, times in ms after the scenario start (t = 0, the sync loop start).

export interface RelistEntry {
  startMs: number;
  endMs: number;
  durationMs: number;
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

export interface Timeline {
  scenario: string;
  seed: number;
  kubeletVersion: string;
  profile: string;
  startTime: string;
  durationMs: number;
  relistsRecorded: 'all' | 'notable';
  relists: RelistEntry[];
  health: HealthTransition[];
  runtimeStatus: RuntimeStatusTransition[];
  /** Node status posts whose Ready condition differs from the previous post (the first post always). */
  nodeReady: NodeStatusPost[];
  skipWindows: SkipWindow[];
  blocked: BlockedWindow[];
  logLines: SimLogLine[];
  summary: TimelineSummary;
}
