// Readings of the kubelet log that several checks share, as evidence lines that name the log's own line
// numbers and clock times, so a reader can open the log at the line. "At the end of the log" means within
// a minute of its last timed line: while PLEG or the runtime is unhealthy the kubelet's sync loop writes a
// "Skipping pod synchronization" line at least every 5 s (kubelet.go, Kubelet.syncLoop: backoff 100 ms
// doubling to 5 s), so a minute of log without one means the skipping stopped, unless the loop itself is
// blocked in a runtime call (it then logs nothing, as the real 1.32 recording shows for 2 min); that is why
// a relist failure or runtime error after the last skip line rules the silence out as a recovery.

import type { EvidenceLine } from './diagnosis';
import type { KubeletLogEvidence, LogLineRef, LogRefs, LogStretchRef } from './kubeletLog';
import { stretchReasons } from './kubeletLog';
import { age, plural, quoted } from './textFormat';

/** A stretch or line this close to the log's last timed line is "at the end of the log". */
export const LOG_END_SECONDS = 60;

function lineSpan(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}–${last}`;
}

function clockSpan(s: LogStretchRef): string {
  if (s.firstClock === undefined) return '';
  return s.lastClock !== undefined && s.lastClock !== s.firstClock ? ` (${s.firstClock} → ${s.lastClock})` : ` (${s.firstClock})`;
}

function at(ref: LogLineRef): string {
  return `line ${ref.line}${ref.clock !== undefined ? ` (${ref.clock})` : ''}`;
}

/** "kubelet log lines 3227–3748 (03:03:46 → 03:05:41): PLEG unhealthy for 1m55s, pleg last seen active up to 4m58s ago". */
export function plegStretchLine(s: LogStretchRef): EvidenceLine {
  const seen = s.maxLastSeenAgoSeconds !== undefined ? `, "pleg was last seen active" up to ${age(s.maxLastSeenAgoSeconds)} ago` : '';
  return { origin: 'kubeletLog', text: `kubelet log ${lineSpan(s.firstLine, s.lastLine)}${clockSpan(s)}: PLEG unhealthy for ${age(s.durationSeconds)} (${plural(s.lines, 'line')})${seen}` };
}

export function skipStretchLine(s: LogStretchRef): EvidenceLine {
  const why = stretchReasons(s);
  return { origin: 'kubeletLog', text: `kubelet log ${lineSpan(s.firstLine, s.lastLine)}${clockSpan(s)}: pod sync skipped for ${age(s.durationSeconds)}${why !== '' ? ` (${why})` : ''}` };
}

/** One line for a kind of line: how many, the latest with its error, and where the first one was. */
export function refsLine(refs: LogRefs, what: string, pick: (r: LogLineRef) => boolean = () => true): EvidenceLine | undefined {
  const chosen = refs.recent.filter(pick);
  const last = chosen[chosen.length - 1];
  if (last === undefined) return undefined;
  const count = chosen.length === refs.recent.length ? refs.count : chosen.length;
  const firstRef = chosen[0];
  const earlier = count > 1 && firstRef !== undefined && firstRef !== last ? `; the first at ${at(firstRef)}` : '';
  const detail = last.err !== undefined ? `: ${quoted(last.err)}` : last.message !== what ? `: ${quoted(last.message)}` : '';
  return { origin: 'kubeletLog', text: `kubelet log: ${what} ×${count}, the latest at ${at(last)}${detail}${earlier}` };
}

export function lastOf<T>(items: readonly T[]): T | undefined {
  return items[items.length - 1];
}

/** The latest PLEG stretch runs into the log's last minute, and no recovery (a Ready line) follows it. */
export function plegUnhealthyAtLogEnd(log: KubeletLogEvidence): boolean {
  const s = lastOf(log.plegStretches);
  if (s?.endsBeforeEndSeconds === undefined || s.endsBeforeEndSeconds > LOG_END_SECONDS) return false;
  const recovered = recoveryInLog(log);
  return recovered === undefined || recovered.line <= s.lastLine;
}

export interface LogRecovery {
  /** 1-based line from which the log shows the node healthy again. */
  line: number;
  evidence: EvidenceLine;
}

/**
 * Where the log shows the node recovered after its last unhealthy line (PLEG or skipped sync): a "Node
 * became Ready" after it with no NotReady later, or more than a minute of log after it without another
 * one and without a relist failure or runtime error. Undefined when the log shows neither.
 */
export function recoveryInLog(log: KubeletLogEvidence): LogRecovery | undefined {
  const pleg = lastOf(log.plegStretches);
  // Start-up skips ("not completed yet", "yet to be successful") are every kubelet's first seconds.
  const skip = lastOf(log.skippedSyncStretches.filter((s) => (s.reasons ?? []).some((r) => r !== 'runtime-status-pending' && r !== 'pleg-never')));
  const bad = [pleg, skip].filter((s): s is LogStretchRef => s !== undefined).sort((a, b) => a.lastLine - b.lastLine).pop();
  if (bad === undefined) return undefined;
  const ready = log.ready.recent.find((r) => r.line > bad.lastLine);
  const notReadyAfter = log.notReady.recent.some((r) => r.line > (ready?.line ?? bad.lastLine));
  if (ready !== undefined && !notReadyAfter) {
    const after = ready.beforeEndSeconds !== undefined && ready.beforeEndSeconds > 0 ? `, ${age(ready.beforeEndSeconds)} before the log's last line` : ', at the log\'s end';
    return { line: ready.line, evidence: { origin: 'kubeletLog', text: `kubelet log ${at(ready)}: the node became Ready again${after}, and no PLEG or sync-skip line follows` } };
  }
  const quiet = bad.endsBeforeEndSeconds;
  const runtimeErrorsAfter = [...log.relistFailures.recent, ...log.runtimeDown.recent].some((r) => r.line > bad.lastLine);
  if (quiet !== undefined && quiet > LOG_END_SECONDS && !notReadyAfter && !runtimeErrorsAfter) {
    const end = log.lastClock !== undefined ? ` (to ${log.lastClock})` : '';
    return {
      line: bad.lastLine + 1,
      evidence: { origin: 'kubeletLog', text: `kubelet log: no PLEG or sync-skip line after line ${bad.lastLine}${bad.lastClock !== undefined ? ` (${bad.lastClock})` : ''} for the last ${age(quiet)} of the log${end}; while PLEG is unhealthy the kubelet writes one at least every 5 s` },
    };
  }
  return undefined;
}

/** NotReady transitions in the log: "3 NotReady transitions (lines 18, 240, 512)". */
export function notReadyHistoryLine(log: KubeletLogEvidence): EvidenceLine | undefined {
  if (log.notReady.count === 0) return undefined;
  const lines = log.notReady.recent.map((r) => r.line + (r.clock !== undefined ? ` ${r.clock}` : '')).slice(-5);
  const ready = log.ready.count > 0 ? `, ${plural(log.ready.count, 'return')} to Ready` : '';
  return { origin: 'kubeletLog', text: `kubelet log: ${plural(log.notReady.count, '"Node became not ready" transition')}${ready} (${lines.length < log.notReady.count ? 'latest at ' : ''}lines ${lines.join(', ')})` };
}

/** What the log covers, for a check's note. */
export function logCoverage(log: KubeletLogEvidence): string {
  const span = log.firstClock !== undefined && log.lastClock !== undefined ? ` ${log.firstClock} → ${log.lastClock}` : '';
  return `kubelet log: ${plural(log.lines, 'line')}${span}`;
}
