import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KlogParseError, klogField, parseKlogLine, parseKlogText, tryParseKlogLine } from '../../../../src/core/parse/klog';
import { yearlessToEpochMs } from '../../../../src/core/parse/klogHeader';
import { formatKlogLine } from '../../../../src/core/parse/klogFormat';
import { GoQuoteError, goQuote, goUnquote } from '../../../../src/core/parse/klogQuote';
import { isoToEpochMs } from '../../../../src/core/parse/klogPrefix';

const FIXTURE = new URL('../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url);

describe('parseKlogLine: text format', () => {
  it('reads the header and a structured body with an err value', () => {
    const line =
      'E1122 03:03:46.572920   31657 kubelet.go:2273] "Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"';
    const r = parseKlogLine(line);
    expect(r.format).toBe('text');
    expect(r.severity).toBe('E');
    expect(r.time).toEqual({ month: 11, day: 22, hour: 3, minute: 3, second: 46, micros: 572920 });
    expect(r.threadId).toBe(31657);
    expect(r.source).toBe('kubelet.go:2273');
    expect(r.structured).toBe(true);
    expect(r.msg).toBe('Skipping pod synchronization');
    expect(r.err).toBe('[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]');
    const f = r.fields[0];
    expect(f && line.slice(f.start, f.end)).toBe(`"${r.err}"`);
  });

  it('reads bare, list and object values, and escaped quotes inside strings', () => {
    const line =
      'I1122 03:05:46.588155   31657 kubelet.go:2386] "SyncLoop (SYNC) pods" total=4 pods=["default/a","default/b"] ok=true status={"phase":"Running","x":"a]b"} note="say \\"hi\\"\\n"';
    const r = parseKlogLine(line);
    expect(r.msg).toBe('SyncLoop (SYNC) pods');
    expect(r.fields.map((f) => [f.key, f.value, f.quoted])).toEqual([
      ['total', '4', false],
      ['pods', '["default/a","default/b"]', false],
      ['ok', 'true', false],
      ['status', '{"phase":"Running","x":"a]b"}', false],
      ['note', 'say "hi"\n', true],
    ]);
    expect(klogField(r, 'total')).toBe('4');
    expect(klogField(r, 'missing')).toBeUndefined();
  });

  it('keeps printf-style bodies as the message', () => {
    const r = parseKlogLine('I1122 03:05:54.856313   31657 exec.go:64] Exec probe response: ""');
    expect(r.structured).toBe(false);
    expect(r.msg).toBe('Exec probe response: ""');
    expect(r.fields).toEqual([]);
  });

  it('treats a quoted message followed by non key=value text as printf-style', () => {
    const r = parseKlogLine('W1122 03:05:54.856313   31657 x.go:1] "quoted" and then words');
    expect(r.structured).toBe(false);
    expect(r.msg).toBe('"quoted" and then words');
  });

  it('rejects lines without a header, naming the cause', () => {
    expect(() => parseKlogLine('Flag --enable-server has been deprecated')).toThrow(KlogParseError);
    expect(() => parseKlogLine('Flag --enable-server has been deprecated')).toThrow(/no klog header/u);
    expect(() => parseKlogLine('I1322 03:05:54.856313   31657 x.go:1] bad month')).toThrow(/impossible date/u);
    expect(tryParseKlogLine('goroutine 1 [running]:')).toBeUndefined();
  });
});

describe('parseKlogLine: prefixes', () => {
  const klog = 'E1122 03:02:44.431380   31657 generic.go:256] "GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"';

  it('strips a syslog/journald short prefix', () => {
    const r = parseKlogLine(`Nov 22 03:02:44 pleg-node kubelet[31657]: ${klog}`);
    expect(r.prefix).toEqual({ kind: 'syslog', timestamp: 'Nov 22 03:02:44', host: 'pleg-node', ident: 'kubelet', pid: 31657 });
    expect(r.msg).toBe('GenericPLEG: Unable to retrieve pods');
    expect(r.epochMs).toBeUndefined();
  });

  it('strips journalctl short-iso-precise and takes the epoch from it', () => {
    const r = parseKlogLine(`2026-11-22T03:02:44.431511+00:00 pleg-node kubelet[31657]: ${klog}`);
    expect(r.prefix?.kind).toBe('iso');
    expect(r.epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 431.511, 3);
    expect(r.err).toMatch(/DeadlineExceeded/u);
  });

  it('strips journalctl short-unix (epoch seconds . microseconds) and takes the epoch from it', () => {
    const r = parseKlogLine(`1795316564.431511 pleg-node kubelet[31657]: ${klog}`);
    expect(r.prefix).toMatchObject({ kind: 'unix', timestamp: '1795316564.431511', host: 'pleg-node', ident: 'kubelet', pid: 31657 });
    expect(r.epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 431.511, 3);
    expect(r.msg).toBe('GenericPLEG: Unable to retrieve pods');
    // systemd pads the seconds to 10 characters ("%10"): times before 2001-09-09 start with spaces.
    expect(parseKlogLine(`     86400.000001 n kubelet[1]: ${klog}`).epochMs).toBeCloseTo(86_400_000.001, 3);
  });

  it('strips kubectl --timestamps and CRI container-log prefixes', () => {
    expect(parseKlogLine(`2026-11-22T03:02:44.431380123Z ${klog}`).prefix?.kind).toBe('iso');
    const cri = parseKlogLine(`2026-11-22T03:02:44.431380123Z stderr F ${klog}`);
    expect(cri.prefix?.stream).toBe('stderr');
    expect(cri.source).toBe('generic.go:256');
  });

  it('converts ISO timestamps with offsets and keeps sub-millisecond digits', () => {
    expect(isoToEpochMs('2026-11-22T05:02:44.5+0200')).toBe(Date.UTC(2026, 10, 22, 3, 2, 44) + 500);
    expect(isoToEpochMs('2026-11-22T03:02:44.000250Z')).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 0.25, 6);
    expect(isoToEpochMs('yesterday')).toBeUndefined();
  });
});

describe('parseKlogLine: JSON format', () => {
  it('reads msg, err, caller and ts (epoch ms); no "v" means an error line', () => {
    // A real kubelet v1.36.2 line (json-1.36-pleg-fault.log).
    const r = parseKlogLine(
      '{"ts":1795840745166.3503,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"container runtime is down","errCauses":[{"error":"container runtime is down"}]}',
    );
    expect(r.format).toBe('json');
    expect(r.severity).toBe('E');
    expect(r.msg).toBe('Skipping pod synchronization');
    expect(r.err).toBe('container runtime is down');
    expect(r.source).toBe('kubelet/kubelet.go:2661');
    expect(r.epochMs).toBeCloseTo(Date.UTC(2026, 10, 28, 4, 39, 5, 166) + 0.3503, 3);
    expect(klogField(r, 'errCauses')).toBe('[{"error":"container runtime is down"}]');
  });

  it('marks lines with a verbosity as info and stringifies non-string fields', () => {
    const r = parseKlogLine('{"ts":1,"caller":"a.go:1","msg":"SyncLoop (SYNC) pods","v":2,"total":4,"pods":["a"]}');
    expect(r.severity).toBe('I');
    expect(klogField(r, 'total')).toBe('4');
    expect(klogField(r, 'pods')).toBe('["a"]');
  });

  it('names the cause for broken JSON', () => {
    expect(() => parseKlogLine('{"ts":1,')).toThrow(/invalid JSON/u);
    expect(() => parseKlogLine('{"ts":1}')).toThrow(/no string "msg"/u);
  });
});

describe('Go quoting', () => {
  it('decodes every escape form', () => {
    expect(goUnquote('"a\\tb\\x41\\u00e9\\U0001F600\\101\\\\"')).toBe('a\tbAé😀A\\');
    expect(goUnquote('"\\xc3\\xa9"')).toBe('é');
  });

  it('round-trips through goQuote', () => {
    for (const s of ['plain', 'with "quotes" and \\', 'tab\tnewline\n', 'µs and é', '\u0001bell\u0007']) {
      expect(goUnquote(goQuote(s))).toBe(s);
    }
    expect(goQuote('a"b\n')).toBe('"a\\"b\\n"');
  });

  it('reports the position of bad escapes', () => {
    expect(() => goUnquote('"abc')).toThrow(GoQuoteError);
    expect(() => goUnquote('"a\\qb"')).toThrow(/unknown escape \\q/u);
    expect(() => goUnquote('"\\x4"')).toThrow(/hex digits/u);
  });
});

describe('formatKlogLine', () => {
  it('writes lines that parse back to the same values', () => {
    const epochMs = Date.UTC(2026, 10, 22, 3, 2, 45) + 259.584;
    const line = formatKlogLine({
      severity: 'E',
      epochMs,
      threadId: 31657,
      source: 'kubelet.go:2273',
      msg: 'Skipping pod synchronization',
      fields: [['err', 'container runtime is down']],
    });
    expect(line).toBe('E1122 03:02:45.259584   31657 kubelet.go:2273] "Skipping pod synchronization" err="container runtime is down"');
    const r = parseKlogLine(line);
    expect(r.time && yearlessToEpochMs(r.time, 2026)).toBeCloseTo(epochMs, 3);
  });
});

describe('parseKlogText', () => {
  it('folds multi-line values and carries the year across new year', () => {
    const text = [
      'I1231 23:59:59.000001       1 a.go:1] "Config" data=<',
      '\tline one',
      '\tline two',
      ' >',
      'I0101 00:00:00.500000       1 a.go:2] "Next"',
      'not a log line',
    ].join('\n');
    const { entries, skipped } = parseKlogText(text, { year: 2025 });
    expect(entries).toHaveLength(2);
    expect(klogField((entries[0] as (typeof entries)[number]).record, 'data')).toBe('line one\nline two');
    expect(entries[1]?.lineNumber).toBe(5);
    expect(entries[1]?.epochMs).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    expect(skipped).toEqual([{ lineNumber: 6, reason: expect.stringMatching(/no klog header/u) as unknown as string }]);
  });

  it('parses the real kubelet 1.32 log: every record line, with the PLEG lines intact', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const { entries, skipped } = parseKlogText(text, { year: 2026 });
    // The only non-record lines are the flag deprecation warnings printed before klog starts.
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(text.split('\n')[s.lineNumber - 1]).toMatch(/^Flag --/u);
    const relistErrors = entries.filter((e) => e.record.msg === 'GenericPLEG: Unable to retrieve pods');
    expect(relistErrors).toHaveLength(2);
    expect(relistErrors[0]?.record.err).toBe('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    const pleg = entries.filter((e) => e.record.msg === 'Skipping pod synchronization' && e.record.err?.includes('PLEG is not healthy: pleg was last seen active'));
    expect(pleg.length).toBeGreaterThan(5);
    expect(pleg[0]?.epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 3, 46) + 572.92, 3);
    // Every body that opens with a quoted message parses as structured (printf-style ones never do).
    const quotedBodies = entries.filter((e) => e.record.body.startsWith('"'));
    expect(quotedBodies.length).toBeGreaterThan(1000);
    expect(quotedBodies.filter((e) => !e.record.structured).map((e) => e.lineNumber)).toEqual([]);
  });
});
