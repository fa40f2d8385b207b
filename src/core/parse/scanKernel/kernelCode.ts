// The scan kernel as WebAssembly instructions. One pass over 16-byte blocks does two jobs that took ten
// native passes before (nine anchor keys and the newlines): it counts \n bytes, and flags the bytes
// where some fingerprint (fingerprints.ts) may end. Only flagged blocks leave the kernel, as 16-byte
// records, so the JS side touches ~0.5 % of the blocks of a kubelet journal.
//
// scan(in, len, out) → records; the newline total of in[0, len) is stored at address 0.
// A record: [block offset from in, candidate bit per byte, \n before the block, \n bit per byte]. A
// candidate bit marks the fingerprint's LAST byte: its first is two bytes back, possibly in the block
// before (simdLineScanner.ts verifies from there). A fingerprint holds no \n, so the line count at its
// last byte is the one at its first. The kernel reads up to KERNEL_READS_PAST bytes past `len` (the rest
// of a turn's blocks): the caller zeroes them (zero bytes match nothing).
//
// The fingerprint test is Teddy's: each block is loaded once and split into nibbles once, and its three
// table pairs give per-lane bucket bits for fingerprint bytes 0, 1 and 2. Byte 2's bits at a lane are
// ANDed with byte 1's one lane back and byte 0's two back, taken by a byte-concatenating shuffle
// (palignr) of the previous block's bits and this one's. The previous block's bits are kept across turns
// and start as zero (a wasm local does, each call): a window starts at a line, so no fingerprint
// reaches back before it. This replaced an unaligned load and nibble split per fingerprint byte (three
// loads, three splits a block; i8x16.swizzle itself stays the big cost, as V8 11.3 adds a saturating add
// before each pshufb). It measured about an eighth faster than the old kernel (bench/README.md,
// "Measurements behind the log reader").
//
// Newlines are counted in a byte accumulator (each lane gains one per \n, at most one per block) that
// is folded into the i32 total before it can wrap (255 blocks) and whenever a turn has records, so the
// common block costs a compare and a subtract, and keeps no \n vector alive across the fingerprint
// test (the x64 register file is full with the tables): a turn with records reloads its blocks for
// their \n bits. Blocks go BLOCKS_PER_TURN a turn, which shares the loop's branches and the fold budget
// between them.

import { FINGERPRINT_BYTES } from './fingerprints';
import { I32, V128, memarg, op, simd, simdOp, sleb, uleb, type WasmFunction } from './wasmBinary';

/**
 * 16-byte blocks a loop turn: 4 was a little faster than 2, and 3, 6 and 8 no better (bench/README.md):
 * fewer loop branches, but more vectors than x64 has registers.
 */
const BLOCKS_PER_TURN = 4;
/** The most scanKernel() takes (tests vary it); locals are laid out for this many. */
const BLOCKS_MAX = 4;

/** Bytes past `len` the kernel may read: the rest of a turn's blocks, at most. */
export const KERNEL_READS_PAST = 16 * (BLOCKS_MAX - 1) + 15;

// Parameters and locals, by index.
const IN = 0;
const LEN = 1;
const OUT = 2;
const P = 3;
const END = 4;
const OUT0 = 5;
const TOTAL = 6;
const BUDGET = 7;
const BEFORE = 8;
/** Per block b of a turn, in the record branch: its \n bits. */
const NLB = (b: number): number => 9 + b;
const I32_LOCALS = 6 + BLOCKS_MAX;
const ACC = 3 + I32_LOCALS;
const T = ACC + 1;
const X = ACC + 2;
const LO = ACC + 3;
const HI = ACC + 4;
/** The tables and masks, loaded once into these locals (see CONSTANTS_AT). */
const C0 = ACC + 5;
const CONSTANT_COUNT = 2 * FINGERPRINT_BYTES + 2;
const NIBBLE_MASK = C0 + 2 * FINGERPRINT_BYTES;
const NEWLINES = NIBBLE_MASK + 1;
/** Per block b of a turn: its candidate lanes, its bucket bits for fingerprint bytes 0 and 1. */
const PER_BLOCK = C0 + CONSTANT_COUNT;
const M = (b: number): number => PER_BLOCK + 3 * b;
const R0 = (b: number): number => PER_BLOCK + 3 * b + 1;
const R1 = (b: number): number => PER_BLOCK + 3 * b + 2;

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

const get = (i: number): number[] => [op.localGet, ...uleb(i)];
const set = (i: number): number[] => [op.localSet, ...uleb(i)];
const tee = (i: number): number[] => [op.localTee, ...uleb(i)];
const i32 = (n: number): number[] => [op.i32Const, ...sleb(n)];
const v128 = (bytes: ArrayLike<number>): number[] => [...simdOp(simd.v128Const), ...Array.from(bytes)];
const splat16 = (b: number): number[] => v128(new Array<number>(16).fill(b));

/** acc's lanes added into total; acc and the budget start over. */
function fold(turns: number): number[] {
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
    ...i32(turns),
    ...set(BUDGET),
  ];
}

/** Bucket bits for fingerprint byte k of the block whose nibbles are in LO and HI. */
function lookup(k: number): number[] {
  const code = simdOp(simd.i8x16Swizzle);
  return [...get(C0 + 2 * k), ...get(LO), ...code, ...get(C0 + 2 * k + 1), ...get(HI), ...code, ...simdOp(simd.v128And)];
}

/** Bytes 16 - back .. 31 - back of `before` then `after`: `after` moved up `back` lanes, `before`'s last lanes filling in. */
function shiftIn(before: number, after: number, back: number): number[] {
  const lanes = Array.from({ length: 16 }, (_, i) => 16 - back + i);
  return [...get(before), ...get(after), ...simdOp(simd.i8x16Shuffle), ...lanes];
}

function storeI32(offset: number, value: number[]): number[] {
  return [...get(OUT), ...value, op.i32Store, ...memarg(2, offset)];
}

/**
 * The block at P + offset: its \n lanes taken off ACC, and into local m the lanes where a fingerprint
 * ends (written for FINGERPRINT_BYTES = 3: bytes 0 and 1 are looked up two and one lanes back, which
 * reaches into the previous block's prev0/prev1); its own bits for bytes 0 and 1 go to r0/r1 for the
 * next block.
 */
function block(offset: number, m: number, prev0: number, prev1: number, r0: number, r1: number): number[] {
  return [
    ...get(ACC),
    ...get(P), ...simdOp(simd.v128Load), ...memarg(0, offset), ...tee(X),
    ...get(NEWLINES), ...simdOp(simd.i8x16Eq), ...simdOp(simd.i8x16Sub), ...set(ACC),
    ...get(X), ...get(NIBBLE_MASK), ...simdOp(simd.v128And), ...set(LO),
    ...get(X), ...i32(4), ...simdOp(simd.i16x8ShrU), ...get(NIBBLE_MASK), ...simdOp(simd.v128And), ...set(HI),
    ...lookup(2),
    ...lookup(1), ...set(r1),
    ...shiftIn(prev1, r1, 1), ...simdOp(simd.v128And),
    ...lookup(0), ...set(r0),
    ...shiftIn(prev0, r0, 2), ...simdOp(simd.v128And),
    ...set(m),
  ];
}

/** The \n bits of block P + offset. */
const newlineBits = (offset: number): number[] => [
  ...get(P), ...simdOp(simd.v128Load), ...memarg(0, offset), ...get(NEWLINES), ...simdOp(simd.i8x16Eq), ...simdOp(simd.i8x16Bitmask),
];

/**
 * The records of a turn with candidates. ACC already holds the whole turn's newlines, so after the
 * fold the count before each block is TOTAL less the \n bits of it and the blocks after it.
 */
function records(perTurn: number, turns: number): number[] {
  const out = [...fold(turns), ...get(TOTAL)];
  for (let b = 0; b < perTurn; b++) out.push(...newlineBits(16 * b), ...tee(NLB(b)), op.i32Popcnt, op.i32Sub);
  out.push(...set(BEFORE));
  for (let b = 0; b < perTurn; b++) {
    out.push(
      ...get(M(b)), ...simdOp(simd.v128AnyTrue),
      op.if, op.void,
      ...storeI32(0, [...get(P), ...get(IN), op.i32Sub, ...i32(16 * b), op.i32Add]),
      ...storeI32(4, [...get(M(b)), ...splat16(0), ...simdOp(simd.i8x16Ne), ...simdOp(simd.i8x16Bitmask)]),
      ...storeI32(8, get(BEFORE)),
      ...storeI32(12, get(NLB(b))),
      ...get(OUT), ...i32(16), op.i32Add, ...set(OUT),
      op.end,
      ...get(BEFORE), ...get(NLB(b)), op.i32Popcnt, op.i32Add, ...set(BEFORE),
    );
  }
  return out;
}

/**
 * The kernel, taking `perTurn` blocks a loop turn (2 to BLOCKS_MAX; tests try each). It uses the plain
 * i8x16.swizzle only: the relaxed one needed a process-wide V8 flag on Node 20, which no command sets.
 */
export function scanKernel(perTurn = BLOCKS_PER_TURN): WasmFunction {
  // One block a turn would write its bits for the next block over the previous block's before reading them.
  if (perTurn < 2 || perTurn > BLOCKS_MAX) throw new Error(`scanKernel: ${perTurn} blocks a turn`);
  // A lane of the byte accumulator gains at most one a block: folded every this many turns, before 255.
  const turns = Math.floor(255 / perTurn);
  const loadConstants: number[] = [];
  for (let c = 0; c < CONSTANT_COUNT; c++) loadConstants.push(...i32(0), ...simdOp(simd.v128Load), ...memarg(0, CONSTANTS_AT + 16 * c), ...set(C0 + c));
  const blocks: number[] = [];
  for (let b = 0; b < perTurn; b++) {
    const before = (b + perTurn - 1) % perTurn;
    blocks.push(...block(16 * b, M(b), R0(before), R1(before), R0(b), R1(b)));
  }
  const anyCandidates: number[] = get(M(0));
  for (let b = 1; b < perTurn; b++) anyCandidates.push(...get(M(b)), ...simdOp(simd.v128Or));
  const body = [
    ...loadConstants,
    ...get(IN), ...get(LEN), op.i32Add, ...set(END),
    ...get(IN), ...set(P),
    ...get(OUT), ...set(OUT0),
    ...i32(turns), ...set(BUDGET),
    op.block, op.void,
    op.loop, op.void,
    ...get(P), ...get(END), op.i32GeU, op.brIf, 1,
    ...blocks,
    ...anyCandidates, ...simdOp(simd.v128AnyTrue),
    op.if, op.void,
    ...records(perTurn, turns),
    op.end,
    ...get(BUDGET), ...i32(1), op.i32Sub, ...tee(BUDGET),
    op.i32Eqz,
    op.if, op.void,
    ...fold(turns),
    op.end,
    ...get(P), ...i32(16 * perTurn), op.i32Add, ...set(P),
    op.br, 0,
    op.end,
    op.end,
    ...fold(turns),
    ...i32(0), ...get(TOTAL), op.i32Store, ...memarg(2, 0),
    ...get(OUT), ...get(OUT0), op.i32Sub, ...i32(4), op.i32ShrU,
  ];
  return {
    params: [I32, I32, I32],
    results: [I32],
    locals: [
      [I32_LOCALS, I32],
      [PER_BLOCK + 3 * perTurn - ACC, V128],
    ],
    body,
    exportName: 'scan',
  };
}
