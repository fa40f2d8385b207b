// An in-memory CliIo for running commands in-process.
import type { CliIo } from '../../src/cli/io';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
  controller: AbortController;
}

/** `tty`: standard output behaves as a terminal (a person reads it), as `process.stdout.isTTY` says. */
export function memoryIo(stdin = '', cwd = process.cwd(), tty = false): MemoryIo {
  let out = '';
  let err = '';
  const controller = new AbortController();
  return {
    stdout: { write: (c: string | Uint8Array) => (out += typeof c === 'string' ? c : Buffer.from(c).toString('utf8')), isTTY: tty },
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
