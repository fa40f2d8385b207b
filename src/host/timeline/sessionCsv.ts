// The CSV export: one row per relist, for a spreadsheet. Pure (no vscode).

import type { SessionRelist, TimelineSession } from '../../core/timeline/session';

export const SESSION_CSV_COLUMNS = [
  'start',
  'start_ms',
  'duration_ms',
  'ok',
  'error',
  'since_last_relist_start_ms',
  'pods',
  'containers',
  'pods_inspected',
  'rpcs',
  'rpc_errors',
  'max_rpc_latency_ms',
  'events',
  'discards',
] as const;

/** RFC 4180: quote a field that holds a comma, quote or line break; double the quotes inside. */
function field(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/u.test(text) ? `"${text.replace(/"/gu, '""')}"` : text;
}

/**
 * Milliseconds to the microsecond: the session's times are differences of doubles (endMs − startMs of a
 * 2-minute deadline is 119999.99999999999), and a spreadsheet should read 120000.
 */
export function csvMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

function row(startedAtMs: number, r: SessionRelist): string {
  const rpcErrors = r.rpcs.filter((c) => c.error !== undefined).length;
  const maxLatency = r.rpcs.reduce((max, c) => Math.max(max, c.latencyMs), 0);
  return [
    new Date(startedAtMs + r.startMs).toISOString(),
    csvMs(r.startMs),
    csvMs(r.endMs - r.startMs),
    r.ok,
    r.error,
    csvMs(r.sinceLastRelistStartMs),
    r.pods,
    r.containers,
    r.podsInspected.length,
    r.rpcs.length,
    rpcErrors,
    r.rpcs.length === 0 ? undefined : csvMs(maxLatency),
    r.events,
    r.discards,
  ]
    .map(field)
    .join(',');
}

export function sessionCsv(session: TimelineSession): string {
  const startedAtMs = Date.parse(session.startedAt);
  const lines = [SESSION_CSV_COLUMNS.join(','), ...session.relists.map((r) => row(Number.isFinite(startedAtMs) ? startedAtMs : 0, r))];
  return `${lines.join('\r\n')}\r\n`;
}
