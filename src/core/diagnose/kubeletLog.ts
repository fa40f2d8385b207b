// The kubelet's own log as diagnosis evidence: the log reader's findings (src/core/parse/logReader.ts),
// kept as plain data the checks can quote, each with its 1-based line number, the clock the line prints
// and how long before the log's last timed line it was written. Times are only ever compared within the
// log: klog headers and journal prefixes print the node's local time without a year, so they are never
// set against the collector's clock. Whether the log's end is "now" is a separate fact (`contemporaneous`):
// true only when the log was read in the same collection as the other evidence and not cut short.

import { LogClock } from '../parse/logStretch';
import { LogSequencer, reasonText, roundSeconds, type ReaderFinding } from '../parse/logReader';
import { classifyLogLine, readLineGeneral } from '../parse/logReaderLine';

/** Where the log came from: a bundle's kubelet.log, `journalctl -u kubelet` over SSH, or the kubelet's NodeLogQuery. */
export type KubeletLogOrigin = 'bundle' | 'ssh' | 'nodelogquery';

/** Recent lines kept per kind; the counts cover every line. */
export const MAX_LOG_REFS = 20;

export interface LogLineRef {
  /** 1-based, as an editor shows it. */
  line: number;
  /** `HH:MM:SS` as the line prints it. */
  clock?: string;
  /** Seconds from this line to the log's last timed line. */
  beforeEndSeconds?: number;
  /** What the line says, in one sentence (the reader's message). */
  message: string;
  /** The runtime's error, for relist failures and runtime checks. */
  err?: string;
}

export interface LogStretchRef {
  firstLine: number;
  lastLine: number;
  firstClock?: string;
  lastClock?: string;
  durationSeconds: number;
  /** Unhealthy lines in the stretch. */
  lines: number;
  /** PLEG stretches: the longest "pleg was last seen active … ago" in the stretch. */
  maxLastSeenAgoSeconds?: number;
  /** Skipped-sync stretches: the ReadyError kinds named (runtime-down, pleg-stale, …). */
  reasons?: string[];
  /** Seconds from the stretch's last line to the log's last timed line. */
  endsBeforeEndSeconds?: number;
}

export interface LogRefs {
  count: number;
  /** The most recent MAX_LOG_REFS, oldest first. */
  recent: LogLineRef[];
}

export interface KubeletLogEvidence {
  origin: KubeletLogOrigin;
  /** What was asked for, for the report: e.g. "journalctl -u kubelet, last 30 min". */
  window: string;
  /** True when the log was read together with the other evidence and reaches the collection time. */
  contemporaneous: boolean;
  /** Why the log stops before the collection time, when it does (byte cap, deadline). */
  cut?: string;
  /** Lines read. */
  lines: number;
  firstClock?: string;
  lastClock?: string;
  /** Seconds between the first and the last timed line. */
  spanSeconds?: number;
  plegStretches: LogStretchRef[];
  skippedSyncStretches: LogStretchRef[];
  relistFailures: LogRefs;
  /** "container runtime is down", "Container runtime sanity check failed", "Container runtime not ready". */
  runtimeDown: LogRefs;
  /** Kubelet processes starting: the first start in the log and every restart after it. */
  kubeletStarts: LogRefs;
  kubeletRestarts: number;
  notReady: LogRefs;
  ready: LogRefs;
  /**
   * Pods whose status the relist could not read, from the kubelet's error-level `"PLEG: Write status"
   * err=… pod="ns/name"` (pleg/generic.go, updateCache; error level from 1.24): the stuck pod, by name.
   * Most-failing first; absent when the log has none.
   */
  statusWriteFailures?: PodStatusFailure[];
}

export interface PodStatusFailure {
  /** `namespace/name`, as klog.KRef prints it. */
  pod: string;
  count: number;
  last: LogLineRef;
}

const STATUS_WRITE = 'PLEG: Write status';

/** klog.KRef as the text form prints it (`ns/name`) or as the JSON form does (`{"name":…,"namespace":…}`). */
function podRef(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!value.startsWith('{')) return value;
  try {
    const o = JSON.parse(value) as { name?: unknown; namespace?: unknown };
    return typeof o.name === 'string' ? (typeof o.namespace === 'string' && o.namespace !== '' ? `${o.namespace}/${o.name}` : o.name) : undefined;
  } catch {
    return undefined;
  }
}

export interface KubeletLogReading {
  origin: KubeletLogOrigin;
  window: string;
  contemporaneous: boolean;
  cut?: string;
}

function emptyRefs(): LogRefs {
  return { count: 0, recent: [] };
}

function push(refs: LogRefs, ref: LogLineRef): void {
  refs.count++;
  refs.recent.push(ref);
  if (refs.recent.length > MAX_LOG_REFS) refs.recent.shift();
}

/** The kubelet log's findings as evidence. Pure; reads the whole text once. */
export function kubeletLogEvidence(text: string, reading: KubeletLogReading): KubeletLogEvidence {
  const lines = text.split(/\r\n|\r|\n/u);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();

  // The sequencer resolves times with its own LogClock; a second clock fed the same times in the same
  // order gives the same results, so each event line's time is known here too.
  const clock = new LogClock();
  const msOf = new Map<number, number>();
  let maxEventMs: number | undefined;
  const findings: ReaderFinding[] = [];
  const seq = new LogSequencer((f) => findings.push(f));
  const statusFailures: { line: number; pod: string; clock?: string; err: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] as string;
    if (text.includes(STATUS_WRITE)) {
      // Only the failures: 1.24+ logs them at error level with err=; a success is V(4) and has no err.
      const read = readLineGeneral(text);
      const pod = podRef(read.body.fields.get('pod'));
      if (read.body.msg === STATUS_WRITE && read.body.err !== undefined && pod !== undefined) {
        statusFailures.push({ line: i, pod, err: read.body.err, ...(read.clock !== undefined ? { clock: read.clock } : {}) });
      }
    }
    const facts = classifyLogLine(text);
    if (facts === undefined) continue;
    const ms = clock.resolve(facts.time);
    if (ms !== undefined) {
      msOf.set(i, ms);
      if (maxEventMs === undefined || ms > maxEventMs) maxEventMs = ms;
    }
    seq.push(i, facts);
  }
  seq.countLines(lines.length);
  seq.finish();

  const first = firstTimed(lines, 0, 1);
  const last = firstTimed(lines, lines.length - 1, -1);
  // The last line is resolved after every event line, so it cannot change how those were placed.
  const lastMs = last !== undefined ? clock.resolve(last.time) : undefined;
  const endMs = lastMs !== undefined && maxEventMs !== undefined ? Math.max(lastMs, maxEventMs) : (lastMs ?? maxEventMs);
  const before = (line: number): number | undefined => {
    const ms = msOf.get(line);
    return ms !== undefined && endMs !== undefined ? roundSeconds(Math.max(0, (endMs - ms) / 1000)) : undefined;
  };

  const evidence: KubeletLogEvidence = {
    origin: reading.origin,
    window: reading.window,
    contemporaneous: reading.contemporaneous && reading.cut === undefined,
    lines: lines.length,
    plegStretches: [],
    skippedSyncStretches: [],
    relistFailures: emptyRefs(),
    runtimeDown: emptyRefs(),
    kubeletStarts: emptyRefs(),
    kubeletRestarts: 0,
    notReady: emptyRefs(),
    ready: emptyRefs(),
  };
  if (reading.cut !== undefined) evidence.cut = reading.cut;
  if (first?.clock !== undefined) evidence.firstClock = first.clock;
  if (last?.clock !== undefined) evidence.lastClock = last.clock;
  const firstMs = first !== undefined ? new LogClock().resolve(first.time) : undefined;
  if (firstMs !== undefined && lastMs !== undefined && first?.line !== last?.line) {
    // Both resolved on fresh clocks of the same base year; a log across New Year reads as its own span.
    const span = (lastMs - firstMs) / 1000;
    if (span >= 0) evidence.spanSeconds = roundSeconds(span);
  }

  // Stretches are emitted when they close, so not in line order: sort them back.
  const byLine = [...findings].sort((a, b) => a.line - b.line);
  for (const f of byLine) {
    const ref = (): LogLineRef => {
      const r: LogLineRef = { line: f.line + 1, message: f.message };
      if (f.clock !== undefined) r.clock = f.clock;
      const b = before(f.line);
      if (b !== undefined) r.beforeEndSeconds = b;
      if (f.err !== undefined) r.err = f.err;
      return r;
    };
    switch (f.kind) {
      case 'pleg-stretch':
      case 'skipped-sync-stretch': {
        const s: LogStretchRef = { firstLine: f.line + 1, lastLine: f.lastLine + 1, durationSeconds: f.durationSeconds ?? 0, lines: f.lines ?? 1 };
        if (f.clock !== undefined) s.firstClock = f.clock;
        if (f.lastClock !== undefined) s.lastClock = f.lastClock;
        if (f.maxLastSeenAgoSeconds !== undefined) s.maxLastSeenAgoSeconds = f.maxLastSeenAgoSeconds;
        if (f.reasons !== undefined) s.reasons = f.reasons;
        const b = before(f.lastLine);
        if (b !== undefined) s.endsBeforeEndSeconds = b;
        (f.kind === 'pleg-stretch' ? evidence.plegStretches : evidence.skippedSyncStretches).push(s);
        break;
      }
      case 'relist-failure':
        push(evidence.relistFailures, ref());
        break;
      case 'runtime-down':
        push(evidence.runtimeDown, ref());
        break;
      case 'kubelet-start':
      case 'kubelet-restart':
        if (f.kind === 'kubelet-restart') evidence.kubeletRestarts++;
        push(evidence.kubeletStarts, ref());
        break;
      case 'node-not-ready':
        push(evidence.notReady, ref());
        break;
      case 'node-ready':
        push(evidence.ready, ref());
        break;
      case 'pleg-never':
      case 'event-discard':
      case 'evented-fallback':
      case 'housekeeping-slow':
        break;
    }
  }
  if (statusFailures.length > 0) {
    const byPod = new Map<string, PodStatusFailure>();
    for (const f of statusFailures) {
      const last: LogLineRef = { line: f.line + 1, message: STATUS_WRITE, err: f.err, ...(f.clock !== undefined ? { clock: f.clock } : {}) };
      const b = before(f.line);
      if (b !== undefined) last.beforeEndSeconds = b;
      const seen = byPod.get(f.pod);
      byPod.set(f.pod, { pod: f.pod, count: (seen?.count ?? 0) + 1, last });
    }
    evidence.statusWriteFailures = [...byPod.values()].sort((a, b) => b.count - a.count || a.pod.localeCompare(b.pod));
  }
  return evidence;
}

/** The first line with a time, walking from `from` by `step`; at most 200 lines (a log's edges are near). */
function firstTimed(lines: readonly string[], from: number, step: 1 | -1): { line: number; time: NonNullable<ReturnType<typeof readLineGeneral>['time']>; clock?: string } | undefined {
  for (let i = from, n = 0; i >= 0 && i < lines.length && n < 200; i += step, n++) {
    const read = readLineGeneral(lines[i] as string);
    if (read.time !== undefined) return read.clock !== undefined ? { line: i, time: read.time, clock: read.clock } : { line: i, time: read.time };
  }
  return undefined;
}

/** "skipping pod synchronization: container runtime is down, PLEG is not healthy". */
export function stretchReasons(s: LogStretchRef): string {
  return (s.reasons ?? []).map(reasonText).join(', ');
}
