// An in-memory CliIo for running commands in-process.
import type { CliIo } from '../../../src/cli/io';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
  controller: AbortController;
}

export function memoryIo(stdin = '', cwd = process.cwd()): MemoryIo {
  let out = '';
  let err = '';
  const controller = new AbortController();
  return {
    stdout: { write: (c: string | Uint8Array) => (out += typeof c === 'string' ? c : Buffer.from(c).toString('utf8')) },
    stderr: { write: (c: string) => (err += c) },
    readStdin: () => Promise.resolve(stdin),
    signal: controller.signal,
    env: {},
    cwd,
    out: () => out,
    err: () => err,
    controller,
  };
}
