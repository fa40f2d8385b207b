// A RemoteHost that answers exec calls from a script, for testing command construction and parsing
// without processes. Unknown commands fail loudly (exit 127) so a wrong argv cannot pass silently.

import type { Duplex } from 'node:stream';
import type { ExecOptions, ExecResult, RemoteHost } from '../../src/infra/remote';

export type Reply = Partial<Pick<ExecResult, 'exitCode' | 'stdout' | 'stderr' | 'timedOut'>>;

export class FakeHost implements RemoteHost {
  readonly description = 'fake-node';
  readonly calls: { argv: string[]; options: ExecOptions }[] = [];

  constructor(private readonly answer: (argv: readonly string[]) => Reply | undefined) {}

  exec(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    this.calls.push({ argv: [...argv], options });
    const reply = this.answer(argv) ?? { exitCode: 127, stderr: `${argv[0] ?? ''}: command not found` };
    return Promise.resolve({
      exitCode: reply.timedOut ? null : (reply.exitCode ?? 0),
      stdout: reply.stdout ?? '',
      stderr: reply.stderr ?? '',
      truncated: false,
      timedOut: reply.timedOut ?? false,
      durationMs: 1,
    });
  }

  openExecStream(): Promise<Duplex> {
    return Promise.reject(new Error('open failed'));
  }

  openUnixSocket(): Promise<Duplex> {
    return Promise.reject(new Error('(SSH) Channel open failure: open failed'));
  }
}
