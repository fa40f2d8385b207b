// One journal entry as `journalctl -o short-precise` prints it, byte for byte, from systemd's
// src/shared/logs-show.c: output_short (the fields it reads and the order it prefers them in),
// output_timestamp_realtime (OUTPUT_SHORT_PRECISE: strftime "%b %d %H:%M:%S" in local time, then
// ".%06llu"), shall_print, print_multiline (full width, as journalctl prints when not on a terminal), and
// src/basic/string-util.c strip_tab_ansi. Held to the real journalctl in
// test/unit/cli/commands/kubeletJournal.parity.test.ts.

/** logs-show.c PRINT_CHAR_THRESHOLD: a field this long or longer is not printed in the prefix. */
const PRINT_CHAR_THRESHOLD = 300;

/** The entry's fields as output_short reads them: for a field given twice, the last one (parse_field replaces). */
export type EntryFields = ReadonlyMap<string, Uint8Array>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * utf8.c utf8_is_printable_newline(…, true): valid UTF-8 (no overlong forms, no surrogates) and no control
 * character other than tab and newline (C0 below 0x20, DEL and C1 0x7F-0x9F: unichar_is_control).
 */
export function utf8IsPrintable(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return false;
  }
  for (const ch of text) {
    const c = ch.codePointAt(0) as number;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f)) return false;
  }
  return true;
}

function shallPrint(v: Uint8Array | undefined): v is Uint8Array {
  return v !== undefined && v.byteLength < PRINT_CHAR_THRESHOLD && utf8IsPrintable(v);
}

const ESC = 0x1b;
const DIGITS_SEMI_COLON_M = new Set([...'0123456789;:m'].map((c) => c.charCodeAt(0)));

/** OSC payload bytes strip_tab_ansi accepts (osc_char_is_valid: printable ASCII 0x20..0x7E). */
function oscCharIsValid(c: number): boolean {
  return c >= 0x20 && c <= 0x7e;
}

/**
 * string-util.c strip_tab_ansi: a tab becomes 8 spaces; ESC '[' [0-9;:]* 'm' (colour) and ESC ']' … BEL or
 * ESC '\' (OSC) are removed; carriage returns are dropped at the end and before a newline; anything else,
 * a torn sequence included, stays as it is.
 */
export function stripTabAnsi(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let state: 'other' | 'escape' | 'csi' | 'osc' | 'osc-closing' = 'other';
  let begin = 0;
  let pendingCr = 0;
  for (let i = 0; i <= input.length; i++) {
    const eot = i >= input.length;
    const c = eot ? -1 : (input[i] as number);
    switch (state) {
      case 'other':
        if (eot) break;
        if (c === 0x0d) {
          pendingCr++;
          break;
        }
        if (c === 0x0a) pendingCr = 0;
        for (; pendingCr > 0; pendingCr--) out.push(0x0d);
        if (c === ESC) state = 'escape';
        else if (c === 0x09) out.push(0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20);
        else out.push(c);
        break;
      case 'escape':
        if (eot) out.push(ESC);
        else if (c === 0x5b) {
          state = 'csi';
          begin = i + 1;
        } else if (c === 0x5d) {
          state = 'osc';
          begin = i + 1;
        } else {
          out.push(ESC, c);
          state = 'other';
        }
        break;
      case 'csi':
        if (eot || !DIGITS_SEMI_COLON_M.has(c)) {
          out.push(ESC, 0x5b);
          state = 'other';
          i = begin - 1;
        } else if (c === 0x6d) state = 'other';
        break;
      case 'osc':
        if (eot || (c !== 0x07 && c !== ESC && !oscCharIsValid(c))) {
          out.push(ESC, 0x5d);
          state = 'other';
          i = begin - 1;
        } else if (c === 0x07) state = 'other';
        else if (c === ESC) state = 'osc-closing';
        break;
      case 'osc-closing':
        if (eot || c !== 0x5c) {
          out.push(ESC, 0x5d);
          state = 'other';
          i = begin - 1;
        } else state = 'other';
        break;
    }
  }
  return Uint8Array.from(out);
}

/** format-util.c format_bytes (IEC, one decimal below the point; the trailing B only on whole bytes): "7B", "1.5K", "2.0M". */
export function formatBytes(n: number): string {
  const table: [string, number][] = [
    ['E', 1024 ** 6],
    ['P', 1024 ** 5],
    ['T', 1024 ** 4],
    ['G', 1024 ** 3],
    ['M', 1024 ** 2],
    ['K', 1024],
  ];
  for (let i = 0; i < table.length; i++) {
    const [suffix, factor] = table[i] as [string, number];
    if (n >= factor) {
      const last = i === table.length - 1;
      const tenth = last ? Math.floor((n * 10) / factor) % 10 : Math.floor((Math.floor(n / (table[i + 1] as [string, number])[1]) * 10) / 1024) % 10;
      return `${Math.floor(n / factor)}.${tenth}${suffix}`;
    }
  }
  return `${n}B`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The broken-down local time of an epoch second (localtime_r). The process's time zone by default. */
export type LocalTime = (epochSeconds: number) => { month: number; day: number; hours: number; minutes: number; seconds: number };
export const processLocalTime: LocalTime = (s) => {
  const d = new Date(s * 1000);
  return { month: d.getMonth(), day: d.getDate(), hours: d.getHours(), minutes: d.getMinutes(), seconds: d.getSeconds() };
};

const two = (n: number): string => String(n).padStart(2, '0');

/** "%b %d %H:%M:%S.%06llu" of a realtime in microseconds. */
export function shortPreciseTimestamp(usec: number, localTime: LocalTime): string {
  const t = localTime(Math.floor(usec / 1_000_000));
  return `${MONTHS[t.month]} ${two(t.day)} ${two(t.hours)}:${two(t.minutes)}:${two(t.seconds)}.${String(usec % 1_000_000).padStart(6, '0')}`;
}

/** logs-show.c VALID_REALTIME: after the epoch and before USEC_INFINITY (and 2^55, where newer systemd stops). */
function validRealtime(u: number): boolean {
  return u > 0 && u < 2 ** 55;
}

/**
 * The time output_short shows: _SOURCE_REALTIME_TIMESTAMP (when the sender stamped the entry) if it is a
 * valid decimal realtime, else the entry's own realtime. --since/--until compare the entry's own.
 */
export function displayRealtime(fields: EntryFields, entryRealtime: number): number {
  const source = fields.get('_SOURCE_REALTIME_TIMESTAMP');
  if (source !== undefined && source.byteLength <= 17) {
    const text = String.fromCharCode(...source);
    if (/^\d{1,17}$/.test(text)) {
      const v = Number(text);
      if (validRealtime(v)) return v;
    }
  }
  return entryRealtime;
}

const enc = new TextEncoder();

/**
 * The lines output_short writes for one entry (each ending in "\n"), or undefined when it writes nothing (an
 * entry without MESSAGE=). Bytes, not text: a message is printed as the bytes it holds.
 */
export function formatShortPrecise(fields: EntryFields, entryRealtime: number, localTime: LocalTime): Uint8Array | undefined {
  const rawMessage = fields.get('MESSAGE');
  if (rawMessage === undefined) return undefined;
  const message = stripTabAnsi(rawMessage);
  const parts: Uint8Array[] = [];
  const push = (b: Uint8Array | string): void => {
    parts.push(typeof b === 'string' ? enc.encode(b) : b);
  };
  const ts = shortPreciseTimestamp(displayRealtime(fields, entryRealtime), localTime);
  push(ts);
  let n = ts.length;
  const hostname = fields.get('_HOSTNAME');
  if (shallPrint(hostname)) {
    push(' ');
    push(hostname);
    n += hostname.byteLength + 1;
  }
  const identifier = fields.get('SYSLOG_IDENTIFIER');
  const comm = fields.get('_COMM');
  if (shallPrint(identifier)) {
    push(' ');
    push(identifier);
    n += identifier.byteLength + 1;
  } else if (shallPrint(comm)) {
    push(' ');
    push(comm);
    n += comm.byteLength + 1;
  } else push(' unknown');
  const pid = fields.get('_PID');
  const fakePid = fields.get('SYSLOG_PID');
  if (shallPrint(pid)) {
    push('[');
    push(pid);
    push(']');
    n += pid.byteLength + 2;
  } else if (shallPrint(fakePid)) {
    push('[');
    push(fakePid);
    push(']');
    n += fakePid.byteLength + 2;
  }
  push(': ');
  if (!utf8IsPrintable(message)) {
    push(`[${formatBytes(message.byteLength)} blob data]\n`);
  } else if (message.byteLength === 0) {
    push('\n');
  } else {
    // print_multiline with OUTPUT_FULL_WIDTH: every line whole; the second and later indented to the message.
    const indent = enc.encode(' '.repeat(n + 2));
    let line = 0;
    for (let pos = 0; pos < message.byteLength; line++) {
      let end = message.indexOf(0x0a, pos);
      if (end < 0) end = message.byteLength;
      if (line > 0) push(indent);
      push(message.subarray(pos, end));
      push('\n');
      pos = end + 1;
    }
  }
  return concatBytes(parts);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
