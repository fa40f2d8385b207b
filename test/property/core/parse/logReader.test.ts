// Logs the reader has never been shown: random formats, collector prefixes, gaps and noise, checked
// against a plain re-computation of the stretch rule; and arbitrary garbage, which must never crash it.
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { KubeletLogReader, readKubeletLog } from '../../../../src/core/parse/logReader';
import { LINE_ANCHORS, LogByteScanner } from '../../../../src/core/parse/logReaderBytes';

const GAP = 60;
const BASE = Date.UTC(2026, 2, 1, 10, 0, 0);
/** Ten minutes before New Year: year-less klog and syslog times must roll over, mixed with absolute ones. */
const NEW_YEAR = Date.UTC(2025, 11, 31, 23, 50, 0);
const p2 = (n: number): string => String(n).padStart(2, '0');

type Format = 'glog' | 'klog-text' | 'structured' | 'contextual' | 'json';
type Prefix = 'none' | 'short' | 'short-iso' | 'short-precise' | 'short-unix' | 'journal-json' | 'rfc3339' | 'cri';

function klogHeader(ms: number, sev: string): string {
  const d = new Date(ms);
  return `${sev}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.000000    4242 kubelet.go:2273] `;
}

function plegLine(ms: number, agoS: number, format: Format): string {
  const r1 = `PLEG is not healthy: pleg was last seen active ${agoS}s ago; threshold is 3m0s`;
  switch (format) {
    case 'glog':
      return `${klogHeader(ms, 'I')}skipping pod synchronization - [${r1}]`;
    case 'klog-text':
      return `${klogHeader(ms, 'E')}skipping pod synchronization - ${r1}`;
    case 'structured':
      return `${klogHeader(ms, 'E')}"Skipping pod synchronization" err="[container runtime is down, ${r1}]"`;
    case 'contextual':
      return `${klogHeader(ms, 'E')}"Skipping pod synchronization" logger="kubelet" err="${r1}"`;
    case 'json':
      return JSON.stringify({ ts: ms, caller: 'kubelet/kubelet.go:2353', msg: 'Skipping pod synchronization', err: r1 });
  }
}

function noiseLine(ms: number, format: Format, n: number): string {
  return format === 'json'
    ? JSON.stringify({ ts: ms, caller: 'kubelet/kubelet.go:2400', msg: 'SyncLoop (PLEG): event for pod', v: 2, pod: `ns/p${n}` })
    : `${klogHeader(ms, 'I')}"HTTP" verb="GET" URI="/healthz" resp=200 n=${n}`;
}

function withPrefix(ms: number, line: string, prefix: Prefix): string {
  const d = new Date(ms);
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()] as string;
  const hms = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
  switch (prefix) {
    case 'none':
      return line;
    case 'short':
      return `${mon} ${p2(d.getUTCDate())} ${hms} node-x kubelet[4242]: ${line}`;
    case 'short-precise':
      return `${mon} ${p2(d.getUTCDate())} ${hms}.000000 node-x kubelet[4242]: ${line}`;
    case 'short-iso':
      return `${d.toISOString().slice(0, 19)}+0000 node-x kubelet[4242]: ${line}`;
    case 'short-unix':
      // systemd logs-show.c: "%10"PRI_TIME".%06"PRIu64 of the entry's realtime stamp.
      return `${String(Math.floor(ms / 1000)).padStart(10)}.${String((ms % 1000) * 1000).padStart(6, '0')} node-x kubelet[4242]: ${line}`;
    case 'journal-json':
      // journalctl -o json (systemd logs-show.c output_json): string values, the stamp in decimal µs.
      return JSON.stringify({ __REALTIME_TIMESTAMP: String(ms * 1000), _PID: '4242', _COMM: 'kubelet', SYSLOG_IDENTIFIER: 'kubelet', MESSAGE: line, PRIORITY: '6' });
    case 'rfc3339':
      return `${d.toISOString()} ${line}`;
    case 'cri':
      return `${d.toISOString().replace('.000Z', '.000000000Z')} stderr F ${line}`;
  }
}

const entry = fc.record({
  deltaS: fc.oneof(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 55, max: 65 }), fc.integer({ min: 0, max: 400 })),
  pleg: fc.boolean(),
  format: fc.constantFrom<Format>('glog', 'klog-text', 'structured', 'contextual', 'json'),
  prefix: fc.constantFrom<Prefix>('none', 'short', 'short-iso', 'short-precise', 'short-unix', 'journal-json', 'rfc3339', 'cri'),
});

/** The rule, computed the obvious way over (line, time) pairs of unhealthy lines. */
function expectedStretches(points: Array<{ line: number; ms: number; ago: number }>): unknown[] {
  const out: Array<{ firstLine: number; lastLine: number; durationSeconds: number; maxLastSeenAgoSeconds: number; firstMs: number; lastMs: number }> = [];
  for (const p of points) {
    const cur = out[out.length - 1];
    if (cur !== undefined && p.ms - cur.lastMs <= GAP * 1000) {
      cur.lastLine = p.line;
      cur.lastMs = p.ms;
      cur.maxLastSeenAgoSeconds = Math.max(cur.maxLastSeenAgoSeconds, p.ago);
    } else out.push({ firstLine: p.line, lastLine: p.line, durationSeconds: 0, maxLastSeenAgoSeconds: p.ago, firstMs: p.ms, lastMs: p.ms });
  }
  return out.map(({ firstLine, lastLine, firstMs, lastMs, maxLastSeenAgoSeconds }) => ({
    firstLine,
    lastLine,
    durationSeconds: (lastMs - firstMs) / 1000,
    maxLastSeenAgoSeconds,
  }));
}

describe('log reader properties', () => {
  test.prop([fc.array(entry, { maxLength: 80 }), fc.constantFrom(BASE, NEW_YEAR)], { numRuns: 300 })('PLEG stretches match the plain re-computation in any format mix', (entries, base) => {
    let ms = base;
    const lines: string[] = [];
    const points: Array<{ line: number; ms: number; ago: number }> = [];
    entries.forEach((e, i) => {
      ms += e.deltaS * 1000;
      const ago = 181 + i;
      lines.push(withPrefix(ms, e.pleg ? plegLine(ms, ago, e.format) : noiseLine(ms, e.format, i), e.prefix));
      if (e.pleg) points.push({ line: i + 1, ms, ago });
    });
    const { summary } = readKubeletLog(lines.join('\n'));
    expect(summary.plegStretches).toEqual(expectedStretches(points));
    expect(summary.skippedSyncStretches.map(({ firstLine, lastLine }) => ({ firstLine, lastLine }))).toEqual(
      summary.plegStretches.map(({ firstLine, lastLine }) => ({ firstLine, lastLine })),
    );
  });

  const garbageLine = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: 'grapheme', maxLength: 100 }).map((s) => `E1122 03:03:46.572920   1 kubelet.go:1] "Skipping pod synchronization" err="${s}`),
    fc.string({ maxLength: 50 }).map((s) => `{"ts":1e400,"msg":"GenericPLEG: Unable to retrieve pods","err":${JSON.stringify(s)}`),
    fc.string({ maxLength: 50 }).map((s) => `Nov 22 03:03:46 n kubelet[1]: PLEG is not healthy: pleg was last seen active ${s}s ago; threshold is 3m0s`),
    fc.constantFrom('\uFFFD\uFFFD PLEG \uD800', '{"msg":{}}', '{"msg":"Skipping pod synchronization","err":null}', 'I0000 00:00:00.000000 1 a.go:1] Version: v', '['),
  );

  test.prop([fc.array(garbageLine, { maxLength: 60 })], { numRuns: 300 })('arbitrary lines (bad UTF-8, mixed formats) never throw', (lines) => {
    const reader = new KubeletLogReader(() => undefined);
    for (const l of lines) reader.push(l);
    const s = reader.end();
    expect(s.lines).toBe(lines.length);
    for (const st of s.plegStretches) expect(st.lastLine).toBeGreaterThanOrEqual(st.firstLine);
  });

  test.prop([fc.integer({ min: 70_000, max: 300_000 })], { numRuns: 5 })('an overlong line is read without a crash and still found', (n) => {
    const line = `E1122 03:03:46.572920   1 kubelet.go:2273] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m3s ago; threshold is 3m0s" pad="${'x'.repeat(n)}"`;
    const { summary } = readKubeletLog(`${line}\n`);
    expect(summary.plegStretches).toEqual([{ firstLine: 1, lastLine: 1, durationSeconds: 0, maxLastSeenAgoSeconds: 183 }]);
  });
});

describe('byte scanner', () => {
  const REAL = readFileSync(new URL('../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url));
  const viaScanner = (bytes: Uint8Array, cuts: number[]): unknown => {
    const reader = new KubeletLogReader(() => undefined);
    const scanner = new LogByteScanner(reader);
    let at = 0;
    for (const c of [...cuts].sort((a, b) => a - b)) {
      scanner.push(bytes.subarray(at, Math.max(at, c)));
      at = Math.max(at, c);
    }
    scanner.push(bytes.subarray(at));
    scanner.end();
    return reader.end();
  };

  test.prop([fc.array(fc.integer({ min: 0, max: REAL.length }), { maxLength: 20 })], { numRuns: 40 })(
    'any chunking of the real log gives the line reader\'s summary',
    (cuts) => {
      expect(viaScanner(REAL, cuts)).toEqual(readKubeletLog(REAL.toString('utf8')).summary);
    },
  );

  test.prop([fc.array(fc.oneof(entry.map((e) => `${e.pleg ? 'E1122 03:03:46.572920   1 kubelet.go:1] "Skipping pod synchronization" err="PLEG is not healthy: pleg was last seen active 3m3s ago; threshold is 3m0s"' : 'I1122 03:03:46.572920   1 a.go:1] "HTTP"'}`), fc.string({ unit: 'binary', maxLength: 40 })), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 8 })], { numRuns: 200 })(
    'mixed and broken lines, CRLF and any chunking: same summary as the line reader',
    (lines, cuts) => {
      const text = lines.join('\r\n').replace(/\r(?!\n)/gu, '').replace(/(?<!\r)\n/gu, '');
      const bytes = Buffer.from(text, 'utf8');
      const ref = readKubeletLog(bytes.toString('utf8')).summary;
      expect(viaScanner(bytes, cuts.map((c) => c % (bytes.length + 1)))).toEqual(ref);
    },
  );

  it('every prefilter phrase of the reader contains an anchor', () => {
    const phrases = [
      'Skipping pod synchronization', 'skipping pod synchronization', 'PLEG is not healthy', 'GenericPLEG: Unable to retrieve pods', 'Event channel is full', 'event channel is full',
      'Evented PLEG: ', 'Fall back to Generic PLEG', 'Container runtime sanity', 'Container runtime not ready', 'Container runtime network not ready', 'container runtime is down',
      'Housekeeping took', 'housekeeping took', 'Node became not ready', 'NodeNotReady', 'NodeReady', 'Kubelet version', '] Version: v',
    ];
    for (const p of phrases) expect(LINE_ANCHORS.some((a) => p.includes(a)), p).toBe(true);
  });
});
