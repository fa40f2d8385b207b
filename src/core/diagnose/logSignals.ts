// Readings of the kubelet log that several checks share, as evidence lines that name the log's own line
// numbers and clock times, so a reader can open the log at the line. "At the end of the log" means within
// a minute of its last timed line: while PLEG or the runtime is unhealthy the kubelet writes a "Skipping
// pod synchronization" line at least every 5 s (backoff 100 ms doubling to 5 s), so a minute of silence
// after the last one means the skipping stopped.

import type { EvidenceLine } from './diagnosis';
import type { KubeletLogEvidence, LogLineRef, LogRefs, LogStretchRef } from './kubeletLog';
import { stretchReasons } from './kubeletLog';
import { age, plural, quoted, seconds } from './textFormat';

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

/** The latest PLEG stretch still runs at the log's end. */
export function plegUnhealthyAtLogEnd(log: KubeletLogEvidence): boolean {
  const s = lastOf(log.plegStretches);
  return s?.endsBeforeEndSeconds !== undefined && s.endsBeforeEndSeconds <= LOG_END_SECONDS;
}

/**
 * Where the log shows the node recovered: a "Node became Ready" after the last unhealthy line (PLEG or
 * skipped sync), with no unhealthy line in the log's last minute. Undefined when it does not show that.
 */
export function recoveryInLog(log: KubeletLogEvidence): LogLineRef | undefined {
  const lastBad = Math.max(lastOf(log.plegStretches)?.lastLine ?? 0, lastOf(log.skippedSyncStretches)?.lastLine ?? 0);
  if (lastBad === 0) return undefined;
  const badEnd = [lastOf(log.plegStretches), lastOf(log.skippedSyncStretches)].find((s) => s?.lastLine === lastBad)?.endsBeforeEndSeconds;
  if (badEnd === undefined || badEnd <= LOG_END_SECONDS) return undefined;
  return log.ready.recent.find((r) => r.line > lastBad);
}

export function recoveryLine(ready: LogLineRef, log: KubeletLogEvidence): EvidenceLine {
  const after = ready.beforeEndSeconds !== undefined ? `, ${seconds(Math.round(ready.beforeEndSeconds))} before the log's last line${log.lastClock !== undefined ? ` (${log.lastClock})` : ''}` : '';
  return { origin: 'kubeletLog', text: `kubelet log ${at(ready)}: the node became Ready again${after}, and no PLEG or sync-skip line follows` };
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
