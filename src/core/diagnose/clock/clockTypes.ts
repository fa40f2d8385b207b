// When was each file of an evidence folder captured? A folder without bundle.json carries no collector
// clock, and its files' modification times are reset by every copy, zip and clone. So each file's capture
// instant is derived from what the evidence itself says, as a window [notBefore, notAfter] built from
// clues, each clue naming where it came from. Staleness checks (the PLEG metric age) then use the window of
// the file their figure came from, and say which clock that was.

/** Where a bound on a file's capture instant came from. */
export type ClockClueKind =
  /** The kubelet's own access-log line for the GET /metrics that served the body (klog -v=3+). */
  | 'access-log'
  /** `go_memstats_last_gc_time_seconds`: the Go runtime forces a GC at least every 2 min. */
  | 'go-gc'
  /** `kubelet_pleg_last_seen_seconds`: a relist start, so only a lower bound. */
  | 'pleg-last-seen'
  | 'process-start'
  /** The last timed line of kubelet.log: the log was read after it was written. */
  | 'log-tail'
  /** The Node's condition heartbeats (lastHeartbeatTime). */
  | 'heartbeat'
  /** Other times written into an object before it was read (transitions, managedFields, creation). */
  | 'object-times'
  | 'events'
  | 'mtime';

export interface ClockClue {
  kind: ClockClueKind;
  /** Epoch ms the capture cannot be earlier than. */
  notBeforeMs?: number;
  /** Epoch ms the capture cannot be later than. */
  notAfterMs?: number;
  /**
   * True when the bounds follow from how the writer works (a time written before the read); false when
   * they rest on behaviour that can fail (a GC period, a heartbeat interval, a file's modification time).
   * Soft clues are dropped first when clues disagree.
   */
  firm: boolean;
  /** One sentence for people: what was read and what it bounds. */
  text: string;
}

/**
 * - exact: the window is at most CAPTURE_EXACT_MS wide;
 * - bounded: both ends known;
 * - after: only a lower bound (e.g. a log's last line);
 * - unknown: no clue at all;
 * - conflict: firm clues disagree (different clocks, a time zone, an edited file).
 */
export type CaptureConfidence = 'exact' | 'bounded' | 'after' | 'unknown' | 'conflict';

export interface FileCapture {
  /** The bundle file name, e.g. `metrics.txt`. */
  file: string;
  notBeforeMs?: number;
  notAfterMs?: number;
  confidence: CaptureConfidence;
  /** The clues the window rests on. */
  clues: ClockClue[];
  /** Clues left out because they disagreed with firmer ones, each with why. */
  dropped: { clue: ClockClue; why: string }[];
  /** For unknown and conflict: why. */
  reason?: string;
}

export type MtimeVerdict =
  /** The files' modification times differ: each was written when it was captured, a clock. */
  | 'clock'
  /** All equal (or only one file): copied or unpacked, only a latest bound. */
  | 'copied'
  /** No modification times were given. */
  | 'none';

export interface EvidenceClock {
  files: FileCapture[];
  /** Which file each /metrics scrape was read from, so a figure finds its file's window. */
  metricsFiles: { metrics?: string; metricsLater?: string };
  mtimes: { verdict: MtimeVerdict; text: string };
  /** What the kubelet log's times say, when the folder has one: its end and its "PLEG is not healthy" lines. */
  log?: { file: string; lastMs?: number; plegUnhealthyMs: number[] };
  /** The instant the folder as a whole describes, when some file gives one (epoch ms). */
  referenceMs?: number;
  /** For people: how the reference and each file's window were found, and what disagreed. */
  notes: string[];
}

/** A window at most this wide counts as an exact capture time. */
export const CAPTURE_EXACT_MS = 15_000;
