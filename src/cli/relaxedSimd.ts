// Node 20's V8 (11.3) has WebAssembly relaxed SIMD behind a flag; later V8s ship it on, and Node 24's
// V8 no longer knows the flag: setting it there prints "Error: unrecognized flag" on standard error
// (V8 writes it itself, it is not an exception). The log scan kernel (src/core/parse/scanKernel) uses
// the relaxed swizzle when the runtime accepts it, about a quarter faster than the plain one on the 1 GB
// benchmark journal. So the flag is set only where a module using the relaxed swizzle does not validate
// without it. The flag only makes more modules valid: it changes nothing for code already running, and
// the kernel validates its relaxed form before using it, so a runtime that ignores the flag still gets
// the plain kernel.

import { setFlagsFromString } from 'node:v8';

/** (func (param v128 v128) (result v128) local.get 0 local.get 1 i8x16.relaxed_swizzle): valid only with relaxed SIMD. */
export const RELAXED_SIMD_PROBE = Uint8Array.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x07, 0x01, 0x60, 0x02, 0x7b, 0x7b, 0x01, 0x7b, // type section: (v128, v128) -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x0b, 0x01, 0x09, 0x00, 0x20, 0x00, 0x20, 0x01, 0xfd, 0x80, 0x02, 0x0b, // code: relaxed swizzle (0xfd 256)
]);

// The one WebAssembly call used here (the project's TypeScript libs do not declare it).
declare const WebAssembly: { validate(bytes: Uint8Array): boolean } | undefined;

/** Whether `bytes` is a module this runtime accepts; false where there is no WebAssembly. */
export function wasmValid(bytes: Uint8Array): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(bytes);
}

export function relaxedSimdValid(): boolean {
  return wasmValid(RELAXED_SIMD_PROBE);
}

/**
 * Lets WebAssembly modules compiled after this use relaxed SIMD (process-wide: worker threads too),
 * setting V8's flag only when the runtime needs it. The parameters are for tests.
 */
export function enableRelaxedSimd(setFlags: (flags: string) => void = setFlagsFromString, valid: () => boolean = relaxedSimdValid): void {
  if (typeof WebAssembly !== 'object' || valid()) return;
  setFlags('--experimental-wasm-relaxed-simd');
}
