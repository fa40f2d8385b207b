// The last-resort transport: run `crictl … -o json` on the node and parse its output into the same types
// as the gRPC path. Slower (one process per call, ~20–40 ms locally, ~250 ms over SSH) and it needs crictl
// installed, but it works where neither stream-local forwarding nor socat is available.

import { performance } from 'node:perf_hooks';
import type {
  CriContainer,
  CriContainerStats,
  CriContainerStatus,
  CriPodSandbox,
  CriPodSandboxStatus,
  CriRuntimeStatus,
  CriVersion,
} from '../../../core/parse/criTypes';
import {
  parseContainersList,
  parseContainerStatus,
  parseCrictlVersion,
  parseJsonText,
  parsePodSandboxStatus,
  parsePodsList,
  parseRuntimeStatus,
  parseStatsList,
} from '../../../core/parse/criJson';
import type { RemoteHost } from '../../remote';
import { CriError } from '../criError';
import { GRPC_CODE_NAMES, GrpcCode } from '../grpc/status';
import type { ContainerListFilter, CriCallOptions, CriCallTiming, CriReader } from '../reader';
import { DEFAULT_CRI_DEADLINE_MS } from '../reader';

/** crictl prints gRPC errors as `rpc error: code = DeadlineExceeded desc = …`. */
export function crictlErrorCode(stderr: string): { code: number; detail: string } | undefined {
  const match = /code = (\w+) desc = (.*)/.exec(stderr);
  if (!match?.[1]) return undefined;
  const snake = match[1].replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  const code = (GRPC_CODE_NAMES as readonly string[]).indexOf(snake);
  return code < 0 ? undefined : { code, detail: (match[2] ?? '').trim() };
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export class CrictlReader implements CriReader {
  private readonly listeners = new Set<(timing: CriCallTiming) => void>();
  private readonly defaultDeadlineMs: number;

  constructor(
    private readonly host: RemoteHost,
    /** e.g. unix:///run/containerd/containerd.sock */
    private readonly endpoint: string,
    private readonly useSudo: boolean,
    options: { defaultDeadlineMs?: number; crictlPath?: string } = {},
  ) {
    this.defaultDeadlineMs = options.defaultDeadlineMs ?? DEFAULT_CRI_DEADLINE_MS;
    this.crictl = options.crictlPath ?? 'crictl';
  }

  private readonly crictl: string;

  get description(): string {
    return `crictl ${this.endpoint} on ${this.host.description}${this.useSudo ? ' (sudo)' : ''}`;
  }

  onCall(listener: (timing: CriCallTiming) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.listeners.clear();
  }

  /** The exact argv for a crictl subcommand; exported through this method for tests. */
  argv(subcommand: readonly string[], deadlineMs: number): string[] {
    // crictl's own timeout a bit below ours, so that its clean DeadlineExceeded arrives before we kill it.
    const crictlTimeout = `${Math.max(1, Math.floor((deadlineMs * 0.9) / 1000))}s`;
    const base = [this.crictl, '--runtime-endpoint', this.endpoint, '--image-endpoint', this.endpoint, '-t', crictlTimeout, ...subcommand];
    return this.useSudo ? ['sudo', '-n', ...base] : base;
  }

  private async run(method: string, subcommand: string[], options: CriCallOptions = {}, id?: string): Promise<string> {
    if (id !== undefined && !ID.test(id)) throw new CriError(GrpcCode.INVALID_ARGUMENT, `refusing id ${JSON.stringify(id)}`, method, 0);
    const deadlineMs = options.deadlineMs ?? this.defaultDeadlineMs;
    const started = performance.now();
    const finish = (ok: boolean, error?: CriError): void => {
      const timing: CriCallTiming = { method, ...(id !== undefined ? { id } : {}), ms: performance.now() - started, ok };
      if (error) timing.error = { code: error.code, codeName: error.codeName, message: error.detail };
      for (const listener of this.listeners) listener(timing);
    };
    let result;
    try {
      result = await this.host.exec(this.argv(subcommand, deadlineMs), {
        timeoutMs: deadlineMs,
        maxOutputBytes: 64 * 1024 * 1024,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      const e = new CriError(GrpcCode.UNAVAILABLE, `cannot run crictl: ${(error as Error).message}`, method, performance.now() - started, { cause: error });
      finish(false, e);
      throw e;
    }
    const ms = performance.now() - started;
    let error: CriError | undefined;
    if (result.timedOut) error = new CriError(GrpcCode.DEADLINE_EXCEEDED, `crictl ${subcommand[0] ?? ''} did not finish within ${deadlineMs} ms`, method, ms);
    else if (result.exitCode === 127) error = new CriError(GrpcCode.UNAVAILABLE, `crictl is not installed on ${this.host.description}`, method, ms);
    else if (result.exitCode !== 0) {
      const parsed = crictlErrorCode(result.stderr);
      const stderr = result.stderr.trim().slice(0, 500);
      if (parsed) error = new CriError(parsed.code, parsed.detail, method, ms);
      else if (/sudo: a (terminal|password) is required/.test(stderr)) error = new CriError(GrpcCode.PERMISSION_DENIED, `sudo needs a password for crictl: ${stderr}`, method, ms);
      else if (/permission denied/i.test(stderr)) error = new CriError(GrpcCode.PERMISSION_DENIED, stderr, method, ms);
      else error = new CriError(GrpcCode.UNKNOWN, `crictl exited ${result.exitCode ?? result.signal ?? '?'}: ${stderr}`, method, ms);
    } else if (result.truncated) error = new CriError(GrpcCode.INTERNAL, 'crictl output exceeded 64 MiB', method, ms);
    if (error) {
      finish(false, error);
      throw error;
    }
    finish(true);
    return result.stdout;
  }

  private async json<T>(method: string, subcommand: string[], parse: (value: unknown) => T, options?: CriCallOptions, id?: string): Promise<T> {
    const text = await this.run(method, subcommand, options, id);
    try {
      return parse(parseJsonText(text, `crictl ${subcommand.join(' ')}`));
    } catch (error) {
      throw new CriError(GrpcCode.INTERNAL, (error as Error).message, method, 0, { cause: error });
    }
  }

  async version(options?: CriCallOptions): Promise<CriVersion> {
    const text = await this.run('Version', ['version'], options);
    try {
      return parseCrictlVersion(text);
    } catch (error) {
      throw new CriError(GrpcCode.INTERNAL, (error as Error).message, 'Version', 0, { cause: error });
    }
  }

  status(options?: CriCallOptions): Promise<CriRuntimeStatus> {
    return this.json('Status', ['info', '-o', 'json'], parseRuntimeStatus, options);
  }

  listPodSandbox(options?: CriCallOptions): Promise<CriPodSandbox[]> {
    return this.json('ListPodSandbox', ['pods', '-o', 'json'], parsePodsList, options);
  }

  listContainers(options: CriCallOptions & { filter?: ContainerListFilter } = {}): Promise<CriContainer[]> {
    const args = ['ps', '-a', '-o', 'json'];
    if (options.filter?.podSandboxId) {
      if (!ID.test(options.filter.podSandboxId)) throw new CriError(GrpcCode.INVALID_ARGUMENT, 'bad sandbox id', 'ListContainers', 0);
      args.push('--pod', options.filter.podSandboxId);
    }
    if (options.filter?.state) args.push('--state', options.filter.state.replace('CONTAINER_', '').toLowerCase());
    return this.json('ListContainers', args, parseContainersList, options);
  }

  podSandboxStatus(id: string, options?: CriCallOptions): Promise<CriPodSandboxStatus> {
    return this.json('PodSandboxStatus', ['inspectp', '-o', 'json', id], (v) => parsePodSandboxStatus(v), options, id);
  }

  containerStatus(id: string, options?: CriCallOptions): Promise<CriContainerStatus> {
    return this.json('ContainerStatus', ['inspect', '-o', 'json', id], (v) => parseContainerStatus(v), options, id);
  }

  listContainerStats(options?: CriCallOptions): Promise<CriContainerStats[]> {
    return this.json('ListContainerStats', ['stats', '-o', 'json'], parseStatsList, options);
  }
}
