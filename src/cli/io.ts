// What a CLI subcommand gets from the process, so that tests can run commands in-process.

export interface CliIo {
  /** Strings, or UTF-8 bytes (the logs command's batches). */
  /** `isTTY` true: a person reads it (a table or plain text by default); otherwise a program does. */
  stdout: { write(chunk: string | Uint8Array): unknown; readonly isTTY?: boolean };
  stderr: { write(chunk: string): unknown };
  /** Reads all of standard input (for `-` file arguments). */
  readStdin(): Promise<string>;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** A subcommand: parses its own argv (after the subcommand name) and returns the exit code. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

/**
 * Marks a CliUsageError by a registry symbol rather than by its class: the commands that reach a cluster
 * run from dist/cliRemote.js, a bundle with its own copy of this module, so an error they throw is not an
 * `instanceof` the class dist/cli.js's dispatcher holds (it then exited 1 with the command named twice).
 */
const USAGE_ERROR = Symbol.for('pleg-doctor.CliUsageError');

/**
 * A usage or input error; the message starts with the command (`nodes: unknown option "--x"`). The
 * dispatcher prints `pleg-doctor: <message>` and exits 2. Recognise one with isCliUsageError.
 */
export class CliUsageError extends Error {
  readonly [USAGE_ERROR] = true;

  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}

/** True for a CliUsageError from any bundle (see USAGE_ERROR). */
export function isCliUsageError(e: unknown): e is CliUsageError {
  return typeof e === 'object' && e !== null && (e as { [USAGE_ERROR]?: unknown })[USAGE_ERROR] === true;
}
