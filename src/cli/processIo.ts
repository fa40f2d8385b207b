// The real CliIo: process streams, stdin, and an abort signal raised by SIGINT/SIGTERM. A second signal
// exits at once, for the case where a command does not honour the first.

import type { CliIo } from './io';

export interface ProcessIo {
  io: CliIo;
  /** Removes the signal handlers (the stdout EPIPE handler stays: writes may still be flushing). */
  dispose(): void;
}

export function createProcessIo(): ProcessIo {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    controller.abort(new Error(`interrupted by ${signal}`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `pleg-doctor nodes | head -1`: the reader went away; stop quietly instead of crashing on EPIPE.
  const onStdoutError = (e: NodeJS.ErrnoException): void => {
    if (e.code === 'EPIPE') {
      controller.abort(new Error('standard output closed'));
      process.exit(process.exitCode ?? 0);
    }
    process.stderr.write(`pleg-doctor: cannot write to standard output: ${e.message}\n`);
    process.exit(1);
  };
  process.stdout.on('error', onStdoutError);

  const readStdin = (): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const stdin = process.stdin;
      const cleanup = (): void => {
        stdin.off('data', onData);
        stdin.off('end', onEnd);
        stdin.off('error', onError);
        controller.signal.removeEventListener('abort', onAbort);
      };
      const onData = (c: Buffer | string): void => {
        chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
      };
      const onEnd = (): void => {
        cleanup();
        resolve(Buffer.concat(chunks).toString('utf8'));
      };
      const onError = (e: Error): void => {
        cleanup();
        reject(new Error(`cannot read standard input: ${e.message}`));
      };
      const onAbort = (): void => {
        cleanup();
        stdin.destroy();
        reject(new Error('interrupted while reading standard input'));
      };
      if (controller.signal.aborted) {
        onAbort();
        return;
      }
      stdin.on('data', onData);
      stdin.once('end', onEnd);
      stdin.once('error', onError);
      controller.signal.addEventListener('abort', onAbort, { once: true });
    });

  return {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      readStdin,
      signal: controller.signal,
      env: process.env,
      cwd: process.cwd(),
    },
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
