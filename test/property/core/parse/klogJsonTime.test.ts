// JSON kubelet lines built the way their real writer builds them, read back to the instant they were
// written. component-base logs/json (json.go, epochMillisTimeEncoder) stamps "ts" with
// float64(UnixNano()) / float64(time.Millisecond), and zap writes the float with strconv.AppendFloat(…, 'f',
// -1, 64): the shortest decimal that reads back to the same double, as JavaScript's number-to-string also
// gives for these magnitudes (no exponent below 1e21). So `Number(nanos) / 1e6` written by JSON.stringify is
// the writer's text; nanoseconds of every granularity give integer, 1-digit … 4-digit fractions. The fields
// follow in the encoder's order (ts, caller, msg, then the key/value pairs, err last), bare or behind what
// collectors put in front (journalctl short, short-precise, short-iso, short-iso-precise, short-unix, the CRI log
// prefix), each stamped a little after the kubelet's own time, as journald's receive time is.

import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { KubeletLogReader, readKubeletLog } from '../../../../src/core/parse/logReader';
import { LogByteScanner } from '../../../../src/core/parse/logReaderBytes';
import { classifyLogLine, readLineGeneral } from '../../../../src/core/parse/logReaderLine';

/** 2015-01-01 … 2035-12-31, in nanoseconds. */
const FROM_NS = BigInt(Date.UTC(2015, 0, 1)) * 1_000_000n;
const TO_NS = BigInt(Date.UTC(2035, 11, 31)) * 1_000_000n;

/** A time of any granularity: whole ms, 100 µs, 10 µs, 1 µs or 1 ns (so "ts" has 0 to 4+ fraction digits). */
const instantNs = fc
  .tuple(fc.bigInt({ min: FROM_NS, max: TO_NS }), fc.constantFrom(1_000_000n, 100_000n, 10_000n, 1_000n, 1n))
  .map(([ns, step]) => (ns / step) * step);

type Prefix = 'none' | 'short' | 'short-precise' | 'short-iso' | 'short-iso-precise' | 'short-unix' | 'cri';
const prefixes = fc.constantFrom<Prefix>('none', 'short', 'short-precise', 'short-iso', 'short-iso-precise', 'short-unix', 'cri');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number): string => String(n).padStart(2, '0');

/** The writer's "ts" text for an instant. */
const tsText = (ns: bigint): string => JSON.stringify(Number(ns) / 1e6);

/** systemd logs-show.c's prefixes (output_timestamp_realtime, output_short) and containerd's CRI log prefix. */
function prefixed(line: string, receivedNs: bigint, prefix: Prefix): string {
  const us = receivedNs / 1000n;
  const d = new Date(Number(us / 1000n));
  const frac6 = String(us % 1_000_000n).padStart(6, '0');
  const ymd = `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())}`;
  const hms = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
  const syslog = `${MONTHS[d.getUTCMonth()] as string} ${p2(d.getUTCDate())} ${hms}`;
  switch (prefix) {
    case 'none':
      return line;
    case 'short':
      return `${syslog} node-a kubelet[2187]: ${line}`;
    case 'short-precise':
      return `${syslog}.${frac6} node-a kubelet[2187]: ${line}`;
    case 'short-iso':
      return `${ymd}T${hms}+00:00 node-a kubelet[2187]: ${line}`;
    case 'short-iso-precise':
      return `${ymd}T${hms}.${frac6}+00:00 node-a kubelet[2187]: ${line}`;
    case 'short-unix':
      return `${String(us / 1_000_000n).padStart(10)}.${frac6} node-a kubelet[2187]: ${line}`;
    case 'cri': {
      // time.RFC3339Nano: trailing zeros of the fraction dropped, and the dot with them.
      const nanos = String(receivedNs % 1_000_000_000n).padStart(9, '0').replace(/0+$/u, '');
      return `${ymd}T${hms}${nanos === '' ? '' : `.${nanos}`}Z stderr F ${line}`;
    }
  }
}

/** The kubelet's skip line (kubelet.go syncLoopIteration's caller), with errCauses as 1.36 writes it. */
function skipLine(ns: bigint, agoS: number): string {
  const r1 = `PLEG is not healthy: pleg was last seen active ${Math.floor(agoS / 60)}m${agoS % 60}s ago; threshold is 3m0s`;
  return `{"ts":${tsText(ns)},"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"[container runtime is down, ${r1}]","errCauses":[{"error":"container runtime is down"},{"error":${JSON.stringify(r1)}}]}`;
}

/** An info line (zapr's "v") that mentions a phrase the reader classifies. */
const readyLine = (ns: bigint): string =>
  `{"ts":${tsText(ns)},"caller":"kubelet/kubelet_node_status.go:829","msg":"Recording event message for node","v":2,"node":"node-a","event":"NodeReady"}`;

/** The instant in ms, to the microsecond, by integer arithmetic (never through the reader's float). */
const ms = (ns: bigint): number => Number(ns / 1000n) / 1000;
/** HH:MM:SS (UTC) of the written "ts": the writer's double may round up across a second (…59.9999999 → …00). */
const utcClock = (ns: bigint): string => new Date(Math.floor(Number(tsText(ns)))).toISOString().slice(11, 19);

describe('JSON kubelet lines as component-base writes them', () => {
  test.prop([instantNs, fc.bigInt({ min: 0n, max: 900_000_000n }), prefixes, fc.boolean()], { numRuns: 500 })(
    'every reader takes "ts" as epoch milliseconds, whatever the prefix and the digits',
    (ns, delayNs, prefix, info) => {
      const json = info ? readyLine(ns) : skipLine(ns, 183);
      const line = prefixed(json, ns + delayNs, prefix);
      const facts = classifyLogLine(line);
      expect(facts?.time).toBeDefined();
      const t = facts?.time as { epochMs: number };
      expect('epochMs' in t).toBe(true);
      expect(Math.abs(t.epochMs - ms(ns))).toBeLessThan(0.002);
      expect(facts?.clock).toBe(utcClock(ns));
      // The whole-line reader the diagnosis uses (readLineGeneral) agrees, and keeps the message.
      const read = readLineGeneral(line);
      const rt = read.time as { epochMs: number };
      expect(Math.abs(rt.epochMs - ms(ns))).toBeLessThan(0.002);
      expect(read.body.msg).toBe(info ? 'Recording event message for node' : 'Skipping pod synchronization');
    },
  );

  test.prop([instantNs, fc.array(fc.integer({ min: 0, max: 60_000_000 }), { minLength: 1, maxLength: 12 }), prefixes], { numRuns: 200 })(
    'skip lines less than 60 s apart are one stretch as long as the writer\'s times say (text and byte scanner)',
    (startNs, stepsUs, prefix) => {
      let ns = startNs;
      const times: bigint[] = [];
      const lines: string[] = [];
      for (const [i, stepUs] of [0, ...stepsUs].entries()) {
        ns += BigInt(stepUs) * 1000n;
        times.push(ns);
        lines.push(prefixed(skipLine(ns, 181 + i), ns + 3_000_000n, prefix));
      }
      const text = `${lines.join('\n')}\n`;
      const first = times[0] as bigint;
      const last = times[times.length - 1] as bigint;
      const { summary } = readKubeletLog(text);
      expect(summary.plegStretches).toHaveLength(1);
      const s = summary.plegStretches[0];
      expect(s).toMatchObject({ firstLine: 1, lastLine: lines.length, maxLastSeenAgoSeconds: 181 + lines.length - 1 });
      expect(Math.abs((s?.durationSeconds as number) - (ms(last) - ms(first)) / 1000)).toBeLessThan(3e-6);

      const reader = new KubeletLogReader(() => undefined);
      const scanner = new LogByteScanner(reader);
      scanner.push(Buffer.from(text, 'utf8'));
      scanner.end();
      expect(reader.end().plegStretches).toEqual(summary.plegStretches);
    },
  );
});
