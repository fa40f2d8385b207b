// The one record reader (readLineGeneral) on the line forms real kubelets and their collectors write:
// klog text (structured and printf-style), behind syslog/journald, journalctl short-iso/short-unix, kubectl
// --timestamps and CRI container-log prefixes, and klog's JSON format.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readLineGeneral, readLineFast } from '../../../../src/core/parse/logReaderLine';
import { readLogLines } from '../../../support/kubeletLogLines';

const FIXTURE = new URL('../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url);

describe('readLineGeneral: klog text', () => {
  it('reads the header and a structured body with an err value', () => {
    const line =
      'E1122 03:03:46.572920   31657 kubelet.go:2273] "Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"';
    const r = readLineGeneral(line);
    expect(r.time).toEqual({ yearless: { month: 11, day: 22, hour: 3, minute: 3, second: 46, micros: 572920 } });
    expect(r.clock).toBe('03:03:46');
    expect(r.pid).toBe(31657);
    expect(r.body.msg).toBe('Skipping pod synchronization');
    expect(r.body.err).toBe('[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]');
    // The fast header path answers the same for the common header.
    expect(readLineFast(line)).toEqual(r);
  });

  it('reads bare, list and object values, and escaped quotes inside strings', () => {
    const r = readLineGeneral(
      'I1122 03:05:46.588155   31657 kubelet.go:2386] "SyncLoop (SYNC) pods" total=4 pods=["default/a","default/b"] ok=true status={"phase":"Running","x":"a]b"} note="say \\"hi\\"\\n"',
    );
    expect(r.body.msg).toBe('SyncLoop (SYNC) pods');
    expect([...r.body.fields]).toEqual([
      ['total', '4'],
      ['pods', '["default/a","default/b"]'],
      ['ok', 'true'],
      ['status', '{"phase":"Running","x":"a]b"}'],
      ['note', 'say "hi"\n'],
    ]);
  });

  it('keeps printf-style bodies, and a quoted message followed by words, as the whole message', () => {
    const printf = readLineGeneral('I1122 03:05:54.856313   31657 exec.go:64] Exec probe response: ""');
    expect(printf.body.msg).toBe('Exec probe response: ""');
    expect(printf.body.fields.size).toBe(0);
    expect(readLineGeneral('W1122 03:05:54.856313   31657 x.go:1] "quoted" and then words').body.msg).toBe('"quoted" and then words');
  });

  it('gives a line without a header, or with an impossible date, no time', () => {
    const flag = readLineGeneral('Flag --enable-server has been deprecated');
    expect(flag.time).toBeUndefined();
    expect(flag.body.msg).toBe('Flag --enable-server has been deprecated');
    expect(readLineGeneral('I1322 03:05:54.856313   31657 x.go:1] bad month').time).toBeUndefined();
  });
});

describe('readLineGeneral: collector prefixes', () => {
  const klog = 'E1122 03:02:44.431380   31657 generic.go:256] "GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"';

  it('behind a syslog/journald short prefix: the time of the klog header (the prefix has no year either)', () => {
    const r = readLineGeneral(`Nov 22 03:02:44 pleg-node kubelet[31657]: ${klog}`);
    expect(r.body.msg).toBe('GenericPLEG: Unable to retrieve pods');
    expect(r.time).toEqual({ yearless: { month: 11, day: 22, hour: 3, minute: 2, second: 44, micros: 431380 } });
    expect(r.pid).toBe(31657);
  });

  it('journalctl short-iso-precise and short-unix: the absolute time of the prefix', () => {
    const iso = readLineGeneral(`2026-11-22T03:02:44.431511+00:00 pleg-node kubelet[31657]: ${klog}`);
    expect((iso.time as { epochMs: number }).epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 431.511, 3);
    expect(iso.body.err).toMatch(/DeadlineExceeded/u);
    const unix = readLineGeneral(`1795316564.431511 pleg-node kubelet[31657]: ${klog}`);
    expect((unix.time as { epochMs: number }).epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 431.511, 3);
    expect(unix.clock).toBe('03:02:44');
    // systemd pads the seconds to 10 characters ("%10"): times before 2001-09-09 start with spaces.
    expect((readLineGeneral(`     86400.000001 n kubelet[1]: ${klog}`).time as { epochMs: number }).epochMs).toBeCloseTo(86_400_000.001, 3);
  });

  it('kubectl --timestamps and CRI container-log prefixes', () => {
    for (const line of [`2026-11-22T03:02:44.431380123Z ${klog}`, `2026-11-22T03:02:44.431380123Z stderr F ${klog}`]) {
      const r = readLineGeneral(line);
      expect(r.body.msg).toBe('GenericPLEG: Unable to retrieve pods');
      expect((r.time as { epochMs: number }).epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 2, 44) + 431.38, 3);
    }
  });
});

describe('readLineGeneral: klog JSON', () => {
  it('reads msg, err and ts (epoch ms) of a real kubelet v1.36.2 line (json-1.36-pleg-fault.log)', () => {
    const r = readLineGeneral(
      '{"ts":1795840745166.3503,"caller":"kubelet/kubelet.go:2661","msg":"Skipping pod synchronization","err":"container runtime is down","errCauses":[{"error":"container runtime is down"}]}',
    );
    expect(r.body.msg).toBe('Skipping pod synchronization');
    expect(r.body.err).toBe('container runtime is down');
    expect((r.time as { epochMs: number }).epochMs).toBeCloseTo(Date.UTC(2026, 10, 28, 4, 39, 5, 166) + 0.3503, 3);
    expect(r.body.fields.get('errCauses')).toBe('[{"error":"container runtime is down"}]');
    expect(r.body.fields.get('caller')).toBe('kubelet/kubelet.go:2661');
  });

  it('stringifies non-string fields; a line that is not a log object is plain text', () => {
    const r = readLineGeneral('{"ts":1,"caller":"a.go:1","msg":"SyncLoop (SYNC) pods","v":2,"total":4,"pods":["a"]}');
    expect(r.body.fields.get('total')).toBe('4');
    expect(r.body.fields.get('pods')).toBe('["a"]');
    for (const broken of ['{"ts":1,', '{"ts":1}']) {
      const b = readLineGeneral(broken);
      expect(b.body.msg).toBe(broken);
      expect(b.time).toBeUndefined();
    }
  });
});

describe('a whole real kubelet 1.32 log through the reader', () => {
  it('every line after the flag warnings has a time, with the PLEG lines intact', () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const lines = readLogLines(text, 2026);
    // The only lines without a time are the flag deprecation warnings printed before klog starts.
    const untimed = lines.filter((l) => l.epochMs === undefined);
    expect(untimed.length).toBeGreaterThan(0);
    for (const l of untimed) expect(l.msg).toMatch(/^Flag --/u);
    const relistErrors = lines.filter((l) => l.msg === 'GenericPLEG: Unable to retrieve pods');
    expect(relistErrors).toHaveLength(2);
    expect(relistErrors[0]?.err).toBe('rpc error: code = DeadlineExceeded desc = context deadline exceeded');
    const pleg = lines.filter((l) => l.msg === 'Skipping pod synchronization' && l.err?.includes('PLEG is not healthy: pleg was last seen active'));
    expect(pleg.length).toBeGreaterThan(5);
    expect(pleg[0]?.epochMs).toBeCloseTo(Date.UTC(2026, 10, 22, 3, 3, 46) + 572.92, 3);
    // Every body that opens with a quoted message reads as structured: its message is decoded, not the raw text.
    const raw = text.split('\n');
    const quoted = lines.filter((l) => /^\S+ \S+ +\d+ \S+\] "/u.test(raw[l.lineNumber - 1] ?? ''));
    expect(quoted.length).toBeGreaterThan(1000);
    expect(quoted.filter((l) => l.msg.startsWith('"')).map((l) => l.lineNumber)).toEqual([]);
  });

  it('carries the year across New Year', () => {
    const lines = readLogLines(['I1231 23:59:59.000001       1 a.go:1] "Last"', 'I0101 00:00:00.500000       1 a.go:2] "Next"'].join('\n'), 2025);
    expect(lines[1]?.epochMs).toBe(Date.UTC(2026, 0, 1, 0, 0, 0, 500));
  });
});
