// The klog text header, one definition for every reader of it (logReaderLine.ts, the capture-free
// fast path klogFastHeader.ts, lineShapeMemo.ts), and the year-less time it carries. A leaf module: it
// imports nothing, so the readers can share it without importing each other.
//
// The writer: k8s.io/klog/v2, klog.go, (*loggingT).formatHeader / buffer.go FormatHeader, which prints
// `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (severity letter, month and day, wall clock with
// microseconds, the thread id padded to 7 columns, the caller). No year and no zone: the kubelet's local
// time, normally UTC. See docs/kubelet-log-times.md.

export type KlogSeverity = 'I' | 'W' | 'E' | 'F';

/** A klog header's (or a syslog prefix's) wall-clock time: no year and no zone. */
export interface YearlessTime {
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fraction of the second in microseconds. */
  micros: number;
}

/** Groups: severity, month, day, hour, minute, second, micros, thread id, `file:line`. */
export const KLOG_HEADER = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+(\d+) ([^\]\s]+:\d+)\] ?/u;

/**
 * KLOG_HEADER without its groups and its anchor, for a sticky test at any offset (klogFastHeader.ts):
 * derived, so the two cannot drift (its only parentheses are the groups).
 */
export const KLOG_HEADER_PLAIN = new RegExp(KLOG_HEADER.source.slice(1).replace(/[()]/gu, ''), 'u');

/** The validity check of a klog time: month and day in range, hour, minute and second not past theirs. */
export function klogTimeValid(month: number, day: number, hour: number, minute: number, second: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 60;
}

/** The last minute turned into milliseconds: consecutive lines nearly always share their minute. */
let minuteKey = -1;
let minuteMs = 0;

/** Epoch milliseconds of a year-less time placed in `year`, logged `utcOffsetMinutes` east of UTC. */
export function yearlessToEpochMs(t: YearlessTime, year: number, utcOffsetMinutes = 0): number {
  // Month, day, hour and minute are below 100 (two printed digits at most), so the key names one minute.
  // Whole milliseconds below 2^53 add exactly: the sum is the double Date.UTC gives with the seconds.
  const key = (((year * 100 + t.month) * 100 + t.day) * 100 + t.hour) * 100 + t.minute;
  if (key !== minuteKey) {
    minuteKey = key;
    minuteMs = Date.UTC(year, t.month - 1, t.day, t.hour, t.minute);
  }
  return minuteMs + t.second * 1000 + t.micros / 1000 - utcOffsetMinutes * 60_000;
}
