// The sequential pass over classified lines: turns year-less times into a monotone-ish clock and groups
// PLEG-unhealthy (and sync-skipping) lines into stretches. It only sees the few lines that carry events,
// so the language server re-runs it in full after every edit.

import { yearlessToEpochMs, type YearlessTime } from './klogHeader';
import type { LineTime } from './lineFacts';

const DAY_MS = 86_400_000;

/**
 * klog headers and syslog prefixes carry no year. We resolve them in a chosen base year (default 2024,
 * a leap year, so `0229` is a valid date) and carry the year forward: when a year-less time lands more
 * than half a year *before* the previous resolved time, the log crossed New Year (Dec 31 → Jan 1) and
 * the year goes up by one. Smaller backward steps are out-of-order lines (klog writes from many
 * goroutines; journald merges) and are kept as they are. When the log's first timed line carries an
 * absolute time (ISO prefix, JSON `ts`), its year is used from then on; once a guessed year is in use,
 * later absolute times are placed on that same calendar. Only differences of resolved times are ever
 * reported, so a wrong guess never shows, except across Feb 29 of a non-leap year.
 */
export class LogClock {
  private year: number;
  private lastMs: number | undefined;
  /** True once a year-less time was placed in the assumed year. */
  private guessed = false;

  constructor(baseYear = 2024) {
    this.year = baseYear;
  }

  resolve(time: LineTime | undefined): number | undefined {
    if (time === undefined) return undefined;
    let yearless: YearlessTime;
    if ('epochMs' in time) {
      if (!this.guessed) {
        this.year = new Date(time.epochMs).getUTCFullYear();
        this.lastMs = time.epochMs;
        return time.epochMs;
      }
      // Earlier lines were placed in a guessed year: place this one on the same (guessed) calendar, or
      // a log mixing both kinds of timestamps would show a gap of whole years.
      yearless = toYearless(time.epochMs);
    } else {
      yearless = time.yearless;
      this.guessed = true;
    }
    let ms = yearlessToEpochMs(yearless, this.year);
    if (this.lastMs !== undefined && ms < this.lastMs - 183 * DAY_MS) {
      this.year++;
      ms = yearlessToEpochMs(yearless, this.year);
    }
    this.lastMs = ms;
    return ms;
  }
}

function toYearless(epochMs: number): YearlessTime {
  const d = new Date(epochMs);
  const wholeMs = Math.floor(epochMs);
  return {
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    micros: (wholeMs % 1000) * 1000 + Math.round((epochMs - wholeMs) * 1000),
  };
}

export interface Stretch {
  /** 0-based line numbers of the first and last line of the stretch. */
  firstLine: number;
  lastLine: number;
  firstMs?: number;
  lastMs?: number;
  firstClock?: string;
  lastClock?: string;
  /** Lines in the stretch. */
  lines: number;
  /** Longest "last seen active" in the stretch, seconds (PLEG stretches). */
  maxLastSeenAgoSeconds?: number;
  /** Skipped-sync stretches: the ReadyError kinds named, in order of first appearance. */
  reasons: string[];
}

/** Stretch duration in seconds; 0 when a time is missing or runs backwards. */
export function stretchSeconds(s: Stretch): number {
  if (s.firstMs === undefined || s.lastMs === undefined) return 0;
  return Math.max(0, (s.lastMs - s.firstMs) / 1000);
}

/**
 * Builds stretches one point at a time. A point joins the open stretch unless more than `gapSeconds`
 * passed since the stretch's previous point (a point without a time cannot show a gap, so it joins); a
 * new kubelet process ends it too (breakHere: its PLEG starts afresh).
 */
export class StretchTracker {
  private open: Stretch | undefined;
  private lastMsSeen: number | undefined;

  constructor(private readonly gapMs: number) {}

  /**
   * Adds the point of line `line` (its time, clock text, "last seen active" and skip reasons where it
   * has them); returns the stretch it closed, if any. Positional, not an object: it runs for nearly every
   * event of a flapping node's log.
   */
  push(line: number, ms: number | undefined, clock: string | undefined, lastSeenAgoSeconds: number | undefined, reasons: readonly string[] | undefined): Stretch | undefined {
    let closed: Stretch | undefined;
    const cur = this.open;
    if (cur !== undefined && ms !== undefined && this.lastMsSeen !== undefined && ms - this.lastMsSeen > this.gapMs) {
      closed = cur;
      this.open = undefined;
      this.lastMsSeen = undefined;
    }
    let s = this.open;
    if (s === undefined) {
      s = { firstLine: line, lastLine: line, lines: 0, reasons: [] };
      if (ms !== undefined) s.firstMs = ms;
      if (clock !== undefined) s.firstClock = clock;
      this.open = s;
    }
    s.lastLine = line;
    s.lines++;
    if (ms !== undefined) {
      if (s.firstMs === undefined) s.firstMs = ms;
      s.lastMs = ms;
      this.lastMsSeen = ms;
    }
    if (clock !== undefined) s.lastClock = clock;
    if (lastSeenAgoSeconds !== undefined && (s.maxLastSeenAgoSeconds === undefined || lastSeenAgoSeconds > s.maxLastSeenAgoSeconds)) {
      s.maxLastSeenAgoSeconds = lastSeenAgoSeconds;
    }
    if (reasons !== undefined) for (let i = 0; i < reasons.length; i++) if (!s.reasons.includes(reasons[i] as string)) s.reasons.push(reasons[i] as string);
    return closed;
  }

  /** Closes the open stretch at a kubelet restart even if no further point comes. */
  breakHere(): Stretch | undefined {
    const s = this.open;
    this.open = undefined;
    this.lastMsSeen = undefined;
    return s;
  }

  /** The open stretch at the end of the input. */
  finish(): Stretch | undefined {
    return this.breakHere();
  }
}
