// What node access needs from "a machine we can reach": run fixed commands and open byte streams.
// Implemented by an SSH connection (src/infra/ssh) and by the local machine (tests, or running on the node).
// Commands are argv arrays: the implementation quotes them, so no caller ever builds a shell string.

import type { Duplex } from 'node:stream';

export interface ExecOptions {
  /** Hard deadline for the whole command, including connection setup. */
  timeoutMs: number;
  /** Output beyond this is dropped and `truncated` is set (default 1 MiB per stream). */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  stdin?: string;
}

export interface ExecResult {
  /** null when the command was killed (deadline, signal) before it exited. */
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

export interface RemoteHost {
  /** For logs and messages, e.g. "plegtest@127.0.0.1:22022". */
  readonly description: string;
  exec(argv: readonly string[], options: ExecOptions): Promise<ExecResult>;
  /** A byte stream to a process's stdin/stdout, e.g. `sudo -n socat STDIO UNIX-CONNECT:<sock>`. */
  openExecStream(argv: readonly string[], signal?: AbortSignal): Promise<Duplex>;
  /** A byte stream to a unix socket on the host (OpenSSH direct-streamlocal over SSH). */
  openUnixSocket(path: string, signal?: AbortSignal): Promise<Duplex>;
}
