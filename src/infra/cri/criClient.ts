// The read-only CRI RuntimeService client over an H2Channel: encode, call with a deadline, decode, parse
// into the normalized types, and report each call's latency. Mutating RPCs are deliberately absent.

import { performance } from 'node:perf_hooks';
import type {
  CriContainer,
  CriContainerStats,
  CriContainerStatus,
  CriPodSandbox,
  CriPodSandboxStatus,
  CriRuntimeStatus,
  CriVersion,
} from '../../core/parse/criTypes';
import {
  parseContainersList,
  parseContainerStatus,
  parsePodSandboxStatus,
  parsePodsList,
  parseRuntimeStatus,
  parseStatsList,
  parseVersion,
} from '../../core/parse/criJson';
import { CriError } from './criError';
import { GrpcCode } from './grpc/status';
import type { H2Channel } from './grpc/h2Channel';
import { ProtoCodec, RUNTIME_SERVICE } from './protoCodec';
import { decodeContainerEvent } from './containerEvent';
import type { ContainerEventsOptions, ContainerEventsStream, ContainerListFilter, CriCallOptions, CriCallTiming, CriReader } from './reader';
import { DEFAULT_CRI_DEADLINE_MS } from './reader';

export interface GrpcCriClientOptions {
  defaultDeadlineMs?: number;
  codec?: ProtoCodec;
}

/**
 * The CRI before v1 (kubelet ≤ 1.22, containerd < 1.5, dockershim ≤ 1.22): the same messages and field
 * numbers as runtime.v1 (v1 was introduced in 1.23 as a copy of it, KEP-2040), under another service name.
 */
export const RUNTIME_SERVICE_V1ALPHA2 = 'runtime.v1alpha2.RuntimeService';

/** grpc-go's answer for a service the server does not register (`unknown service runtime.v1.RuntimeService`). */
const UNKNOWN_SERVICE = /unknown service/iu;

export class GrpcCriClient implements CriReader {
  readonly codec: ProtoCodec;
  /**
   * The service this runtime answers: runtime.v1 until a call is refused as an unknown service, then
   * v1alpha2 for good, as the kubelet 1.23+ and crictl 1.24+ fall back. A 1.22 dockershim serves v1alpha2 only.
   */
  private service: string = RUNTIME_SERVICE;
  private readonly defaultDeadlineMs: number;
  private readonly listeners = new Set<(timing: CriCallTiming) => void>();

  constructor(
    readonly channel: H2Channel,
    options: GrpcCriClientOptions = {},
  ) {
    this.codec = options.codec ?? ProtoCodec.create();
    this.defaultDeadlineMs = options.defaultDeadlineMs ?? DEFAULT_CRI_DEADLINE_MS;
  }

  get description(): string {
    return `CRI gRPC ${this.channel.target}`;
  }

  onCall(listener: (timing: CriCallTiming) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.channel.close();
  }

  /** One unary call by method name; exposed for test support (mutations) and diagnostics. */
  async call(method: string, request: Record<string, unknown>, options: CriCallOptions = {}, id?: string): Promise<Record<string, unknown>> {
    const started = performance.now();
    const { requestType, responseType } = this.codec.method(method);
    try {
      const bytes = this.codec.encode(requestType, request);
      const deadlineMs = options.deadlineMs ?? this.defaultDeadlineMs;
      let sentTo = this.service;
      const send = (): Promise<Uint8Array> => {
        sentTo = this.service;
        return this.channel.unary(method, this.pathOf(method), bytes, {
          // A retry on v1alpha2 gets what is left of the caller's deadline, not a fresh one.
          deadlineMs: Math.max(1, deadlineMs - (performance.now() - started)),
          ...(options.signal ? { signal: options.signal } : {}),
        });
      };
      let reply: Uint8Array;
      try {
        reply = await send();
      } catch (error) {
        // Calls made in parallel before the first refusal came back were all sent to v1: each retries.
        if (!(error instanceof CriError) || error.code !== GrpcCode.UNIMPLEMENTED || sentTo !== RUNTIME_SERVICE || !UNKNOWN_SERVICE.test(error.detail)) throw error;
        this.service = RUNTIME_SERVICE_V1ALPHA2;
        reply = await send();
      }
      let decoded: Record<string, unknown>;
      try {
        decoded = this.codec.decode(responseType, reply);
      } catch (error) {
        throw new CriError(GrpcCode.INTERNAL, `cannot decode ${responseType}: ${(error as Error).message}`, method, performance.now() - started, { cause: error });
      }
      this.emit({ method, ...(id !== undefined ? { id } : {}), ms: performance.now() - started, ok: true });
      return decoded;
    } catch (error) {
      const criError = error instanceof CriError ? error : new CriError(GrpcCode.INTERNAL, (error as Error).message, method, performance.now() - started, { cause: error });
      this.emit({
        method,
        ...(id !== undefined ? { id } : {}),
        ms: performance.now() - started,
        ok: false,
        error: { code: criError.code, codeName: criError.codeName, message: criError.detail },
      });
      throw criError;
    }
  }

  async version(options?: CriCallOptions): Promise<CriVersion> {
    return parseVersion(await this.call('Version', { version: '0.1.0' }, options));
  }

  async status(options: CriCallOptions & { verbose?: boolean } = {}): Promise<CriRuntimeStatus> {
    return parseRuntimeStatus(await this.call('Status', { verbose: options.verbose ?? false }, options));
  }

  async listPodSandbox(options?: CriCallOptions): Promise<CriPodSandbox[]> {
    return parsePodsList(await this.call('ListPodSandbox', {}, options));
  }

  async listContainers(options: CriCallOptions & { filter?: ContainerListFilter } = {}): Promise<CriContainer[]> {
    const filter: Record<string, unknown> = {};
    if (options.filter?.podSandboxId) filter['podSandboxId'] = options.filter.podSandboxId;
    if (options.filter?.state) filter['state'] = { state: options.filter.state };
    const request = Object.keys(filter).length > 0 ? { filter } : {};
    return parseContainersList(await this.call('ListContainers', request, options));
  }

  async podSandboxStatus(id: string, options: CriCallOptions & { verbose?: boolean } = {}): Promise<CriPodSandboxStatus> {
    const reply = await this.call('PodSandboxStatus', { podSandboxId: id, verbose: options.verbose ?? false }, options, id);
    return parsePodSandboxStatus(reply, 'PodSandboxStatusResponse');
  }

  async containerStatus(id: string, options: CriCallOptions & { verbose?: boolean } = {}): Promise<CriContainerStatus> {
    const reply = await this.call('ContainerStatus', { containerId: id, verbose: options.verbose ?? false }, options, id);
    return parseContainerStatus(reply, 'ContainerStatusResponse');
  }

  async listContainerStats(options?: CriCallOptions): Promise<CriContainerStats[]> {
    return parseStatsList(await this.call('ListContainerStats', {}, options));
  }

  /**
   * GetContainerEvents, as the kubelet's EventedPLEG opens it: no deadline once open. A message that does
   * not decode ends the stream with INTERNAL, as a failed Recv ends the kubelet's.
   */
  containerEvents(options: ContainerEventsOptions): ContainerEventsStream {
    const method = 'GetContainerEvents';
    const { path, requestType } = this.codec.method(method);
    const started = performance.now();
    const stop = new AbortController();
    const onCallerAbort = (): void => stop.abort(new CriError(GrpcCode.CANCELLED, 'cancelled by caller', method, performance.now() - started));
    if (options.signal.aborted) onCallerAbort();
    else options.signal.addEventListener('abort', onCallerAbort, { once: true });
    const call = this.channel.serverStream(method, path, this.codec.encode(requestType, {}), {
      headersDeadlineMs: options.openDeadlineMs,
      signal: stop.signal,
      ...(options.onOpen ? { onOpen: options.onOpen } : {}),
      onMessage: (bytes) => {
        if (stop.signal.aborted) return;
        try {
          options.onEvent(decodeContainerEvent(this.codec, bytes));
        } catch (error) {
          stop.abort(new CriError(GrpcCode.INTERNAL, (error as Error).message, method, performance.now() - started, { cause: error }));
        }
      },
    });
    const done = call.done.finally(() => options.signal.removeEventListener('abort', onCallerAbort));
    return { done, pause: () => call.pause(), resume: () => call.resume() };
  }

  /** The CRI service this runtime answers (runtime.v1, or v1alpha2 once v1 was refused). */
  get apiService(): string {
    return this.service;
  }

  private pathOf(method: string): string {
    return this.codec.method(method).path.replace(`/${RUNTIME_SERVICE}/`, `/${this.service}/`);
  }

  private emit(timing: CriCallTiming): void {
    for (const listener of this.listeners) listener(timing);
  }
}
