// The few pieces of the WebAssembly binary format that the scan kernel needs, so the kernel can be
// emitted from TypeScript at start-up instead of shipping a prebuilt .wasm file (no build step, no new
// dependency, and the kernel's tables are generated from the same anchor list the JS path uses).
// Opcode values are from the WebAssembly core specification and its SIMD (128-bit) extension.

/** Unsigned LEB128, as the format writes every count, index and size. */
export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n !== 0) b |= 0x80;
    out.push(b);
  } while (n !== 0);
  return out;
}

/** Signed LEB128, for i32.const immediates. */
export function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    const done = (n === 0 && (b & 0x40) === 0) || (n === -1 && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

export const I32 = 0x7f;
export const V128 = 0x7b;

/** Core instructions (single byte opcodes). */
export const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Load: 0x28,
  i32Store: 0x36,
  i32Const: 0x41,
  i32Eqz: 0x45,
  i32GeU: 0x4f,
  i32Popcnt: 0x69,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32ShrU: 0x76,
  /** Block type of a block that leaves nothing on the stack. */
  void: 0x40,
} as const;

/** SIMD instructions: written as 0xfd followed by this number in LEB128. */
export const simd = {
  v128Load: 0x00,
  v128Store: 0x0b,
  v128Const: 0x0c,
  /** Takes 16 lane indices into the 32 bytes of its two operands as immediates. */
  i8x16Shuffle: 0x0d,
  i8x16Swizzle: 0x0e,
  /** Relaxed SIMD: as i8x16Swizzle for indices below 16 (any other index gives what the CPU gives). */
  i8x16Splat: 0x0f,
  i32x4ExtractLane: 0x1b,
  i8x16Eq: 0x23,
  i8x16Ne: 0x24,
  v128And: 0x4e,
  v128Or: 0x50,
  v128AnyTrue: 0x53,
  i8x16Bitmask: 0x64,
  i8x16ShrU: 0x6d,
  i8x16Sub: 0x71,
  i16x8ShrU: 0x8d,
  i16x8ExtaddPairwiseI8x16U: 0x7d,
  i32x4ExtaddPairwiseI16x8U: 0x7f,
} as const;

export function simdOp(code: number): number[] {
  return [0xfd, ...uleb(code)];
}

/** A memory access immediate: alignment (log2 of bytes) and a constant offset. */
export function memarg(alignLog2: number, offset: number): number[] {
  return [...uleb(alignLog2), ...uleb(offset)];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function name(s: string): number[] {
  const bytes = [...s].map((c) => c.charCodeAt(0));
  return [...uleb(bytes.length), ...bytes];
}

export interface WasmFunction {
  params: number[];
  results: number[];
  /** Local declarations beyond the parameters, as [count, type] runs. */
  locals: Array<[number, number]>;
  /** The body's instructions, without the final `end`. */
  body: number[];
  exportName: string;
}

/** A module with one memory (exported as "memory", `pages` of 64 KiB, fixed size) and the given functions. */
export function wasmModule(pages: number, fns: readonly WasmFunction[]): Uint8Array {
  const types = fns.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))]);
  const funcIndices = fns.map((_, i) => uleb(i));
  // Flag 1: a maximum follows, equal to the minimum, so the memory never grows and JS views of it stay valid.
  const memory = [[0x01, ...uleb(pages), ...uleb(pages)]];
  const exports = [[...name('memory'), 0x02, 0x00], ...fns.map((f, i) => [...name(f.exportName), 0x00, ...uleb(i)])];
  const bodies = fns.map((f) => {
    const body = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.body, op.end];
    return [...uleb(body.length), ...body];
  });
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec(types)),
    ...section(3, vec(funcIndices)),
    ...section(5, vec(memory)),
    ...section(7, vec(exports)),
    ...section(10, vec(bodies)),
  ]);
}
