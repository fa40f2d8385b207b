// Reading a command's input file (or `-` for standard input) with errors that name the file and the cause.

import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { CliIo } from './io';

export interface InputText {
  text: string;
  /** How to name the input in messages: the path as given, or "standard input". */
  label: string;
}

/**
 * `fail` turns a reason such as `trace.json: no such file` into the command's own error type, so each
 * command keeps its exit code and message prefix.
 */
export async function readInput(source: string, io: CliIo, fail: (reason: string) => Error): Promise<InputText> {
  if (source === '-') return { text: await io.readStdin(), label: 'standard input' };
  const path = isAbsolute(source) ? source : resolve(io.cwd, source);
  try {
    return { text: await readFile(path, { encoding: 'utf8', signal: io.signal }), label: source };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw fail(`${source}: no such file`);
    if (code === 'EISDIR') throw fail(`${source}: is a directory, expected a JSON file`);
    if (code === 'EACCES') throw fail(`${source}: permission denied`);
    throw e;
  }
}
