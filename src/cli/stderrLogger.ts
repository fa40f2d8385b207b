// The CLI's logger: warnings and errors on stderr as `pleg-doctor: <command>: level: message`; with
// `verbose`, info lines too (each source's outcome during `diagnose`).

import type { Logger } from '../core/util/logger';
import type { CliIo } from './io';

export function stderrLogger(io: CliIo, command: string, verbose = false): Logger {
  const line = (level: string, message: string | Error): void => {
    io.stderr.write(`pleg-doctor: ${command}: ${level}: ${message instanceof Error ? message.message : message}\n`);
  };
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: (m) => {
      if (verbose) line('info', m);
    },
    warn: (m) => line('warning', m),
    error: (m) => line('error', m),
  };
}
