// What a CLI subcommand gets from the process, so that tests can run commands in-process.

export interface CliIo {
  /** Strings, or UTF-8 bytes (the logs command's batches). */
  stdout: { write(chunk: string | Uint8Array): unknown };
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

/** A usage or input error: main prints `pleg-doctor: <message>` and exits 2. */
export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CliUsageError';
  }
}
