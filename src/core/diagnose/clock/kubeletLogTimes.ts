// The times a kubelet log gives, read through the log reader's own line parser (readLineGeneral,
// classifyLogLine) and year resolution (LogClock): when its last line was written, the kubelet's access-log
// lines for GET /metrics, the last kubelet start, and when the kubelet said "PLEG is not healthy".
//
// Access-log lines are what k8s.io/apiserver/pkg/server/httplog writes when the kubelet's Server.ServeHTTP
// wraps a request (klog -v=3 and up): since 1.21 respLogger.Log prints `"HTTP" verb="GET" URI="/metrics"
// latency="13.524942ms" userAgent=… srcIP=… resp=200`, before that `GET /metrics: (13.5ms) 200 [agent addr]`.
// Log() runs deferred at the end of the request, so the line's time is when the body had been written
// and `latency` reaches back to when the request arrived.
//
// klog headers carry neither year nor zone: the year is taken from another clock of the folder (the caller
// passes an anchor), and header times are read as UTC like everywhere else in PLEG Doctor. A kubelet that
// logs in another zone shows up as access lines that fit no other clue, and they are dropped then.

import { goDurationSeconds } from '../../parse/durationSeconds';
import { LogClock } from '../../parse/logStretch';
import { classifyLogLine, readLineGeneral, type LineTime } from '../../parse/logReaderLine';

export interface AccessLine {
  /** 0-based line number. */
  line: number;
  /** When the request arrived (line time − latency) and when the line was written, epoch ms. */
  startMs: number;
  endMs: number;
  status: number;
  pid?: number;
}

export interface KubeletLogTimes {
  lines: number;
  /** The latest time among the log's last timed lines, epoch ms. */
  lastMs?: number;
  lastLine?: number;
  /** GET /metrics requests, in line order. */
  metricsRequests: AccessLine[];
  /** The last "Kubelet version" line (a kubelet process starting), 0-based line and pid. */
  lastStart?: { line: number; pid?: number };
  /** Times of the lines that say "PLEG is not healthy" (R1/R3), epoch ms. */
  plegUnhealthyMs: number[];
  /** How the year of year-less headers was chosen; undefined when the times carry their own. */
  year?: { value: number; from: string };
}

const STRUCTURED_URI = /^\/metrics(?:\?|$)/u;
/** The printf form of httplog before 1.21: `GET /metrics: (13.5ms) 200 [agent addr]`. */
const OLD_ACCESS = /^GET (\/metrics(?:\?\S*)?): \(([^)]+)\) (\d{3})/u;
/** How many lines from the end are searched for the newest time (klog lines of one moment may interleave). */
const TAIL_LINES = 50;

interface Raw {
  line: number;
  time: LineTime;
  kind: 'access' | 'start' | 'pleg' | 'tail';
  latencySeconds?: number;
  status?: number;
  pid?: number;
}

function accessOf(line: string, index: number): Raw | undefined {
  if (!line.includes('/metrics')) return undefined;
  const read = readLineGeneral(line);
  if (read.time === undefined) return undefined;
  const { msg, fields } = read.body;
  let uri: string | undefined;
  let latency: string | undefined;
  let status: string | undefined;
  if (msg === 'HTTP') {
    uri = fields.get('URI');
    latency = fields.get('latency');
    status = fields.get('resp');
    if (fields.get('verb') !== 'GET') return undefined;
  } else {
    const m = OLD_ACCESS.exec(msg);
    if (m === null) return undefined;
    [, uri, latency, status] = m;
  }
  if (uri === undefined || !STRUCTURED_URI.test(uri) || latency === undefined || status === undefined) return undefined;
  const latencySeconds = goDurationSeconds(latency);
  if (latencySeconds === undefined) return undefined;
  const raw: Raw = { line: index, time: read.time, kind: 'access', latencySeconds, status: Number(status) };
  if (read.pid !== undefined) raw.pid = read.pid;
  return raw;
}

/** Splits like readKubeletLog: \n, \r\n or \r; a trailing newline ends the last line. */
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/u);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function collect(lines: string[]): Raw[] {
  const raws: Raw[] = [];
  const tailFrom = Math.max(0, lines.length - TAIL_LINES);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const access = accessOf(line, i);
    if (access !== undefined) {
      raws.push(access);
      continue;
    }
    const facts = classifyLogLine(line);
    if (facts?.time !== undefined) {
      if (facts.events.some((e) => e.kind === 'kubelet-start')) {
        const raw: Raw = { line: i, time: facts.time, kind: 'start' };
        if (facts.pid !== undefined) raw.pid = facts.pid;
        raws.push(raw);
      } else if (facts.events.some((e) => e.kind === 'pleg-unhealthy')) {
        raws.push({ line: i, time: facts.time, kind: 'pleg' });
        continue;
      }
    }
    if (i >= tailFrom) {
      const time = readLineGeneral(line).time;
      if (time !== undefined) raws.push({ line: i, time, kind: 'tail' });
    }
  }
  return raws;
}

function resolveAll(raws: Raw[], year: number): number[] {
  const clock = new LogClock(year);
  return raws.map((r) => clock.resolve(r.time) ?? Number.NaN);
}

/**
 * Reads the log's times. `anchorMs` is another clock of the folder (a GC time, a heartbeat, a file time):
 * year-less headers are placed in the year (its own or the one before) that puts the log's end nearest it.
 * Without an anchor, year-less logs give no times at all.
 */
export function kubeletLogTimes(text: string, anchorMs: number | undefined): KubeletLogTimes {
  const lines = splitLines(text);
  const raws = collect(lines);
  const out: KubeletLogTimes = { lines: lines.length, metricsRequests: [], plegUnhealthyMs: [] };
  const yearless = raws.some((r) => 'yearless' in r.time);
  let times: number[];
  if (!yearless) {
    times = resolveAll(raws, 2024);
  } else {
    if (anchorMs === undefined) return out;
    const anchorYear = new Date(anchorMs).getUTCFullYear();
    const candidates = [anchorYear, anchorYear - 1].map((y) => ({ y, times: resolveAll(raws, y) }));
    const end = (ts: number[]): number => Math.max(...ts.filter((t) => Number.isFinite(t)));
    candidates.sort((a, b) => Math.abs(end(a.times) - anchorMs) - Math.abs(end(b.times) - anchorMs));
    const best = candidates[0] as { y: number; times: number[] };
    times = best.times;
    out.year = { value: best.y, from: new Date(anchorMs).toISOString() };
  }
  raws.forEach((r, i) => {
    const ms = times[i] as number;
    if (!Number.isFinite(ms)) return;
    if (r.kind === 'access') {
      const a: AccessLine = { line: r.line, startMs: ms - (r.latencySeconds ?? 0) * 1000, endMs: ms, status: r.status ?? 0 };
      if (r.pid !== undefined) a.pid = r.pid;
      out.metricsRequests.push(a);
    } else if (r.kind === 'start') {
      out.lastStart = r.pid !== undefined ? { line: r.line, pid: r.pid } : { line: r.line };
    } else if (r.kind === 'pleg') {
      out.plegUnhealthyMs.push(ms);
    }
    if (r.line >= lines.length - TAIL_LINES && (out.lastMs === undefined || ms > out.lastMs)) {
      out.lastMs = ms;
      out.lastLine = r.line;
    }
  });
  return out;
}
