// RemoteHost for the machine we run on: argv straight to child_process (no shell, so no quoting issues),
// the product's connectUnixSocket for unix sockets. Lets the CRI client and transports be tested (and
// benchmarked) against the node stack's containerd without SSH in between. The product reaches a node
// over SSH, or runs on it (`timeline --cri-socket`, transports/localSocket.ts).

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { Duplex as DuplexStream, type Duplex, type Readable, type Writable } from 'node:stream';
import { CappedOutput } from '../../src/infra/cappedOutput';
import { connectUnixSocket } from '../../src/infra/cri/transports/localSocket';
import type { ExecOptions, ExecResult, RemoteHost } from '../../src/infra/remote';

const DEFAULT_MAX_OUTPUT = 1024 * 1024;

export interface LocalHostOptions {
  /** Run commands (and socket connects, through socat) as this local user instead of ourselves: tests use
   * it to see the node as the non-root SSH user would. Needs root. */
  runAs?: { uid: number; gid: number; name: string };
}

export class LocalHost implements RemoteHost {
  readonly description: string;

  constructor(private readonly options: LocalHostOptions = {}) {
    this.description = options.runAs ? `local as ${options.runAs.name}` : 'local';
  }

  private spawnOptions(): { uid?: number; gid?: number } {
    const runAs = this.options.runAs;
    return runAs ? { uid: runAs.uid, gid: runAs.gid } : {};
  }

  exec(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    const [file, ...args] = argv;
    if (file === undefined) return Promise.reject(new Error('exec: empty argv'));
    const started = performance.now();
    const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
    return new Promise<ExecResult>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new Error(`exec ${file}: aborted before start`));
        return;
      }
      const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, ...this.spawnOptions() });
      const out = new CappedOutput(maxOutput);
      const err = new CappedOutput(maxOutput);
      let timedOut = false;
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      const kill = (): void => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      const onAbort = (): void => kill();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (error) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        reject(new Error(`exec ${file}: ${error.message}`, { cause: error }));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve({
          exitCode: timedOut || options.signal?.aborted ? null : code,
          ...(signal ? { signal } : {}),
          stdout: out.text(),
          stderr: err.text(),
          truncated: out.truncated || err.truncated,
          timedOut,
          durationMs: performance.now() - started,
        });
      });
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin ?? '');
    });
  }

  openExecStream(argv: readonly string[], signal?: AbortSignal): Promise<Duplex> {
    const [file, ...args] = argv;
    if (file === undefined) return Promise.reject(new Error('openExecStream: empty argv'));
    return new Promise<Duplex>((resolve, reject) => {
      const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], shell: false, ...this.spawnOptions() });
      const stderr: Buffer[] = [];
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      const onAbort = (): void => {
        child.kill('SIGKILL');
        reject(new Error(`openExecStream ${file}: aborted`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      child.once('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        reject(new Error(`openExecStream ${file}: ${error.message}`, { cause: error }));
      });
      child.once('spawn', () => {
        signal?.removeEventListener('abort', onAbort);
        const duplex = new ChildDuplex(child.stdout, child.stdin, () => child.kill('SIGKILL'), () => Buffer.concat(stderr).toString('utf8'));
        // A relay that dies (socat: permission denied, sudo: password required) should say why.
        child.once('close', (code, sig) => {
          const stderrText = Buffer.concat(stderr).toString('utf8').trim();
          duplex.exited(code === 0 ? undefined : new Error(`${file} exited ${code ?? sig ?? '?'}${stderrText ? `: ${stderrText.slice(0, 300)}` : ''}`));
        });
        resolve(duplex);
      });
    });
  }

  openUnixSocket(path: string, signal?: AbortSignal): Promise<Duplex> {
    // Another user's connect needs another process: socat runs with that user's credentials.
    if (this.options.runAs) return this.openExecStream(['socat', 'STDIO', `UNIX-CONNECT:${path}`], signal);
    return connectUnixSocket(path, signal);
  }
}

/** A child process's stdout+stdin as one Duplex; destroying it kills the process. */
class ChildDuplex extends DuplexStream {
  constructor(
    private readonly output: Readable,
    private readonly input: Writable,
    private readonly killChild: () => void,
    readonly stderrText: () => string,
  ) {
    super();
    output.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) output.pause();
    });
    // End of output is signalled from exited(), once the exit status (and stderr) is known.
    // EPIPE means the process is going away; its exit (with stderr) is the better explanation, so wait
    // briefly for it before failing with the raw write error.
    input.on('error', (error) => {
      setTimeout(() => {
        if (!this.destroyed) this.destroy(error);
      }, 1_000).unref();
    });
  }

  /** Called when the process has exited: a clean exit ends the stream, a failure destroys it with the reason. */
  exited(failure: Error | undefined): void {
    if (this.destroyed) return;
    if (failure) this.destroy(failure);
    else this.push(null);
  }

  override _read(): void {
    this.output.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Write errors are reported through the input's 'error' handler (see the constructor).
    this.input.write(chunk, () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.input.end(callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.killChild();
    callback(error);
  }
}
