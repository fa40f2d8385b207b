// The SIMD scan kernel's pieces: its LEB128 encoders, its fingerprints (one per anchor, each inside its
// literal, buckets in range), the hand-assembled kernel itself against a plain JS statement of what it
// computes, and the fallback to the JS key searches where WebAssembly SIMD is missing.
import { readFileSync } from 'node:fs';
import { fc, test } from '@fast-check/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LINE_ANCHORS } from '../../../../../src/core/parse/logReaderBytes';
import { FINGERPRINT_BYTES, FINGERPRINTS, nibbleTables } from '../../../../../src/core/parse/scanKernel/fingerprints';
import { CONSTANTS_AT, CONSTANTS_BYTES, KERNEL_READS_PAST, kernelConstants, scanKernel } from '../../../../../src/core/parse/scanKernel/kernelCode';
import { SimdLineScanner } from '../../../../../src/core/parse/scanKernel/simdLineScanner';
import { sleb, uleb, wasmModule } from '../../../../../src/core/parse/scanKernel/wasmBinary';

// The WebAssembly surface used here (the project's TypeScript libs do not declare it).
declare const WebAssembly: {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { memory: { buffer: ArrayBuffer }; scan: (input: number, len: number, out: number) => number } };
};

/**
 * The kernel, instantiated as SimdLineScanner does: scan(in, len, out) → [records, newline total].
 * `before` is put just ahead of the input (inside the kernel's memory, outside its window).
 */
function kernel(perTurn?: number): (input: Uint8Array, before?: Uint8Array) => { records: number[][]; total: number } {
  const module = new WebAssembly.Module(wasmModule(4, [scanKernel(perTurn)]));
  const { exports } = new WebAssembly.Instance(module);
  const mem = new Uint8Array(exports.memory.buffer);
  const words = new Int32Array(exports.memory.buffer);
  mem.set(kernelConstants(nibbleTables(FINGERPRINTS)), CONSTANTS_AT);
  // 16 bytes of room for `before`, between the constants and the input.
  const IN = CONSTANTS_AT + CONSTANTS_BYTES + 16;
  return (input, before = new Uint8Array(0)) => {
    // Records are read as aligned words, as SimdLineScanner places them.
    const out = (IN + input.length + KERNEL_READS_PAST + 16) & ~15;
    mem.fill(0, IN - 16, IN);
    mem.set(before, IN - before.length);
    mem.set(input, IN);
    // The kernel reads up to KERNEL_READS_PAST bytes past the input; zero bytes match no fingerprint.
    mem.fill(0, IN + input.length, out);
    const n = exports.scan(IN, input.length, out);
    const records: number[][] = [];
    for (let r = 0; r < n; r++) records.push([...words.subarray((out >> 2) + 4 * r, (out >> 2) + 4 * r + 4)]);
    return { records, total: words[0] as number };
  };
}

/**
 * What the kernel computes, stated plainly: per 16-byte block of the input, a position is a candidate
 * when it and the two bytes before it (inside the input) pass the nibble tables of a common bucket, so
 * a candidate marks a fingerprint's last byte; a block with a candidate gives a record [offset,
 * candidate bits, \n before the block, \n bits]; the total of \n is returned too.
 */
function reference(input: Uint8Array): { records: number[][]; total: number } {
  const { lo, hi } = nibbleTables(FINGERPRINTS);
  const at = (i: number): number => (i >= 0 && i < input.length ? (input[i] as number) : 0);
  const records: number[][] = [];
  let newlines = 0;
  for (let block = 0; block < input.length; block += 16) {
    let cand = 0;
    let nl = 0;
    for (let j = 0; j < 16; j++) {
      let buckets = 0xff;
      for (let k = 0; k < FINGERPRINT_BYTES; k++) {
        const b = at(block + j - (FINGERPRINT_BYTES - 1) + k);
        buckets &= ((lo[k] as Uint8Array)[b & 0x0f] as number) & ((hi[k] as Uint8Array)[b >> 4] as number);
      }
      if (buckets !== 0) cand |= 1 << j;
      if (at(block + j) === 0x0a) nl |= 1 << j;
    }
    if (cand !== 0) records.push([block, cand, newlines, nl]);
    newlines += popcount(nl);
  }
  return { records, total: newlines };
}

/** The input positions the kernel's records flag. */
function flagged(records: number[][]): number[] {
  return records.flatMap(([block, cand]) => Array.from({ length: 16 }, (_, j) => (((cand as number) >>> j) & 1 ? (block as number) + j : -1)).filter((p) => p >= 0));
}

function popcount(x: number): number {
  let n = 0;
  for (; x !== 0; x &= x - 1) n++;
  return n;
}

describe('LEB128', () => {
  it('encodes as the format defines: seven bits a byte, low first, the high bit marking more', () => {
    expect(uleb(0)).toEqual([0]);
    expect(uleb(127)).toEqual([0x7f]);
    expect(uleb(128)).toEqual([0x80, 0x01]);
    expect(uleb(624485)).toEqual([0xe5, 0x8e, 0x26]);
    expect(sleb(0)).toEqual([0]);
    expect(sleb(63)).toEqual([0x3f]);
    expect(sleb(64)).toEqual([0xc0, 0x00]);
    expect(sleb(-1)).toEqual([0x7f]);
    expect(sleb(-123456)).toEqual([0xc0, 0xbb, 0x78]);
  });
});

describe('fingerprints', () => {
  it('cover exactly the anchors, each inside its literal, in one of eight buckets', () => {
    expect(FINGERPRINTS.map((f) => f.literal).sort()).toEqual([...LINE_ANCHORS].sort());
    for (const f of FINGERPRINTS) {
      expect(f.at + FINGERPRINT_BYTES).toBeLessThanOrEqual(f.literal.length);
      expect(f.bucket).toBeGreaterThanOrEqual(0);
      expect(f.bucket).toBeLessThan(8);
      expect(f.literal.slice(f.at, f.at + FINGERPRINT_BYTES)).not.toContain('\n');
    }
  });

  it('tables accept each fingerprint byte in its bucket', () => {
    const { lo, hi } = nibbleTables(FINGERPRINTS);
    for (const f of FINGERPRINTS) {
      for (let k = 0; k < FINGERPRINT_BYTES; k++) {
        const c = f.literal.charCodeAt(f.at + k);
        const bit = 1 << f.bucket;
        expect(((lo[k] as Uint8Array)[c & 0x0f] as number) & bit).toBe(bit);
        expect(((hi[k] as Uint8Array)[c >> 4] as number) & bit).toBe(bit);
      }
    }
  });

  it('a scanner for other anchors than the fingerprints cover is refused', () => {
    expect(() => SimdLineScanner.create([...LINE_ANCHORS, 'Eviction manager'])).toThrow(/Eviction manager/u);
    expect(() => SimdLineScanner.create(LINE_ANCHORS, 100)).toThrow(/multiple of 16/u);
  });
});

describe('the kernel', () => {
  const run = kernel();

  it('on the real recording: the records and newline count the plain statement gives', () => {
    const real = readFileSync(new URL('../../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url)).subarray(0, 60_000);
    const got = run(real);
    expect(got).toEqual(reference(real));
    expect(got.total).toBe(real.toString('latin1').split('\n').length - 1);
    // Every anchor occurrence is flagged at its fingerprint's last byte.
    const marks = new Set(flagged(got.records));
    const text = real.toString('latin1');
    for (const f of FINGERPRINTS) for (let i = text.indexOf(f.literal); i >= 0; i = text.indexOf(f.literal, i + 1)) expect(marks.has(i + f.at + FINGERPRINT_BYTES - 1)).toBe(true);
  });

  it('flags a fingerprint at its last byte, at every offset across blocks and turns', () => {
    // Offsets 14 and 15 put the first byte in one block and the last in the next; 16 · perTurn - 2 and
    // - 1 do the same across a loop turn, whose bits for bytes 0 and 1 are carried in locals.
    for (const perTurn of [2, 3, 4]) {
      const runTurn = kernel(perTurn);
      for (let at = 0; at < 16 * 5; at++) {
        const input = Buffer.alloc(16 * 6, 'x');
        input.write('PLE', at, 'latin1');
        const got = runTurn(input);
        expect(flagged(got.records)).toEqual([at + 2]);
        expect(got).toEqual(reference(input));
      }
    }
  });

  it('flags nothing for a fingerprint begun before the window', () => {
    // The bytes ahead of the input ("PL", "P") would complete "PLE" with its first bytes: the kernel
    // starts each call with no bits for the previous block, so only a fingerprint inside counts.
    for (const perTurn of [2, 3, 4]) {
      const runTurn = kernel(perTurn);
      expect(runTurn(Buffer.from('E is not healthy\n', 'latin1'), Buffer.from('xxPL', 'latin1')).records).toEqual([]);
      expect(runTurn(Buffer.from('LE is not healthy\n', 'latin1'), Buffer.from('xxP', 'latin1')).records).toEqual([]);
      // At the window's first bytes it is flagged, whatever precedes the window.
      const first = runTurn(Buffer.from('PLEG is not healthy\n', 'latin1'), Buffer.from('PLEPLE', 'latin1'));
      expect(flagged(first.records)).toEqual([2]);
      expect(first.records[0]).toEqual([0, 1 << 2, 0, 0]);
    }
  });

  it('counts the newlines before a fingerprint that starts in the block before its last byte', () => {
    // "PLE" at 14-16: the record is block 16's (bit 0), with the 5 newlines before that block and the
    // \n at 17 in its bits; its line is the sixth, as for the first byte at 14.
    const input = Buffer.from(`${'\n'.repeat(5)}${'x'.repeat(9)}PLE\n`, 'latin1');
    expect(run(input).records).toEqual([[16, 1, 5, 1 << 1]]);
    expect(run(input)).toEqual(reference(input));
  });

  it('counts every newline when every byte is one, across many folds of its byte counters', () => {
    // Each lane of the counter gains one a block here, the most it can: a fold too late would wrap it.
    // Lengths around the fold periods (63 turns of 64 bytes, 127 of 32, 85 of 48), odd and even block
    // counts, an anchor (a record, which folds early) at several places.
    for (const perTurn of [2, 3, 4]) {
      const runTurn = kernel(perTurn);
      for (const n of [16, 4000, 4016, 4032, 4048, 4064, 4080, 4096, 4112, 8128, 8144, 8192, 20_000]) {
        const lines = Buffer.alloc(n, 0x0a);
        expect(runTurn(lines)).toEqual({ records: [], total: n });
        for (const at of [0, 17, 46, Math.floor(n / 2), n - 40]) {
          if (at < 0 || at + 19 > n) continue;
          const input = Buffer.from(lines);
          input.write('PLEG is not healthy', at, 'latin1');
          expect(runTurn(input)).toEqual(reference(input));
        }
      }
    }
  });

  it('on the real recording and on every byte value at every lane, gives what the plain statement gives', () => {
    const real = readFileSync(new URL('../../../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url)).subarray(0, 60_000);
    for (const perTurn of [2, 3, 4]) {
      const run = kernel(perTurn);
      expect(run(real)).toEqual(reference(real));
      // Every byte value at every lane: the nibble lookups see all sixteen indices of both tables.
      const all = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7 + (i >> 8)) & 0xff));
      all.write('PLEG is not healthy', 1000, 'latin1');
      expect(run(all)).toEqual(reference(all));
    }
  });

  it('takes two to four blocks a turn', () => {
    expect(() => scanKernel(1)).toThrow(/1 blocks/u);
    expect(() => scanKernel(5)).toThrow(/5 blocks/u);
  });

  test.prop([fc.uint8Array({ maxLength: 300 }), fc.array(fc.constantFrom(...LINE_ANCHORS, '\n'), { maxLength: 8 }), fc.constantFrom(2, 3, 4)])(
    'on any bytes with anchors and newlines: the plain statement',
    (bytes, inserts, perTurn) => {
      const input = Buffer.concat([Buffer.from(bytes), ...inserts.map((s) => Buffer.from(s, 'latin1'))]);
      expect(kernel(perTurn)(input)).toEqual(reference(input));
    },
  );
});

describe('without WebAssembly SIMD', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('the byte scanner falls back to its key searches, with the same results', async () => {
    // A runtime whose WebAssembly rejects the SIMD instructions (validate is all the scanner asks first).
    vi.stubGlobal('WebAssembly', { validate: () => false });
    vi.resetModules();
    const { LogByteScanner } = await import('../../../../../src/core/parse/logReaderBytes');
    const seen: Array<string | number> = [];
    const scanner = new LogByteScanner({ push: (l) => seen.push(l), skipLines: (n) => seen.push(n) });
    expect(scanner.usesSimd).toBe(false);
    scanner.push(Buffer.from('a\nb\nE1122 PLEG is not healthy\r\nc\n'));
    scanner.end();
    expect(seen.filter((s) => s !== 0)).toEqual([2, 'E1122 PLEG is not healthy', 1]);
  });
});
