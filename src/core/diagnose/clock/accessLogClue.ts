// Which kubelet access-log line served this /metrics body? Two ways, the first exact:
// - by count: the kubelet counts each request in kubelet_http_requests_total when it arrives
//   (pkg/kubelet/server/server.go, Server.ServeHTTP, before the handler runs), so a body reading N for
//   GET /metrics answered the Nth GET /metrics since the kubelet started, in order of arrival. When the log
//   holds that start, the Nth access line (ordered by arrival = line time − latency) is the one;
// - by fit: otherwise every GET /metrics line whose request overlaps the body's own window could be it,
//   provided the log runs past the end of that window (else the real one may not be in it).
// A line that contradicts the body's own clues (a log in another time zone, requests not all logged) is
// not used, and the note says so.

import type { MetricsServedFacts } from '../../parse/kubeletEndpointTypes';
import type { ClockClue } from './clockTypes';
import { isoMillis, isoSeconds } from './clockText';
import type { AccessLine, KubeletLogTimes } from './kubeletLogTimes';

/** The kubelet's log times and its Go runtime's figures share one clock; this only covers rounding. */
const SAME_CLOCK_SLACK_MS = 1000;

export interface Window {
  notBeforeMs?: number;
  notAfterMs?: number;
}

function fits(a: AccessLine, w: Window): boolean {
  return (w.notBeforeMs === undefined || a.endMs >= w.notBeforeMs - SAME_CLOCK_SLACK_MS) && (w.notAfterMs === undefined || a.startMs <= w.notAfterMs + SAME_CLOCK_SLACK_MS);
}

function sinceLastStart(log: KubeletLogTimes): { lines: AccessLine[]; fromStart: boolean } {
  const start = log.lastStart;
  if (start === undefined) return { lines: log.metricsRequests, fromStart: false };
  const lines = log.metricsRequests.filter((a) => a.line > start.line && (start.pid === undefined || a.pid === undefined || a.pid === start.pid));
  return { lines, fromStart: true };
}

/** The access-log clue for one /metrics body, or a note saying why the log could not place it. */
export function accessLogClue(file: string, logFile: string, served: MetricsServedFacts | undefined, log: KubeletLogTimes, own: Window): { clue?: ClockClue; note?: string } {
  if (log.metricsRequests.length === 0) return { note: `${logFile} has no access-log line for GET /metrics (the kubelet logs them from -v=3)` };
  const { lines, fromStart } = sinceLastStart(log);
  const n = served?.metricsRequests;
  if (n !== undefined && fromStart) {
    const byArrival = [...lines].sort((a, b) => a.startMs - b.startMs);
    const nth = byArrival[n - 1];
    if (nth === undefined) {
      return { note: `${file} answered GET /metrics number ${n} since the kubelet started, but ${logFile} holds only ${byArrival.length} after its last start: the scrape is not in the log` };
    }
    if (nth.status !== 200 || !fits(nth, own)) {
      return { note: `${logFile} line ${nth.line + 1}, GET /metrics number ${n}, does not fit ${file}'s own times (is the log in another time zone, or incomplete?): not used` };
    }
    return {
      clue: {
        kind: 'access-log',
        notBeforeMs: nth.startMs,
        notAfterMs: nth.endMs,
        firm: true,
        text: `${logFile} line ${nth.line + 1}: the kubelet's access-log line for GET /metrics number ${n} since its start (kubelet_http_requests_total in ${file}), served ${isoMillis(nth.startMs)} – ${isoMillis(nth.endMs)}`,
      },
    };
  }
  const end = own.notAfterMs;
  if (end === undefined || log.lastMs === undefined || log.lastMs < end) {
    return { note: `${logFile} ends before ${file} was latest served, so its GET /metrics lines cannot place the scrape` };
  }
  const fitting = lines.filter((a) => a.status === 200 && fits(a, own));
  if (fitting.length === 0) return { note: `no GET /metrics line of ${logFile} fits ${file}'s own times (is the log in another time zone?)` };
  const from = Math.min(...fitting.map((a) => a.startMs));
  const to = Math.max(...fitting.map((a) => a.endMs));
  const which = fitting.length === 1 ? `line ${(fitting[0] as AccessLine).line + 1}` : `${fitting.length} access-log lines`;
  return {
    clue: { kind: 'access-log', notBeforeMs: from, notAfterMs: to, firm: false, text: `${logFile}: ${which} for GET /metrics fit ${file}'s own times: served between ${isoSeconds(from)} and ${isoSeconds(to)}` },
  };
}
