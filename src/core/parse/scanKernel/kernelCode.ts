// The scan kernel as WebAssembly instructions. One pass over 16-byte blocks does two jobs that took ten
// native passes before (nine anchor keys and the newlines): it counts \n bytes, and flags the blocks
// where some fingerprint (fingerprints.ts) may start. Only flagged blocks leave the kernel, as 16-byte
// records, so the JS side touches ~0.5 % of the blocks of a kubelet journal.
//
// scan(in, len, out) → records; the newline total of in[0, len) is stored at address 0.
// A record: [block offset from in, candidate bit per byte, \n before the block, \n bit per byte].
// The kernel reads up to KERNEL_READS_PAST bytes past `len` (it takes two blocks a turn, and a
// fingerprint's last byte is two past its first): the caller zeroes them (zero bytes match nothing).
//
// Newlines are counted as in a byte accumulator (each lane gains one per \n, at most one per block) that
// is folded into the i32 total before it can wrap (255 blocks) and whenever a record needs the exact
// count, so the common block costs a compare and a subtract. Blocks go two a turn, which shares the
// candidate branch and the fold budget between them: the kernel alone over 1 GB (one window, hot) took
// 215-233 ms that way against 243-262 ms one block a turn, measured side by side.

import { FINGERPRINT_BYTES } from './fingerprints';
import { I32, V128, memarg, op, simd, simdOp, sleb, uleb, type WasmFunction } from './wasmBinary';

/** Bytes past `len` the kernel may read: a turn's second block, and the fingerprint bytes after it. */
export const KERNEL_READS_PAST = 16 + 15 + FINGERPRINT_BYTES - 1;

// Parameters and locals, by index.
const IN = 0;
const LEN = 1;
const OUT = 2;
const P = 3;
const END = 4;
const OUT0 = 5;
const TOTAL = 6;
const BUDGET = 7;
const NL = 8;
const M = 9;
const ACC = 10;
const T = 11;
/** The tables and masks, loaded once into these locals (see CONSTANTS_AT). */
const C0 = 12;
const CONSTANT_COUNT = 2 * FINGERPRINT_BYTES + 2;
const NIBBLE_MASK = C0 + 2 * FINGERPRINT_BYTES;
const NEWLINES = NIBBLE_MASK + 1;
/** The second block of a turn (see scanKernel). */
const NL2 = C0 + CONSTANT_COUNT;
const M2 = NL2 + 1;

/**
 * Where the kernel finds its vectors: the nibble tables, then 0x0f and \n in every lane. They are passed
 * in memory rather than as v128.const because V8 rebuilds an inline constant on every use (two integer
 * moves and an insert per table, per block), while loaded values stay in registers across the loop.
 */
export const CONSTANTS_AT = 16;
export const CONSTANTS_BYTES = CONSTANT_COUNT * 16;

export function kernelConstants(tables: { lo: Uint8Array[]; hi: Uint8Array[] }): Uint8Array {
  const out = new Uint8Array(CONSTANTS_BYTES);
  for (let k = 0; k < FINGERPRINT_BYTES; k++) {
    out.set(tables.lo[k] as Uint8Array, 32 * k);
    out.set(tables.hi[k] as Uint8Array, 32 * k + 16);
  }
  out.fill(0x0f, (NIBBLE_MASK - C0) * 16, (NIBBLE_MASK - C0 + 1) * 16);
  out.fill(0x0a, (NEWLINES - C0) * 16, (NEWLINES - C0 + 1) * 16);
  return out;
}

/** Lanes of a byte accumulator can take 255 increments: two blocks a turn, so 127 turns. */
const FOLD_EVERY_TURNS = 127;

const get = (i: number): number[] => [op.localGet, ...uleb(i)];
const set = (i: number): number[] => [op.localSet, ...uleb(i)];
const tee = (i: number): number[] => [op.localTee, ...uleb(i)];
const i32 = (n: number): number[] => [op.i32Const, ...sleb(n)];
const v128 = (bytes: ArrayLike<number>): number[] => [...simdOp(simd.v128Const), ...Array.from(bytes)];
const splat16 = (b: number): number[] => v128(new Array<number>(16).fill(b));

/** acc's lanes added into total; acc and the budget start over. */
function fold(): number[] {
  return [
    ...get(TOTAL),
    ...get(ACC),
    ...simdOp(simd.i16x8ExtaddPairwiseI8x16U),
    ...simdOp(simd.i32x4ExtaddPairwiseI16x8U),
    ...tee(T),
    ...simdOp(simd.i32x4ExtractLane), 0,
    ...get(T), ...simdOp(simd.i32x4ExtractLane), 1,
    op.i32Add,
    ...get(T), ...simdOp(simd.i32x4ExtractLane), 2,
    op.i32Add,
    ...get(T), ...simdOp(simd.i32x4ExtractLane), 3,
    op.i32Add,
    op.i32Add,
    ...set(TOTAL),
    ...splat16(0),
    ...set(ACC),
    ...i32(FOLD_EVERY_TURNS),
    ...set(BUDGET),
  ];
}

/** Takes a block of bytes off the stack, leaves its bucket bits for fingerprint byte k. */
function lookup(k: number): number[] {
  return [
    ...set(T),
    ...get(C0 + 2 * k),
    ...get(T),
    ...get(NIBBLE_MASK),
    ...simdOp(simd.v128And),
    ...simdOp(simd.i8x16Swizzle),
    ...get(C0 + 2 * k + 1),
    ...get(T),
    ...i32(4),
    ...simdOp(simd.i16x8ShrU),
    ...get(NIBBLE_MASK),
    ...simdOp(simd.v128And),
    ...simdOp(simd.i8x16Swizzle),
    ...simdOp(simd.v128And),
  ];
}

function storeI32(offset: number, value: number[]): number[] {
  return [...get(OUT), ...value, op.i32Store, ...memarg(2, offset)];
}

/** The block at P + offset: its \n lanes into local nl, its candidate lanes into local m. */
function block(offset: number, nl: number, m: number): number[] {
  const out = [...get(P), ...simdOp(simd.v128Load), ...memarg(0, offset), ...get(NEWLINES), ...simdOp(simd.i8x16Eq), ...set(nl)];
  for (let k = 0; k < FINGERPRINT_BYTES; k++) {
    out.push(...get(P), ...simdOp(simd.v128Load), ...memarg(0, offset + k), ...lookup(k));
    if (k > 0) out.push(...simdOp(simd.v128And));
  }
  out.push(...set(m));
  return out;
}

/** When block P + offset has candidates: its record, with the exact newline count before it. */
function recordIfCandidates(offset: number, nl: number, m: number): number[] {
  return [
    ...get(m), ...simdOp(simd.v128AnyTrue),
    op.if, op.void,
    ...fold(),
    ...storeI32(0, [...get(P), ...get(IN), op.i32Sub, ...i32(offset), op.i32Add]),
    ...storeI32(4, [...get(m), ...splat16(0), ...simdOp(simd.i8x16Ne), ...simdOp(simd.i8x16Bitmask)]),
    ...storeI32(8, get(TOTAL)),
    ...storeI32(12, [...get(nl), ...simdOp(simd.i8x16Bitmask)]),
    ...get(OUT), ...i32(16), op.i32Add, ...set(OUT),
    op.end,
  ];
}

const subtractNewlines = (nl: number): number[] => [...get(ACC), ...get(nl), ...simdOp(simd.i8x16Sub), ...set(ACC)];

export function scanKernel(): WasmFunction {
  const loadConstants: number[] = [];
  for (let c = 0; c < CONSTANT_COUNT; c++) loadConstants.push(...i32(0), ...simdOp(simd.v128Load), ...memarg(0, CONSTANTS_AT + 16 * c), ...set(C0 + c));
  // Two blocks a turn: one branch on both blocks' candidates (almost always none) and one budget step.
  const body = [
    ...loadConstants,
    ...get(IN), ...get(LEN), op.i32Add, ...set(END),
    ...get(IN), ...set(P),
    ...get(OUT), ...set(OUT0),
    ...i32(FOLD_EVERY_TURNS), ...set(BUDGET),
    op.block, op.void,
    op.loop, op.void,
    ...get(P), ...get(END), op.i32GeU, op.brIf, 1,
    ...block(0, NL, M),
    ...block(16, NL2, M2),
    ...get(M), ...get(M2), ...simdOp(simd.v128Or), ...simdOp(simd.v128AnyTrue),
    op.if, op.void,
    ...recordIfCandidates(0, NL, M),
    ...subtractNewlines(NL),
    ...recordIfCandidates(16, NL2, M2),
    ...subtractNewlines(NL2),
    op.else,
    ...subtractNewlines(NL),
    ...subtractNewlines(NL2),
    op.end,
    ...get(BUDGET), ...i32(1), op.i32Sub, ...tee(BUDGET),
    op.i32Eqz,
    op.if, op.void,
    ...fold(),
    op.end,
    ...get(P), ...i32(32), op.i32Add, ...set(P),
    op.br, 0,
    op.end,
    op.end,
    ...fold(),
    ...i32(0), ...get(TOTAL), op.i32Store, ...memarg(2, 0),
    ...get(OUT), ...get(OUT0), op.i32Sub, ...i32(4), op.i32ShrU,
  ];
  return {
    params: [I32, I32, I32],
    results: [I32],
    locals: [
      [5, I32],
      [4 + CONSTANT_COUNT + 2, V128],
    ],
    body,
    exportName: 'scan',
  };
}
