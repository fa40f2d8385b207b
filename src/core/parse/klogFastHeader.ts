// The common kubelet line header, read with two sticky regexes and fixed offsets: a klog header
// (`I1122 14:03:12.123456   31657 file.go:123] `), bare or behind a journald short / short-precise prefix
// (`Nov 22 14:03:12.123456 host kubelet[31657]: `). The general path (stripLogPrefix's four prefix
// regexes, then the syslog time and the klog header, each with capture groups) builds a match array per
// regex and a string per group; here the regexes only test (no captures, so nothing is allocated), and
// the numbers are read from the places the klog format fixes.
//
// Regexes rather than a loop over character codes: the CLI classifies some 25,000 lines per thread per
// GB, and for the first few thousand of them a JS loop runs in V8's interpreter, at several µs a line,
// while a regex runs as native code from the start: this reader took a quarter less than the general
// path, and a character-code reader no less (bench/README.md, "Measurements behind the log reader").
//
// It answers only where the result is what classifyLogLine's general path makes of the same line, and
// returns undefined otherwise (the caller then takes the general path). The patterns are the general
// path's own (klogPrefix's SYSLOG, klogHeader's KLOG_HEADER) without their groups; a property test
// holds the two paths together on lines with odd fields of every kind.

import { KLOG_HEADER_PLAIN, klogTimeValid, type YearlessTime } from './klogHeader';

export interface FastHeader {
  /** Where the klog header starts: 0, or past the journald prefix. */
  klogAt: number;
  /** Where the message starts: past the klog header and the one space that may follow its `]`. */
  bodyAt: number;
  /** The klog header's time (always valid here: a line with an impossible klog time is left to the general path). */
  time: YearlessTime;
  /** `HH:MM:SS` as the klog header prints it. */
  clock: string;
  /** The klog header's pid (which wins over the journald `kubelet[pid]`), and where its digits are. */
  pid: number;
  pidAt: number;
  pidEnd: number;
}

/** klogPrefix's SYSLOG pattern, without groups: `Mmm DD HH:MM:SS[.frac] host ident[pid]: `. */
const JOURNALD = /[A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)? \S+ [^\s:[\]]+(?:\[\d+\])?: /uy;
/** klogHeader.ts's KLOG_HEADER, without groups: `LMMDD HH:MM:SS.uuuuuu<spaces>pid file:line] `. */
const KLOG = new RegExp(KLOG_HEADER_PLAIN.source, 'uy');

/** Digits a pid may have to be summed exactly; a longer one is read with Number(), as the general path does. */
export const PID_EXACT_DIGITS = 15;

/** The ASCII digit at `at` (the regex has made sure there is one). */
function d(line: string, at: number): number {
  return line.charCodeAt(at) - 0x30;
}

function isDigit(line: string, at: number): boolean {
  const c = line.charCodeAt(at);
  return c >= 0x30 && c <= 0x39;
}

/**
 * The common header of a kubelet line, or undefined when the line has another shape (or an impossible
 * klog time, whose fallback to the prefix's time is the general path's business).
 */
export function readFastHeader(line: string): FastHeader | undefined {
  let k = 0;
  // A bare klog line starts with a severity letter and a digit, which no collector prefix does (the
  // general path tries the prefixes first and finds none); anything else may be a journald prefix.
  // ISO and CRI prefixes start with a digit, so neither this nor the klog pattern takes them.
  if (!isDigit(line, 1)) {
    JOURNALD.lastIndex = 0;
    if (!JOURNALD.test(line)) return undefined;
    k = JOURNALD.lastIndex;
  }
  KLOG.lastIndex = k;
  if (!KLOG.test(line)) return undefined;
  const bodyAt = KLOG.lastIndex;
  const month = d(line, k + 1) * 10 + d(line, k + 2);
  const day = d(line, k + 3) * 10 + d(line, k + 4);
  const hour = d(line, k + 6) * 10 + d(line, k + 7);
  const minute = d(line, k + 9) * 10 + d(line, k + 10);
  const second = d(line, k + 12) * 10 + d(line, k + 13);
  // The general path's validity check; an invalid time there means the prefix's time, if any: not here.
  if (!klogTimeValid(month, day, hour, minute, second)) return undefined;
  let micros = 0;
  for (let i = k + 15; i < k + 21; i++) micros = micros * 10 + d(line, i);
  // The pid: the first digit after the microseconds starts it (the \s+ before it holds none), a space ends it.
  let from = k + 21;
  while (!isDigit(line, from)) from++;
  const to = line.indexOf(' ', from);
  let pid = 0;
  if (to - from <= PID_EXACT_DIGITS) for (let i = from; i < to; i++) pid = pid * 10 + d(line, i);
  else pid = Number(line.slice(from, to));
  return { klogAt: k, bodyAt, time: { month, day, hour, minute, second, micros }, clock: line.slice(k + 6, k + 14), pid, pidAt: from, pidEnd: to };
}
