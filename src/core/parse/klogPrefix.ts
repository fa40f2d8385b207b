// What collectors put in front of a kubelet line: syslog / `journalctl` short formats
// (`Nov 22 03:00:44 node kubelet[31657]: `), their ISO variants (`-o short-iso[-precise]`), a bare
// RFC 3339 timestamp (`kubectl logs --timestamps`, `journalctl -o cat` piped through ts), `journalctl -o
// short-unix` (epoch seconds with microseconds: systemd's logs-show.c, output_timestamp_realtime, prints
// `"%10"PRI_TIME".%06"PRIu64` of the entry's realtime stamp, then the host and `ident[pid]: ` as short does)
// and the CRI container-log format (`<ts> stderr F `) used when the kubelet itself runs in a container.

export interface LogPrefix {
  kind: 'syslog' | 'iso' | 'unix' | 'cri';
  /** The timestamp text as written. */
  timestamp: string;
  /** Present when the timestamp carries a date and zone. */
  epochMs?: number;
  host?: string;
  ident?: string;
  pid?: number;
  stream?: 'stdout' | 'stderr';
}

const SYSLOG = /^([A-Z][a-z]{2} {1,2}\d{1,2} \d\d:\d\d:\d\d(?:\.\d+)?) (\S+) ([^\s:[\]]+)(?:\[(\d+)\])?: /u;
const ISO_TS = '(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(?:[.,]\\d+)?(?:Z|[+-]\\d\\d:?\\d\\d))';
const ISO_HOST = new RegExp(`^${ISO_TS} (\\S+) ([^\\s:[\\]]+)(?:\\[(\\d+)\\])?: `, 'u');
const CRI = new RegExp(`^${ISO_TS} (stdout|stderr) [FP] `, 'u');
const ISO_BARE = new RegExp(`^${ISO_TS} (?=[IWEF]\\d{4} |\\{)`, 'u');
/** `journalctl -o short-unix`: `%10` pads the seconds with spaces before 2001-09-09 (fewer than 10 digits). */
const UNIX = /^ *((\d{1,12})\.(\d{6})) (\S+) ([^\s:[\]]+)(?:\[(\d+)\])?: /u;

/** Recognises a prefix; returns it and the offset where the kubelet's own text starts. */
export function stripLogPrefix(line: string): { prefix: LogPrefix; rest: number } | undefined {
  let m = CRI.exec(line);
  if (m) {
    return { prefix: withEpoch({ kind: 'cri', timestamp: m[1] as string, stream: m[2] as 'stdout' | 'stderr' }), rest: m[0].length };
  }
  m = ISO_HOST.exec(line);
  if (m) {
    const prefix: LogPrefix = withEpoch({ kind: 'iso', timestamp: m[1] as string, host: m[2] as string, ident: m[3] as string });
    if (m[4] !== undefined) prefix.pid = Number(m[4]);
    return { prefix, rest: m[0].length };
  }
  m = ISO_BARE.exec(line);
  if (m) return { prefix: withEpoch({ kind: 'iso', timestamp: m[1] as string }), rest: m[0].length };
  m = UNIX.exec(line);
  if (m) {
    // Seconds and microseconds apart: their sum in ms keeps the microseconds (a double holds 16 digits).
    const epochMs = Number(m[2]) * 1000 + Number(m[3]) / 1000;
    const prefix: LogPrefix = { kind: 'unix', timestamp: m[1] as string, epochMs, host: m[4] as string, ident: m[5] as string };
    if (m[6] !== undefined) prefix.pid = Number(m[6]);
    return { prefix, rest: m[0].length };
  }
  m = SYSLOG.exec(line);
  if (m) {
    const prefix: LogPrefix = { kind: 'syslog', timestamp: m[1] as string, host: m[2] as string, ident: m[3] as string };
    if (m[4] !== undefined) prefix.pid = Number(m[4]);
    return { prefix, rest: m[0].length };
  }
  return undefined;
}

function withEpoch(prefix: LogPrefix): LogPrefix {
  const ms = isoToEpochMs(prefix.timestamp);
  if (ms !== undefined) prefix.epochMs = ms;
  return prefix;
}

/** RFC 3339 to epoch ms keeping sub-millisecond digits (Date.parse would drop them). */
export function isoToEpochMs(ts: string): number | undefined {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)$/u.exec(ts);
  if (!m) return undefined;
  const zone = m[3] === 'Z' ? 'Z' : `${(m[3] as string).slice(0, 3)}:${(m[3] as string).slice(-2)}`;
  const whole = Date.parse(`${m[1] as string}${zone}`);
  if (Number.isNaN(whole)) return undefined;
  const frac = m[2] ?? '';
  return whole + (frac === '' ? 0 : Number(`0.${frac}`) * 1000);
}
