// The pieces of output_short that the parity test (test/unit/cli/commands/kubeletJournal.parity.test.ts) cannot reach with the real
// writer: sizes of blob messages past 1 KiB (which the writer would compress), and strip_tab_ansi's torn
// sequences. Expected values follow systemd's src/basic/format-util.c format_bytes_full (IEC, one decimal
// below the point, trailing B) and src/basic/string-util.c strip_tab_ansi.
import { describe, expect, it } from 'vitest';
import { formatBytes, stripTabAnsi, utf8IsPrintable } from '../../../../src/core/journal/shortPrecise';

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const bytes = (s: string): Uint8Array => Buffer.from(s, 'latin1');

describe('format_bytes', () => {
  it('whole bytes below 1 KiB, one decimal above, by the unit below', () => {
    expect(formatBytes(0)).toBe('0B');
    expect(formatBytes(1023)).toBe('1023B');
    expect(formatBytes(1024)).toBe('1.0K');
    expect(formatBytes(1536)).toBe('1.5K');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1023.9K');
    expect(formatBytes(3 * 1024 * 1024 + 700 * 1024)).toBe('3.6M');
  });
});

describe('strip_tab_ansi', () => {
  it('keeps torn and unknown sequences as they are; drops trailing carriage returns only', () => {
    expect(text(stripTabAnsi(bytes('a\x1b[1;31mb\x1b[0m')))).toBe('ab');
    expect(text(stripTabAnsi(bytes('a\x1b[12Kb')))).toBe('a\x1b[12Kb');
    expect(text(stripTabAnsi(bytes('end\x1b')))).toBe('end\x1b');
    expect(text(stripTabAnsi(bytes('\x1b]8;;http://x\x07link\x1b]8;;\x1b\\')))).toBe('link');
    expect(text(stripTabAnsi(bytes('a\r\nb\r\r')))).toBe('a\nb');
    expect(text(stripTabAnsi(bytes('a\rb')))).toBe('a\rb');
  });

  it('is printable: UTF-8 with tab and newline, no other control character', () => {
    expect(utf8IsPrintable(Buffer.from('größe\tok\n', 'utf8'))).toBe(true);
    expect(utf8IsPrintable(bytes('a\x01'))).toBe(false);
    expect(utf8IsPrintable(Buffer.from('\u0085', 'utf8'))).toBe(false);
    expect(utf8IsPrintable(Uint8Array.from([0xc0, 0xaf]))).toBe(false);
  });
});
