// One entry of `journalctl -o json` (one JSON object a line): the kubelet's line is the MESSAGE field, its
// time the entry's realtime stamp. The writer is systemd's src/shared/logs-show.c (output_json,
// update_json_data): every value is a string, "__REALTIME_TIMESTAMP" is the receive time in decimal
// MICROSECONDS since the epoch (USEC_FMT), a field that is not printable UTF-8 becomes an array of byte
// values, one longer than 4096 bytes becomes null (unless --all), and a field present more than once
// becomes an array of its values. get_display_timestamp prefers "_SOURCE_REALTIME_TIMESTAMP" (the sender's
// own stamp, also µs) for the short formats; so does this reader.

import { parseJsonObjectLine } from './jsonObjectLine';

export interface JournalJsonEntry {
  /** The MESSAGE field, decoded (byte arrays as UTF-8). */
  message: string;
  epochMs?: number;
  /** _PID when the entry's identifier (SYSLOG_IDENTIFIER, else _COMM) starts with "kubelet". */
  pid?: number;
}

/** Cheap test before any parsing: the field every `-o json` entry carries. */
const MARKER = '"__REALTIME_TIMESTAMP"';

function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && v.length > 0) {
    // A field given more than once: its first value. A byte array: numbers 0..255.
    if (v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)) return new TextDecoder().decode(Uint8Array.from(v as number[]));
    return text(v[0]);
  }
  return undefined;
}

/** A decimal µs string (USEC_FMT) as epoch ms, keeping the microseconds. */
function usecToMs(v: unknown): number | undefined {
  const s = text(v);
  if (s === undefined || !/^\d{1,19}$/u.test(s)) return undefined;
  const us = BigInt(s);
  return Number(us / 1000n) + Number(us % 1000n) / 1000;
}

/** The entry, or undefined when the line is not a `journalctl -o json` entry with a MESSAGE. */
export function readJournalJson(line: string): JournalJsonEntry | undefined {
  if (line.charCodeAt(0) !== 0x7b /* { */ || !line.includes(MARKER)) return undefined;
  const o = parseJsonObjectLine(line);
  if (o === undefined) return undefined;
  const message = text(o['MESSAGE']);
  if (message === undefined) return undefined;
  const entry: JournalJsonEntry = { message };
  const epochMs = usecToMs(o['_SOURCE_REALTIME_TIMESTAMP']) ?? usecToMs(o['__REALTIME_TIMESTAMP']);
  if (epochMs !== undefined) entry.epochMs = epochMs;
  const ident = text(o['SYSLOG_IDENTIFIER']) ?? text(o['_COMM']);
  const pid = text(o['_PID']);
  if (ident?.startsWith('kubelet') === true && pid !== undefined && /^\d+$/u.test(pid)) entry.pid = Number(pid);
  return entry;
}
