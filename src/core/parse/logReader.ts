// The kubelet log reader: fed one line at a time (any mix of klog text, structured key=value, contextual
// logging and JSON, with or without journald / ISO / CRI prefixes), it reports findings as it goes and a
// summary at the end. Pure: the CLI feeds it from readline, the language server from a document.
//
// Two stages, so the server can keep per-line results across edits: classifyLogLine (stateless, per line)
// and LogSequencer (stateful, only over lines that carry events: clock, restarts, stretches, Ready state).

import { LineShapeMemo } from './lineShapeMemo';
import { classifyLogLine, type LineEvent, type LineFacts } from './logReaderLine';
import { LogClock, StretchTracker, stretchSeconds, type Stretch } from './logStretch';

export const DEFAULT_GAP_SECONDS = 60;

export type ReaderFindingKind =
  | 'pleg-stretch'
  | 'skipped-sync-stretch'
  | 'pleg-never'
  | 'relist-failure'
  | 'event-discard'
  | 'runtime-down'
  | 'evented-fallback'
  | 'housekeeping-slow'
  | 'node-not-ready'
  | 'node-ready'
  | 'kubelet-start'
  | 'kubelet-restart';

export type ReaderSeverity = 'error' | 'warning' | 'information';

export interface ReaderFinding {
  kind: ReaderFindingKind;
  /** 0-based; a stretch spans line..lastLine, a single-line finding has lastLine === line. */
  line: number;
  lastLine: number;
  severity: ReaderSeverity;
  /** One sentence for people. */
  message: string;
  /** The line's own clock text (`03:03:46`), first line for stretches. */
  clock?: string;
  lastClock?: string;
  durationSeconds?: number;
  maxLastSeenAgoSeconds?: number;
  reasons?: string[];
  /** Lines in a stretch. */
  lines?: number;
  /** The runtime's error, for relist failures and runtime checks. */
  err?: string;
  version?: string;
}

export interface StretchSummary {
  /** 1-based, as printed. */
  firstLine: number;
  lastLine: number;
  durationSeconds: number;
  /** PLEG stretches: null when no line gave a "last seen active" (EventedPLEG's full channel). */
  maxLastSeenAgoSeconds?: number | null;
  reasons?: string[];
}

export interface LogSummary {
  plegStretches: StretchSummary[];
  skippedSyncStretches: StretchSummary[];
  relistFailures: number;
  discardLines: number;
  notReadyTransitions: number;
  readyTransitions: number;
  kubeletRestarts: number;
  runtimeDownLines: number;
  housekeepingSlowLines: number;
  eventedFallbackLines: number;
  /** Lines read. */
  lines: number;
}

export interface LogReaderOptions {
  /** A stretch ends when no unhealthy line came for longer than this. Default 60 s. */
  gapSeconds?: number;
  /** Year assumed for year-less timestamps until an absolute one is seen (see LogClock). */
  baseYear?: number;
}

/** Seconds, rounded to microseconds: klog prints microseconds, and float noise must not show. */
export function roundSeconds(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}

function fmt(seconds: number): string {
  return seconds >= 100 ? seconds.toFixed(0) : seconds.toFixed(1);
}

const REASON_TEXT: Readonly<Record<string, string>> = {
  'pleg-stale': 'PLEG is not healthy',
  'pleg-never': 'PLEG has yet to be successful',
  'evented-pleg-full': 'EventedPLEG channel full',
  'runtime-down': 'container runtime is down',
  'runtime-status-pending': 'runtime status check not completed yet',
  'runtime-not-ready': 'container runtime not ready',
  'network-not-ready': 'runtime network not ready',
  'capacity-missing': 'missing node capacity',
  'shutting-down': 'node is shutting down',
  other: 'other error',
};

export function reasonText(kind: string): string {
  return REASON_TEXT[kind] ?? kind;
}

function span(s: Stretch): string {
  const lines = s.lines === 1 ? '1 line' : `${s.lines} lines`;
  return s.firstClock !== undefined && s.lastClock !== undefined ? `${s.firstClock} → ${s.lastClock}, ${lines}` : lines;
}

function plegFinding(s: Stretch): ReaderFinding {
  const d = roundSeconds(stretchSeconds(s));
  const f: ReaderFinding = {
    kind: 'pleg-stretch',
    line: s.firstLine,
    lastLine: s.lastLine,
    severity: 'error',
    message: `PLEG unhealthy for ${fmt(d)} s (${span(s)})`,
    durationSeconds: d,
    lines: s.lines,
  };
  if (s.maxLastSeenAgoSeconds !== undefined) {
    f.maxLastSeenAgoSeconds = roundSeconds(s.maxLastSeenAgoSeconds);
    f.message += `; last successful relist up to ${fmt(s.maxLastSeenAgoSeconds)} s ago`;
  }
  addClocks(f, s);
  return f;
}

function skipFinding(s: Stretch): ReaderFinding {
  const d = roundSeconds(stretchSeconds(s));
  const f: ReaderFinding = {
    kind: 'skipped-sync-stretch',
    line: s.firstLine,
    lastLine: s.lastLine,
    // Only the startup transients ("not completed yet", "yet to be successful") are harmless.
    severity: s.reasons.every((r) => r === 'runtime-status-pending' || r === 'pleg-never') ? 'information' : 'warning',
    message: `Pod synchronization skipped for ${fmt(d)} s (${span(s)}): ${s.reasons.map(reasonText).join(', ') || 'no reason given'}`,
    durationSeconds: d,
    reasons: [...s.reasons],
    lines: s.lines,
  };
  addClocks(f, s);
  return f;
}

function addClocks(f: ReaderFinding, s: Stretch): void {
  if (s.firstClock !== undefined) f.clock = s.firstClock;
  if (s.lastClock !== undefined) f.lastClock = s.lastClock;
}

function toSummary(f: ReaderFinding): StretchSummary {
  const out: StretchSummary = { firstLine: f.line + 1, lastLine: f.lastLine + 1, durationSeconds: f.durationSeconds ?? 0 };
  if (f.kind === 'pleg-stretch') out.maxLastSeenAgoSeconds = f.maxLastSeenAgoSeconds ?? null;
  if (f.reasons !== undefined) out.reasons = f.reasons;
  return out;
}

/**
 * The stateful pass. Feed it every line that has facts, in line order; it calls `emit` for each finding
 * as soon as it is known (a stretch when it closes) and returns the summary from `finish`.
 */
export class LogSequencer {
  private readonly clock: LogClock;
  private readonly pleg: StretchTracker;
  private readonly skip: StretchTracker;
  private pid: number | undefined;
  private seenKubelet = false;
  private neverReported = false;
  private nodeState: 'unknown' | 'ready' | 'not-ready' = 'unknown';
  private lines = 0;
  private readonly summary: Omit<LogSummary, 'lines'> = {
    plegStretches: [],
    skippedSyncStretches: [],
    relistFailures: 0,
    discardLines: 0,
    notReadyTransitions: 0,
    readyTransitions: 0,
    kubeletRestarts: 0,
    runtimeDownLines: 0,
    housekeepingSlowLines: 0,
    eventedFallbackLines: 0,
  };

  constructor(
    private readonly emit: (f: ReaderFinding) => void,
    options: LogReaderOptions = {},
  ) {
    const gap = options.gapSeconds ?? DEFAULT_GAP_SECONDS;
    this.clock = new LogClock(options.baseYear);
    this.pleg = new StretchTracker(gap * 1000);
    this.skip = new StretchTracker(gap * 1000);
  }

  /** Records how many lines the input had (for the summary); lines without facts need not be pushed. */
  countLines(n: number): void {
    this.lines = n;
  }

  push(line: number, facts: LineFacts): void {
    const ms = this.clock.resolve(facts.time);
    let start: Extract<LineEvent, { kind: 'kubelet-start' }> | undefined;
    for (const e of facts.events) if (e.kind === 'kubelet-start') start = e;
    const pidChanged = facts.pid !== undefined && this.pid !== undefined && facts.pid !== this.pid;
    if (start !== undefined || pidChanged) {
      const restart = this.seenKubelet;
      if (restart) this.closeStretches();
      this.neverReported = false;
      if (start !== undefined || restart) {
        const f: ReaderFinding = {
          kind: restart ? 'kubelet-restart' : 'kubelet-start',
          line,
          lastLine: line,
          severity: 'information',
          message: restart
            ? `Kubelet restarted${start?.version !== undefined ? ` (${start.version})` : ''}${facts.pid !== undefined ? `, pid ${facts.pid}` : ''}`
            : `Kubelet started${start?.version !== undefined ? ` (${start.version})` : ''}`,
        };
        if (start?.version !== undefined) f.version = start.version;
        if (restart) this.summary.kubeletRestarts++;
        this.single(f, facts);
      }
    }
    if (facts.pid !== undefined) this.pid = facts.pid;
    this.seenKubelet = true;

    for (const ev of facts.events) this.event(line, ms, facts, ev);
  }

  private single(f: ReaderFinding, facts: LineFacts): void {
    if (facts.clock !== undefined) f.clock = facts.clock;
    this.emit(f);
  }

  private event(line: number, ms: number | undefined, facts: LineFacts, ev: LineEvent): void {
    // The two stretch kinds are nearly every event of a flapping node's log: no objects made for them.
    if (ev.kind === 'pleg-unhealthy') {
      const closed = this.pleg.push(line, ms, facts.clock, ev.lastSeenAgoSeconds, undefined);
      if (closed) this.closePleg(closed);
      return;
    }
    if (ev.kind === 'skip-sync') {
      const closed = this.skip.push(line, ms, facts.clock, undefined, ev.reasons);
      if (closed) this.closeSkip(closed);
      return;
    }
    switch (ev.kind) {
      case 'pleg-never':
        if (this.neverReported) return;
        this.neverReported = true;
        this.single({ kind: 'pleg-never', line, lastLine: line, severity: 'information', message: 'PLEG has yet to be successful (normal for the first seconds after a start)' }, facts);
        return;
      case 'relist-failure': {
        this.summary.relistFailures++;
        const f: ReaderFinding = {
          kind: 'relist-failure',
          line,
          lastLine: line,
          severity: 'error',
          message: `Relist could not list pods from the runtime${ev.err !== undefined ? `: ${ev.err}` : ''}`,
        };
        if (ev.err !== undefined) f.err = ev.err;
        this.single(f, facts);
        return;
      }
      case 'event-discard':
        this.summary.discardLines++;
        this.single(
          {
            kind: 'event-discard',
            line,
            lastLine: line,
            severity: 'warning',
            message: ev.evented ? 'Evented PLEG event channel full: a pod lifecycle event was discarded' : 'PLEG event channel full: events of this relist were discarded',
          },
          facts,
        );
        return;
      case 'runtime-down': {
        this.summary.runtimeDownLines++;
        const f: ReaderFinding = { kind: 'runtime-down', line, lastLine: line, severity: 'error', message: `${ev.text}${ev.err !== undefined ? `: ${ev.err}` : ''}` };
        if (ev.err !== undefined) f.err = ev.err;
        this.single(f, facts);
        return;
      }
      case 'evented-fallback':
        this.summary.eventedFallbackLines++;
        this.single({ kind: 'evented-fallback', line, lastLine: line, severity: 'warning', message: ev.text.slice(0, 200) }, facts);
        return;
      case 'housekeeping-slow':
        this.summary.housekeepingSlowLines++;
        this.single(
          {
            kind: 'housekeeping-slow',
            line,
            lastLine: line,
            severity: 'warning',
            message: `Housekeeping took too long${ev.actual !== undefined ? ` (${ev.actual})` : ''}: the sync loop was blocked, usually on a runtime call`,
          },
          facts,
        );
        return;
      case 'node-not-ready':
        if (this.nodeState === 'not-ready') return;
        this.nodeState = 'not-ready';
        this.summary.notReadyTransitions++;
        this.single({ kind: 'node-not-ready', line, lastLine: line, severity: 'error', message: `Node became NotReady: ${ev.text.slice(0, 200)}` }, facts);
        return;
      case 'node-ready':
        if (this.nodeState === 'ready') return;
        this.nodeState = 'ready';
        this.summary.readyTransitions++;
        this.single({ kind: 'node-ready', line, lastLine: line, severity: 'information', message: 'Node became Ready' }, facts);
        return;
      case 'kubelet-start':
        return;
    }
  }

  private closeStretches(): void {
    const p = this.pleg.breakHere();
    if (p) this.closePleg(p);
    const s = this.skip.breakHere();
    if (s) this.closeSkip(s);
  }

  private closePleg(s: Stretch): void {
    const f = plegFinding(s);
    this.summary.plegStretches.push(toSummary(f));
    this.emit(f);
  }

  private closeSkip(s: Stretch): void {
    const f = skipFinding(s);
    this.summary.skippedSyncStretches.push(toSummary(f));
    this.emit(f);
  }

  finish(): LogSummary {
    this.closeStretches();
    return { ...this.summary, lines: this.lines };
  }
}

/** The streaming reader: push raw lines in order, then `end()`. */
export class KubeletLogReader {
  private readonly seq: LogSequencer;
  private readonly shapes = new LineShapeMemo();
  private line = 0;

  constructor(emit: (f: ReaderFinding) => void, options: LogReaderOptions = {}) {
    this.seq = new LogSequencer(emit, options);
  }

  push(raw: string): void {
    const facts = classifyLogLine(raw);
    if (facts !== undefined) this.seq.push(this.line, facts);
    this.line++;
  }

  /** As push() of the line bytes[start, end) decoded (the byte scanner's lines). */
  pushBytes(bytes: Buffer, start: number, end: number): void {
    const facts = this.shapes.classify(bytes, start, end);
    if (facts !== undefined) this.seq.push(this.line, facts);
    this.line++;
  }

  /** Advances past `n` lines known to carry nothing (the byte scanner's fast path). */
  skipLines(n: number): void {
    this.line += n;
  }

  end(): LogSummary {
    this.seq.countLines(this.line);
    return this.seq.finish();
  }
}

/** Reads a whole text (lines end at \n, \r\n or \r); for tests and small inputs. */
export function readKubeletLog(text: string, options: LogReaderOptions = {}): { findings: ReaderFinding[]; summary: LogSummary } {
  const findings: ReaderFinding[] = [];
  const reader = new KubeletLogReader((f) => findings.push(f), options);
  const lines = text.split(/\r\n|\r|\n/u);
  // A trailing newline ends the last line; it does not start an empty one.
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  for (const l of lines) reader.push(l);
  return { findings, summary: reader.end() };
}
