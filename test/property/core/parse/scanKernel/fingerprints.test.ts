// Differential: the byte scanner with the WebAssembly SIMD kernel against the same scanner on its JS key
// searches (the fallback, itself held against the full reader in logReaderBytes.test.ts). Raw bytes with
// anchors, near-misses, \r\n and NUL/high bytes sprinkled in, cut into chunks anywhere (so anchors and
// \r\n straddle chunk borders), with kernel windows down to 16 bytes (lines straddle windows and are
// longer than a window), and lines longer than MAX_CARRY: the reader must see the same calls.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ANCHOR_TAILS } from '../../../../../src/core/parse/anchorTails';
import { LINE_ANCHORS, LogByteScanner, type LogByteScannerOptions } from '../../../../../src/core/parse/logReaderBytes';
import { MAX_MATCHED_LINE } from '../../../../../src/core/parse/logReaderLine';
import { FINGERPRINTS } from '../../../../../src/core/parse/scanKernel/fingerprints';

type Call = string | number;

/** A reader that records its calls, with consecutive skips merged and empty ones dropped (both scanners may split them). */
function recordingSink(): { out: Call[]; sink: { push(line: string): void; skipLines(n: number): void } } {
  const out: Call[] = [];
  const sink = {
    push(line: string): void {
      out.push(line);
    },
    skipLines(n: number): void {
      if (n === 0) return;
      const last = out[out.length - 1];
      if (typeof last === 'number') out[out.length - 1] = last + n;
      else out.push(n);
    },
  };
  return { out, sink };
}

/** The reader calls when the scanner is pushed `data` cut at `cuts`. */
function calls(data: Buffer, cuts: number[], options: LogByteScannerOptions): Call[] {
  const { out, sink } = recordingSink();
  const scanner = new LogByteScanner(sink, options);
  if (options.simd !== false) expect(scanner.usesSimd).toBe(true);
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    const to = Math.min(Math.max(at, c), data.length);
    scanner.push(data.subarray(at, to));
    at = to;
  }
  scanner.push(data.subarray(at));
  scanner.end();
  return out;
}

/** The calls when the scanner reads by fill(), each read giving at most the next of `sizes` bytes (cycled). */
function fillCalls(data: Buffer, sizes: number[], options: LogByteScannerOptions): Call[] {
  const { out, sink } = recordingSink();
  const scanner = new LogByteScanner(sink, options);
  let at = 0;
  let k = 0;
  const read = (target: Uint8Array, offset: number, length: number): number => {
    const want = sizes.length === 0 ? length : Math.max(1, (sizes[k++ % sizes.length] as number) % (length + 1));
    const n = Math.min(want, length, data.length - at);
    target.set(data.subarray(at, at + n), offset);
    at += n;
    return n;
  };
  while (scanner.fill(read) > 0);
  scanner.end();
  return out;
}

const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...LINE_ANCHORS) },
  // Cut-short anchors and each fingerprint alone: candidates the kernel flags that must not count.
  { weight: 2, arbitrary: fc.constantFrom(...LINE_ANCHORS.map((a) => a.slice(0, -1)), ...LINE_ANCHORS.map((a) => a.slice(1))) },
  { weight: 2, arbitrary: fc.constantFrom(...FINGERPRINTS.map((f) => f.literal.slice(f.at, f.at + 3))) },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\r\n', '\r', '\n\n') },
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('latin1')) },
);

const windows = fc.constantFrom(16, 32, 48, 64, 256, 4096);

describe('SIMD scanner against the JS scanner', () => {
  test.prop([fc.array(fragment, { maxLength: 200 }), fc.array(fc.nat(), { maxLength: 16 }), windows], { numRuns: 400 })(
    'random bytes with anchors, any chunking, any window: the same pushed lines and skipped counts',
    (fragments, cuts, window) => {
      const data = Buffer.from(fragments.join(''), 'latin1');
      const cutAt = cuts.map((c) => c % (data.length + 1));
      expect(calls(data, cutAt, { simdWindow: window })).toEqual(calls(data, cutAt, { simd: false }));
    },
  );

  test.prop([fc.nat(), fc.constantFrom(...LINE_ANCHORS), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), windows], { numRuns: 40 })(
    'lines longer than MAX_CARRY and than the window, an anchor anywhere in them',
    (where, anchor, cuts, crlf, window) => {
      const long = MAX_MATCHED_LINE * 4 + 1 + (where % 5000);
      const body = Buffer.alloc(long, 'x');
      body.write(anchor, where % (long - anchor.length), 'latin1');
      const data = Buffer.concat([Buffer.from(`PLEG a\n${anchor} b\n`), body, Buffer.from(crlf ? '\r\nNodeReady\r\n' : '\nNodeReady\n')]);
      const cutAt = cuts.map((c) => c % (data.length + 1));
      expect(calls(data, cutAt, { simdWindow: window })).toEqual(calls(data, cutAt, { simd: false }));
    },
  );

  test.prop([fc.array(fragment, { maxLength: 200 }), fc.array(fc.nat(5000), { maxLength: 16 }), fc.constantFrom(16, 32, 64, 256, 4096, 256 * 1024)], { numRuns: 300 })(
    'reading straight into the kernel (fill) gives the calls of push, reads of any size',
    (fragments, sizes, window) => {
      const data = Buffer.from(fragments.join(''), 'latin1');
      const expected = calls(data, [], { simd: false });
      expect(fillCalls(data, sizes, { simdWindow: window })).toEqual(expected);
      expect(fillCalls(data, sizes, { simd: false })).toEqual(expected);
    },
  );

  it('finds an anchor at the first bytes of a window, after a window ending in part of a fingerprint', () => {
    // 32-byte lines: every kernel window starts at one, so these fingerprints sit at a window's first
    // bytes (where the kernel has no previous block) and "PL", "P" end the windows before them.
    const line = (s: string): string => `${s}${'y'.repeat(31 - s.length)}\n`;
    const lines = ['PLEG is not healthy', 'x PL', 'NodeReady', 'x P', 'LEG is not healthy', 'PLEG is not healthy', 'E is not healthy'].map(line);
    const data = Buffer.from(lines.join('').repeat(5), 'latin1');
    for (const window of [32, 64, 96, 256]) {
      const got = calls(data, [], { simdWindow: window });
      expect(got).toEqual(calls(data, [], { simd: false }));
      expect(got.filter((c) => typeof c === 'string')).toHaveLength(15);
    }
  });

  it('finds an anchor at every offset of a block, and counts the lines around it', () => {
    // Every alignment of every anchor against the kernel's 16-byte blocks, on both sides of a newline;
    // an anchor with a tail check (anchorTails.ts) is followed by a tail it takes.
    for (const bare of LINE_ANCHORS) {
      const anchor = ANCHOR_TAILS.has(bare) ? `${bare} not ready` : bare;
      for (let pad = 0; pad < 40; pad++) {
        const data = Buffer.from(`a\n${'y'.repeat(pad)}${anchor}\nb\n${anchor}`, 'latin1');
        const got = calls(data, [], { simdWindow: 64 });
        expect(got).toEqual([1, `${'y'.repeat(pad)}${anchor}`, 1, anchor]);
      }
    }
  });
});
