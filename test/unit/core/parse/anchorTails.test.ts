// Tail checks refuse an anchor only where the reader's prefilter must refuse the line too: exact on
// ASCII, and keeping any line where a byte might decode to Unicode whitespace.
import { describe, expect, it } from 'vitest';
import { runtimePollTail } from '../../../../src/core/parse/anchorTails';
import { readKubeletLog } from '../../../../src/core/parse/logReader';
import { LogByteScanner } from '../../../../src/core/parse/logReaderBytes';

const tail = (s: string): boolean => {
  const b = Buffer.from(s, 'utf8');
  return runtimePollTail(b, 0, b.length);
};

describe('runtimePollTail (after "Container runtime")', () => {
  it('keeps the runtime poll messages, with any run of whitespace before them', () => {
    for (const t of [' sanity check failed', ' not ready', ' network not ready', '  not ready', '\tsanity', ' \r\x0b\x0cnot ready', '\u00a0not ready', '\u2003sanity']) expect(tail(t), JSON.stringify(t)).toBe(true);
  });

  it('refuses "Container runtime status" and other ASCII continuations the prefilter cannot match', () => {
    for (const t of [' status', '" status="x"', 'not ready', ' initialized', ' nat', ' ready', '\n not ready']) expect(tail(t), JSON.stringify(t)).toBe(false);
  });

  it('keeps the line when the bytes end before they decide', () => {
    for (const t of ['', ' ', '  ', ' no', ' netw', ' san']) expect(tail(t), JSON.stringify(t)).toBe(true);
  });
});

describe('the byte scanner with the tail check', () => {
  it('finds the same runtime lines as the reader, Unicode spaces included, and skips the status lines', () => {
    const lines = [
      'I1122 02:59:17.267848   31657 kubelet.go:2862] "Container runtime status" status="Runtime Conditions: RuntimeReady=true"',
      'E1122 03:02:47.000000   31657 kubelet.go:2891] "Container runtime sanity check failed" err="rpc error"',
      'E1122 03:02:48.000000   31657 kubelet.go:2891] "Container runtime\u00a0not ready" runtimeReady="x"',
      'E1122 03:02:49.000000   31657 kubelet.go:2891] "Container runtime \u2003 network not ready" networkReady="x"',
      'E1122 03:02:50.000000   31657 kubelet.go:2891] "Container runtime\tnot\tready" runtimeReady="x"',
    ];
    const text = `${lines.join('\n')}\n`;
    for (const simd of [true, false]) {
      const pushed: string[] = [];
      const scanner = new LogByteScanner({ push: (l) => pushed.push(l), skipLines: () => undefined }, { simd });
      scanner.push(Buffer.from(text, 'utf8'));
      scanner.end();
      expect(pushed).toEqual(lines.slice(1));
    }
    expect(readKubeletLog(text).findings.filter((f) => f.kind === 'runtime-down')).toHaveLength(4);
  });
});
