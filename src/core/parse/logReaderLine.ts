// One kubelet log line → the facts the log reader needs: its time (absolute, or year-less as klog and
// syslog print it), the kubelet's pid, and the PLEG-relevant events the line reports. Stateless, so the
// language server can keep one result per line and re-run only the cheap sequential pass on edits.
//
// Speed matters (a 1 GB journal goes through here): one prefilter regex rejects the ~99 % of lines that
// mention nothing we look for, before any header, prefix or JSON parsing.

import { goDurationSeconds } from './durationSeconds';
import { readFastHeader } from './klogFastHeader';
import { KLOG_HEADER, klogTimeValid, type YearlessTime } from './klogHeader';
import { klogJsonTsToEpochMs } from './klogJsonTime';
import { readJournalJson, type JournalJsonEntry } from './journalJson';
import { parseJsonObjectLine } from './jsonObjectLine';
import { stripLogPrefix } from './klogPrefix';
import { parseStructuredBody } from './klogStructured';
import type { LineEvent, LineFacts, LineTime } from './lineFacts';
import { memoizedBodyEvents, type BodyEvents } from './lineEventsMemo';
import { E1, L10, L12, L5, L6, R1, R3, R4 } from './messageCatalog';
import { readyErrorKinds } from './readyErrorKinds';

/** Lines longer than this are cut before matching: the messages we look for sit at a line's start. */
export const MAX_MATCHED_LINE = 64 * 1024;

export type { LineEvent, LineEventKind, LineFacts, LineTime } from './lineFacts';
export type { YearlessTime } from './klogHeader';

// Every phrase a detector below needs, as one regex without the u flag (faster on ASCII-heavy text).
// A line that matches none of them carries no event, so the costly parsing never runs for it.
const PREFILTER =
  /[Ss]kipping pod synchronization|PLEG is not healthy|GenericPLEG: Unable to retrieve pods|[Ee]vent channel is full|Evented PLEG: |Fall back to Generic PLEG|Container runtime\s+(?:sanity|(?:network\s+)?not\s+ready)|container runtime is down|[Hh]ousekeeping took|Node became not ready|NodeNotReady|NodeReady|Kubelet version|\] Version: v/;

const SYSLOG_TIME = /^([A-Z][a-z]{2}) {1,2}(\d{1,2}) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?/u;
const MONTHS: Readonly<Record<string, number>> = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };

const SKIP = /[Ss]kipping pod synchronization/u;
const SKIP_LIST = /[Ss]kipping pod synchronization - (.*)$/u;
const RELIST_FAILED = /GenericPLEG: Unable to retrieve pods(?:: (.*))?/u;
const EVENTED_DISCARD = /Event channel is full, discarded pod lifecycle event/u;
// 1.23+: "Housekeeping took longer than expected" expected= actual=; 1.22 (kubelet.go syncLoopIteration):
// "Housekeeping took longer than 15s" seconds=30.0019 (the real 1.22.4 log in test/fixtures/k8s-1.22-fault).
const HOUSEKEEPING = /[Hh]ousekeeping took (?:longer than (?:expected|\d+s)|too long)/u;
const KUBELET_VERSION = /"Kubelet version" kubeletVersion="([^"]*)"|\] Version: (v\d\S*)/u;
/** glog/klog before 1.21 (server.go): `Version: v1.13.4` as the whole message. */
const OLD_VERSION = /^Version: (v\d\S*)/u;
const R2_TEXT = /PLEG is not healthy:\s+pleg has yet to be successful/u;
const NOT_READY_EVENT = /event="NodeNotReady"|Recording NodeNotReady event|reason="NodeNotReady"/u;
const READY_EVENT = /event="NodeReady"|Recording NodeReady event|reason="NodeReady"/u;

/** The text after any collector prefix, its offset, and what the prefix said. */
interface Unwrapped {
  at: number;
  time?: LineTime;
  pid?: number;
  clock?: string;
}

function unwrap(line: string): Unwrapped {
  const stripped = stripLogPrefix(line);
  if (stripped === undefined) return { at: 0 };
  const out: Unwrapped = { at: stripped.rest };
  const { prefix } = stripped;
  if (prefix.pid !== undefined && (prefix.ident === undefined || prefix.ident.startsWith('kubelet'))) out.pid = prefix.pid;
  if (prefix.epochMs !== undefined) {
    out.time = { epochMs: prefix.epochMs };
    // short-unix prints no wall clock: its epoch seconds are shown in UTC, as a JSON line's ts is.
    out.clock = prefix.kind === 'unix' ? new Date(prefix.epochMs).toISOString().slice(11, 19) : (/T(\d\d:\d\d:\d\d)/u.exec(prefix.timestamp)?.[1] ?? prefix.timestamp);
  } else {
    const m = SYSLOG_TIME.exec(prefix.timestamp);
    const month = m ? MONTHS[m[1] as string] : undefined;
    if (m && month !== undefined) {
      out.time = {
        yearless: { month, day: Number(m[2]), hour: Number(m[3]), minute: Number(m[4]), second: Number(m[5]), micros: Number((m[6] ?? '').padEnd(6, '0')) },
      };
      out.clock = `${m[3] as string}:${m[4] as string}:${m[5] as string}`;
    }
  }
  return out;
}

export interface Body {
  /** The message (decoded for structured and JSON lines; the whole body for printf-style lines). */
  msg: string;
  /** The err field, decoded, when the line is structured. */
  err?: string;
  /** Every field by key, for structured and JSON lines. */
  fields: Map<string, string>;
  /** Text searched for Ready-style messages: the whole body as written. */
  text: string;
}

function readBody(line: string, at: number): { body: Body; time?: LineTime; pid?: number; clock?: string } {
  if (line.charCodeAt(at) === 0x7b /* { */) {
    const json = readJson(line.slice(at));
    if (json !== undefined) return json;
  }
  const rest = at === 0 ? line : line.slice(at);
  const h = KLOG_HEADER.exec(rest);
  if (h === null) return { body: plainBody(rest) };
  const [header, , mm, dd, hh, mi, ss, us, pid] = h as unknown as string[];
  const time: YearlessTime = {
    month: Number(mm),
    day: Number(dd),
    hour: Number(hh),
    minute: Number(mi),
    second: Number(ss),
    micros: Number(us),
  };
  const body = klogBody(rest.slice((header as string).length));
  const valid = klogTimeValid(time.month, time.day, time.hour, time.minute, time.second);
  const out: { body: Body; time?: LineTime; pid?: number; clock?: string } = { body, pid: Number(pid) };
  if (valid) {
    out.time = { yearless: time };
    out.clock = `${hh as string}:${mi as string}:${ss as string}`;
  }
  return out;
}

/** The message after a klog header: structured (`"msg" key="value"`) when it parses so, else plain text. */
function klogBody(bodyText: string): Body {
  const s = parseStructuredBody(bodyText);
  return s === undefined ? plainBody(bodyText) : structuredBody(s.msg, s.fields, bodyText);
}

function plainBody(text: string): Body {
  return { msg: text, fields: new Map(), text };
}

function structuredBody(msg: string, fields: ReadonlyArray<{ key: string; value: string }>, text: string): Body {
  const map = new Map<string, string>();
  for (const f of fields) if (!map.has(f.key)) map.set(f.key, f.value);
  const body: Body = { msg, fields: map, text };
  const err = map.get('err');
  if (err !== undefined) body.err = err;
  return body;
}

function readJson(json: string): { body: Body; time?: LineTime; clock?: string } | undefined {
  const o = parseJsonObjectLine(json);
  if (o === undefined) return undefined;
  if (typeof o['msg'] !== 'string') return undefined;
  const fields = new Map<string, string>();
  for (const [k, v] of Object.entries(o)) if (k !== 'msg') fields.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  // The Ready message of a JSON "Node became not ready" sits in a nested object: search its JSON text.
  // Searched text in the klog text shape (`msg key="value"`), so one set of patterns serves both.
  const text = [o['msg'], ...[...fields].map(([k, v]) => `${k}=${typeof o[k] === 'string' ? JSON.stringify(v) : v}`)].join(' ');
  const body: Body = { msg: o['msg'], fields, text };
  if (typeof o['err'] === 'string') body.err = o['err'];
  const out: { body: Body; time?: LineTime; clock?: string } = { body };
  const epochMs = klogJsonTsToEpochMs(o['ts']);
  if (epochMs !== undefined) {
    out.time = { epochMs };
    const d = new Date(epochMs);
    if (!Number.isNaN(d.getTime())) out.clock = d.toISOString().slice(11, 19);
  }
  return out;
}

function skipReasons(body: Body): string[] {
  let errText = body.err;
  if (errText === undefined) {
    const list = SKIP_LIST.exec(body.msg);
    errText = list?.[1] ?? '';
  }
  return readyErrorKinds(errText);
}

/**
 * A kubelet process starting. Decoded messages first: a structured or JSON "Kubelet version" line carries
 * the version as a field (the JSON line's searched text has no quotes around the message), and a klog
 * header is already cut off the body of an old `Version: v1.12.10` line. The raw-text pattern stays for
 * lines whose body did not parse.
 */
function kubeletStart(body: Body): LineEvent | undefined {
  let v: string | undefined;
  if (body.msg === 'Kubelet version') v = body.fields.get('kubeletVersion');
  else {
    const old = OLD_VERSION.exec(body.msg);
    if (old !== null) v = old[1];
    else {
      // Both of KUBELET_VERSION's forms hold "ersion"; one search spares most lines the regex.
      const m = body.text.includes('ersion') ? KUBELET_VERSION.exec(body.text) : null;
      if (m === null) return undefined;
      v = m[1] ?? m[2];
    }
  }
  const ev: LineEvent = { kind: 'kubelet-start' };
  if (v !== undefined && v !== '') ev.version = v;
  return ev;
}

/** A line's message and what its headers say, the time and clock already chosen between them. */
export interface ReadLine {
  body: Body;
  time?: LineTime;
  clock?: string;
  pid?: number;
}

/** The common header (klogFastHeader.ts); undefined for any other line. */
export function readLineFast(line: string): ReadLine | undefined {
  const fast = readFastHeader(line);
  if (fast === undefined) return undefined;
  return { body: klogBody(line.slice(fast.bodyAt)), time: { yearless: fast.time }, clock: fast.clock, pid: fast.pid };
}

/** Any line, by the prefix and header regexes. readLineFast must agree with it wherever it answers. */
export function readLineGeneral(line: string): ReadLine {
  const entry = readJournalJson(line);
  return entry === undefined ? readPlainLine(line) : readJournalEntry(entry);
}

/**
 * A `journalctl -o json` entry: its MESSAGE read as a line of its own. The kubelet's own absolute time (a
 * JSON line's ts) still comes first, then the entry's realtime stamp, then a year-less klog header's time.
 */
function readJournalEntry(entry: JournalJsonEntry): ReadLine {
  const inner = readPlainLine(entry.message);
  const read: ReadLine = { body: inner.body };
  if (inner.time !== undefined && 'epochMs' in inner.time) {
    read.time = inner.time;
    if (inner.clock !== undefined) read.clock = inner.clock;
  } else if (entry.epochMs !== undefined) {
    read.time = { epochMs: entry.epochMs };
    read.clock = new Date(entry.epochMs).toISOString().slice(11, 19);
  } else if (inner.time !== undefined) {
    read.time = inner.time;
    if (inner.clock !== undefined) read.clock = inner.clock;
  }
  const pid = inner.pid ?? entry.pid;
  if (pid !== undefined) read.pid = pid;
  return read;
}

function readPlainLine(line: string): ReadLine {
  const outer = unwrap(line);
  const inner = readBody(line, outer.at);
  const read: ReadLine = { body: inner.body };
  const time = inner.time ?? outer.time;
  // The kubelet's own absolute time (a JSON line's ts, finer than any journald prefix's and stamped by the
  // writer) comes first; then an absolute prefix time beats a year-less klog header: it needs no year guessing.
  const isAbsolute = (t: LineTime | undefined): boolean => t !== undefined && 'epochMs' in t;
  const best = isAbsolute(inner.time) ? inner.time : isAbsolute(outer.time) ? outer.time : time;
  if (best !== undefined) read.time = best;
  const clock = best === outer.time ? (outer.clock ?? inner.clock) : (inner.clock ?? outer.clock);
  if (clock !== undefined) read.clock = clock;
  const pid = inner.pid ?? outer.pid;
  if (pid !== undefined) read.pid = pid;
  return read;
}

/** False when `line` holds none of the phrases an event needs: classifyLogLine's first test. */
export function passesPrefilter(line: string): boolean {
  return PREFILTER.test(line);
}

/** Facts of one line, or undefined when the line says nothing the reader tracks. */
export function classifyLogLine(raw: string): LineFacts | undefined {
  const line = raw.length > MAX_MATCHED_LINE ? raw.slice(0, MAX_MATCHED_LINE) : raw;
  if (!PREFILTER.test(line)) return undefined;
  let read: Omit<ReadLine, 'body'>;
  let events: LineEvent[];
  const fast = readFastHeader(line);
  if (fast === undefined) {
    const general = readLineGeneral(line);
    read = general;
    events = bodyEvents(general.body).events;
  } else {
    // As readLineFast, but the body's events may be remembered from a body of the same shape (lineEventsMemo.ts).
    read = { time: { yearless: fast.time }, clock: fast.clock, pid: fast.pid };
    events = memoizedBodyEvents(line.slice(fast.bodyAt), klogBodyEvents);
  }
  if (events.length === 0) return undefined;
  const facts: LineFacts = { events };
  if (read.time !== undefined) facts.time = read.time;
  if (read.clock !== undefined) facts.clock = read.clock;
  if (read.pid !== undefined) facts.pid = read.pid;
  return facts;
}

/** What a klog body (the text after the header) says, worked out afresh. */
export const klogBodyEvents = (text: string): BodyEvents => bodyEvents(klogBody(text));

/** What a line's message says, worked out afresh. */
function bodyEvents(body: Body): BodyEvents {
  const events: LineEvent[] = [];
  const out: BodyEvents = { events };
  const text = body.text;

  const isSkip = SKIP.test(body.msg);
  if (isSkip) events.push({ kind: 'skip-sync', reasons: skipReasons(body) });

  // R1/R3 anywhere: in a skip line's err, a "Node became not ready" condition, a JSON err.
  // R1, R3 and R2_TEXT each hold "PLEG" (their spaces are loose, their words are not).
  const plegText = text.includes('PLEG');
  const r1 = plegText ? R1.regex.exec(text) : null;
  if (r1 !== null) {
    const ev: LineEvent = { kind: 'pleg-unhealthy', evented: false };
    // The err's own match when it has one (its text is decoded), else the line's.
    const agoText = ((body.err !== undefined ? R1.regex.exec(body.err) : null) ?? r1).groups?.['ago'];
    const ago = agoText === undefined ? undefined : goDurationSeconds(agoText);
    if (agoText !== undefined) out.agoText = agoText;
    if (ago !== undefined) ev.lastSeenAgoSeconds = ago;
    events.push(ev);
  } else if (plegText && R3.regex.test(text)) {
    events.push({ kind: 'pleg-unhealthy', evented: true });
  } else if (plegText && R2_TEXT.test(text)) {
    events.push({ kind: 'pleg-never' });
  }

  const relist = RELIST_FAILED.exec(body.msg);
  if (relist !== null) {
    const ev: LineEvent = { kind: 'relist-failure' };
    const err = body.err ?? relist[1];
    if (err !== undefined) ev.err = err;
    events.push(ev);
  }
  if (L5.regex.test(body.msg)) events.push({ kind: 'event-discard', evented: false });
  else if (EVENTED_DISCARD.test(body.msg)) events.push({ kind: 'event-discard', evented: true });
  else if (L10.regex.test(body.msg)) events.push({ kind: 'evented-fallback', text: body.msg });

  const sanity = L12.regex.exec(body.msg);
  if (sanity !== null) {
    const ev: LineEvent = { kind: 'runtime-down', text: sanity[0].replace(/\s+/gu, ' ') };
    if (body.err !== undefined) ev.err = body.err;
    events.push(ev);
  } else if (!isSkip && R4.regex.exec(text)?.groups?.['down'] !== undefined) {
    events.push({ kind: 'runtime-down', text: 'container runtime is down' });
  }

  if (HOUSEKEEPING.test(body.msg)) {
    const ev: LineEvent = { kind: 'housekeeping-slow' };
    const actual = body.fields.get('actual');
    const secondsField = Number(body.fields.get('seconds'));
    if (actual !== undefined) ev.actual = actual;
    else if (Number.isFinite(secondsField) && secondsField > 0) ev.actual = `${Math.round(secondsField * 1000) / 1000}s`;
    events.push(ev);
  }

  // Each Ready-event pattern below holds "Ready": most lines (every skip line) are done with one search.
  const readyText = text.includes('Ready');
  if (L6.regex.test(body.msg) || (readyText && NOT_READY_EVENT.test(text))) events.push({ kind: 'node-not-ready', text: body.msg });
  else if (readyText && READY_EVENT.test(text)) events.push({ kind: 'node-ready', text: body.msg });
  else if (readyText) {
    const e1 = E1.regex.exec(text);
    const st = e1?.groups?.['st'];
    if (st === 'NodeNotReady') events.push({ kind: 'node-not-ready', text: e1?.[0] ?? '' });
    else if (st === 'NodeReady') events.push({ kind: 'node-ready', text: e1?.[0] ?? '' });
  }

  const start = kubeletStart(body);
  if (start !== undefined) events.push(start);
  return out;
}
