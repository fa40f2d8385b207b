// Kubelet log lines as they reach us: plain klog text, the same behind a syslog/journald or ISO-timestamp
// prefix, or klog's JSON format. One record per line; multi-line values (`key=<` … ` >`) are folded back
// by parseKlogText. Offsets refer to the original line so the log language server can point into it.

import { KLOG_HEADER, klogTimeValid, yearlessToEpochMs, type KlogSeverity, type YearlessTime } from './klogHeader';
import { klogJsonTsToEpochMs } from './klogJsonTime';
import { parseStructuredBody, type KlogField } from './klogStructured';
import { stripLogPrefix, type LogPrefix } from './klogPrefix';

export type { KlogSeverity } from './klogHeader';

export interface KlogRecord {
  format: 'text' | 'json';
  line: string;
  prefix?: LogPrefix;
  severity: KlogSeverity;
  /** Text format only. */
  time?: YearlessTime;
  /** Known when the line itself carries a full timestamp (JSON `ts`, an ISO prefix). */
  epochMs?: number;
  threadId?: number;
  /** `file.go:123`, as klog prints it (JSON: `caller`). */
  source?: string;
  /** Everything after the header. */
  body: string;
  bodyStart: number;
  /** The message: decoded for structured lines, the whole body for printf-style ones. */
  msg: string;
  structured: boolean;
  fields: KlogField[];
  /** The `err` field's value, when present. */
  err?: string;
}

export class KlogParseError extends Error {
  constructor(
    readonly line: string,
    reason: string,
  ) {
    super(`not a kubelet log line (${reason}): ${line.length > 120 ? `${line.slice(0, 117)}...` : line}`);
    this.name = 'KlogParseError';
  }
}

/** Parses one line, or explains why it is not a klog text or JSON line. */
export function parseKlogLine(line: string): KlogRecord {
  const stripped = stripLogPrefix(line);
  const at = stripped?.rest ?? 0;
  const prefix = stripped?.prefix;
  const record = line[at] === '{' ? parseJsonAt(line, at) : parseTextAt(line, at);
  if (typeof record === 'string') throw new KlogParseError(line, record);
  if (prefix) {
    record.prefix = prefix;
    if (record.epochMs === undefined && prefix.epochMs !== undefined) record.epochMs = prefix.epochMs;
  }
  return record;
}

/** Like parseKlogLine, but undefined for lines that are not log records (flag warnings, stack traces). */
export function tryParseKlogLine(line: string): KlogRecord | undefined {
  try {
    return parseKlogLine(line);
  } catch (e) {
    if (e instanceof KlogParseError) return undefined;
    throw e;
  }
}

function parseTextAt(line: string, at: number): KlogRecord | string {
  const h = KLOG_HEADER.exec(line.slice(at));
  if (!h) return 'no klog header "Lmmdd hh:mm:ss.uuuuuu threadid file:line]"';
  const [header, sev, mm, dd, hh, mi, ss, us, tid, src] = h as unknown as string[];
  const time: YearlessTime = { month: Number(mm), day: Number(dd), hour: Number(hh), minute: Number(mi), second: Number(ss), micros: Number(us) };
  if (!klogTimeValid(time.month, time.day, time.hour, time.minute, time.second)) {
    return 'klog header has an impossible date or time';
  }
  const bodyStart = at + (header as string).length;
  const body = line.slice(bodyStart);
  const s = parseStructuredBody(line, bodyStart);
  const record: KlogRecord = {
    format: 'text',
    line,
    severity: sev as KlogSeverity,
    time,
    threadId: Number(tid),
    source: src as string,
    body,
    bodyStart,
    msg: s ? s.msg : body,
    structured: s !== undefined,
    fields: s ? s.fields : [],
  };
  const err = s?.fields.find((f) => f.key === 'err');
  if (err) record.err = err.value;
  return record;
}

function parseJsonAt(line: string, at: number): KlogRecord | string {
  let obj: unknown;
  try {
    obj = JSON.parse(line.slice(at));
  } catch (e) {
    return `invalid JSON: ${(e as Error).message}`;
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return 'JSON line is not an object';
  const o = obj as Record<string, unknown>;
  if (typeof o['msg'] !== 'string') return 'JSON log line has no string "msg"';
  const fields: KlogField[] = [];
  for (const [key, v] of Object.entries(o)) {
    if (key === 'msg' || key === 'ts' || key === 'caller' || key === 'v') continue;
    fields.push({ key, value: typeof v === 'string' ? v : JSON.stringify(v), quoted: typeof v === 'string', start: at, end: line.length });
  }
  // klog's JSON format has no level: info lines carry a verbosity "v", error lines do not.
  const record: KlogRecord = {
    format: 'json',
    line,
    severity: 'v' in o ? 'I' : 'E',
    body: line.slice(at),
    bodyStart: at,
    msg: o['msg'],
    structured: true,
    fields,
  };
  const epochMs = klogJsonTsToEpochMs(o['ts']);
  if (epochMs !== undefined) record.epochMs = epochMs;
  if (typeof o['caller'] === 'string') record.source = o['caller'];
  if (typeof o['err'] === 'string') record.err = o['err'];
  return record;
}

/** A field's decoded value by key. */
export function klogField(record: KlogRecord, key: string): string | undefined {
  return record.fields.find((f) => f.key === key)?.value;
}

export interface KlogTextEntry {
  /** 1-based line number of the record's first line. */
  lineNumber: number;
  record: KlogRecord;
  /** Epoch ms: from the line itself, or from the header time with the year carried across Dec → Jan. */
  epochMs?: number;
}

export interface KlogTextResult {
  entries: KlogTextEntry[];
  /** Lines that are neither records nor continuations, with the reason. */
  skipped: Array<{ lineNumber: number; reason: string }>;
}

export interface KlogTextOptions {
  /** Year of the first record; needed to turn header times into epoch ms. */
  year?: number;
  utcOffsetMinutes?: number;
}

/**
 * Parses a whole log. A value printed as `key=<` continues on tab-indented lines up to a line ` >`;
 * those lines are folded into the record's field (tabs stripped, lines joined with \n).
 */
export function parseKlogText(text: string, options: KlogTextOptions = {}): KlogTextResult {
  const lines = text.split(/\r?\n/u);
  const entries: KlogTextEntry[] = [];
  const skipped: KlogTextResult['skipped'] = [];
  let year = options.year;
  let lastMonth = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    let record: KlogRecord;
    try {
      record = parseKlogLine(line);
    } catch (e) {
      if (!(e instanceof KlogParseError)) throw e;
      skipped.push({ lineNumber: i + 1, reason: e.message });
      continue;
    }
    const lineNumber = i + 1;
    const last = record.fields[record.fields.length - 1];
    if (last && !last.quoted && last.value === '<' && last.end === line.length) {
      const parts: string[] = [];
      while (i + 1 < lines.length && lines[i + 1] !== ' >') {
        parts.push((lines[i + 1] as string).replace(/^\t/u, ''));
        i++;
      }
      if (i + 1 < lines.length) i++;
      last.value = parts.join('\n');
    }
    const entry: KlogTextEntry = { lineNumber, record };
    if (record.epochMs !== undefined) entry.epochMs = record.epochMs;
    else if (record.time && year !== undefined) {
      if (record.time.month < lastMonth) year++;
      lastMonth = record.time.month;
      entry.epochMs = yearlessToEpochMs(record.time, year, options.utcOffsetMinutes ?? 0);
    }
    entries.push(entry);
  }
  return { entries, skipped };
}
