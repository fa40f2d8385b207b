// The CLI turns WebAssembly relaxed SIMD on for the log scan kernel, through V8's flag only where the
// runtime needs it: Node 24's V8 has no such flag and prints "Error: unrecognized flag" when it is set.
import type * as v8Module from 'node:v8';
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it, vi } from 'vitest';
import { RELAXED_SIMD_PROBE, enableRelaxedSimd, relaxedSimdValid, wasmValid } from '../../../src/cli/relaxedSimd';

// The real setter, watched: whatever enableRelaxedSimd sets still reaches V8.
vi.mock('node:v8', async (importOriginal) => {
  const v8 = await importOriginal<typeof v8Module>();
  return { ...v8, setFlagsFromString: vi.fn(v8.setFlagsFromString) };
});

/** The probe with the plain swizzle (0xfd 14, one byte shorter) in place of the relaxed one (0xfd 256). */
function plainTwin(): Uint8Array {
  const bytes = [...RELAXED_SIMD_PROBE];
  const at = bytes.indexOf(0xfd);
  bytes.splice(at + 1, 2, 0x0e);
  // The code section's size and the body's size shrink by the byte taken out.
  const code = bytes.indexOf(0x0a, 21);
  bytes[code + 1] = (bytes[code + 1] as number) - 1;
  bytes[code + 3] = (bytes[code + 3] as number) - 1;
  return Uint8Array.from(bytes);
}

describe('enableRelaxedSimd', () => {
  it('the probe is a well-formed module but for its relaxed instruction: its plain-swizzle twin validates without any flag', () => {
    expect(wasmValid(plainTwin())).toBe(true);
    expect(plainTwin().length).toBe(RELAXED_SIMD_PROBE.length - 1);
  });

  it('leaves V8 flags alone where relaxed SIMD already validates', () => {
    const setFlags = vi.fn();
    enableRelaxedSimd(setFlags, () => true);
    expect(setFlags).not.toHaveBeenCalled();
  });

  it('sets the flag where it does not', () => {
    const setFlags = vi.fn();
    enableRelaxedSimd(setFlags, () => false);
    expect(setFlags).toHaveBeenCalledExactlyOnceWith('--experimental-wasm-relaxed-simd');
  });

  it('on this runtime, relaxed SIMD validates afterwards, and a second call sets no V8 flag', () => {
    enableRelaxedSimd();
    expect(relaxedSimdValid()).toBe(true);
    vi.mocked(setFlagsFromString).mockClear();
    enableRelaxedSimd();
    expect(setFlagsFromString).not.toHaveBeenCalled();
  });
});
