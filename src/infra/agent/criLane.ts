// The agent's one lane to the runtime: every CRI call it makes (the live model's relists and the periodic
// diagnosis snapshot alike) goes through one gate that lets a single call out at a time, the relists
// first. When the runtime hangs, the one call waits out its deadline and everything behind it waits in
// the gate, never on the runtime's socket: the agent never adds load to a struggling runtime (issue #28).
// A call whose deadline passes in the gate fails with DEADLINE_EXCEEDED without having been sent, and says so.
//
// The gate sits under GrpcCriClient, at the channel (one unary call = one request), so the clients stay
// GrpcCriClients and the feed's calls are the ones it makes over SSH (criPeriod.ts filters by label only
// on a GrpcCriClient).

import { performance } from 'node:perf_hooks';
import type { Logger } from '../../core/util/logger';
import { CriError } from '../cri/criError';
import { GrpcCriClient } from '../cri/criClient';
import type { ProtoCodec } from '../cri/protoCodec';
import { H2Channel, type UnaryOptions } from '../cri/grpc/h2Channel';
import { GrpcCode } from '../cri/grpc/status';
import { connectUnixSocket, socketPathOf } from '../cri/transports/localSocket';

export type LanePriority = 'relist' | 'diagnosis';

interface Waiter {
  priority: LanePriority;
  grant: () => void;
}

export interface LaneObserver {
  /** A call left the gate for the runtime at `atMs` (performance.now()). */
  sent?(method: string, atMs: number): void;
  /** It was answered or failed after `ms`. */
  ended?(method: string, ms: number): void;
}

/** One call at a time to the runtime, relists before diagnosis calls. */
export class CallGate {
  private busy = false;
  private readonly waiting: Waiter[] = [];
  /** When the call in flight was sent (performance.now()); undefined when none is. */
  inflightSince: number | undefined;
  inflightCalls = 0;
  /** The most calls ever in flight together (1 unless the gate is broken). */
  maxInflight = 0;

  constructor(private readonly observer: LaneObserver = {}) {}

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `send` when the lane is free; rejects with DEADLINE_EXCEEDED if `deadlineMs` passes first. */
  async run<T>(method: string, priority: LanePriority, deadlineMs: number, signal: AbortSignal | undefined, send: (remainingMs: number) => Promise<T>): Promise<T> {
    const queuedAt = performance.now();
    await this.acquire(method, priority, deadlineMs, signal, queuedAt);
    const sentAt = performance.now();
    const remainingMs = deadlineMs - (sentAt - queuedAt);
    // Granted as its own deadline ran out (the call ahead ended on the same tick): sending it now could only add load.
    if (remainingMs < 1) {
      this.release();
      throw this.notSent(method, deadlineMs, sentAt - queuedAt);
    }
    this.inflightSince = sentAt;
    this.inflightCalls++;
    this.maxInflight = Math.max(this.maxInflight, this.inflightCalls);
    this.observer.sent?.(method, sentAt);
    try {
      return await send(remainingMs);
    } finally {
      this.inflightCalls--;
      this.inflightSince = undefined;
      this.observer.ended?.(method, performance.now() - sentAt);
      this.release();
    }
  }

  private acquire(method: string, priority: LanePriority, deadlineMs: number, signal: AbortSignal | undefined, queuedAt: number): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const leave = (error: CriError): void => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      };
      const timer = setTimeout(() => leave(this.notSent(method, deadlineMs, performance.now() - queuedAt)), deadlineMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        leave(new CriError(GrpcCode.CANCELLED, 'cancelled while waiting for the agent\u2019s CRI lane', method, performance.now() - queuedAt));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // Relists go before every waiting diagnosis call, in arrival order among themselves.
      const at = priority === 'relist' ? this.waiting.findIndex((w) => w.priority === 'diagnosis') : -1;
      if (at < 0) this.waiting.push(waiter);
      else this.waiting.splice(at, 0, waiter);
    });
  }

  private notSent(method: string, deadlineMs: number, waitedMs: number): CriError {
    return new CriError(GrpcCode.DEADLINE_EXCEEDED, `not sent: the agent's previous CRI call was still waiting for the runtime after ${deadlineMs} ms (one call at a time)`, method, waitedMs);
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.busy = false;
    else next.grant();
  }
}

/** An H2Channel whose unary calls pass through the gate (server streams are not gated: the agent opens none unless EventedPLEG is on). */
class GatedChannel extends H2Channel {
  constructor(
    private readonly gate: CallGate,
    private readonly priority: LanePriority,
    path: string,
    logger: Logger | undefined,
  ) {
    super((signal) => connectUnixSocket(path, signal), `unix://${path} (local, one call at a time)`, logger);
  }

  override unary(method: string, path: string, request: Uint8Array, options: UnaryOptions): Promise<Buffer> {
    return this.gate.run(method, this.priority, options.deadlineMs, options.signal, (remainingMs) => super.unary(method, path, request, { ...options, deadlineMs: remainingMs }));
  }
}

/** A CRI client on the runtime's local socket whose calls share `gate` with every other client of it. */
export function laneClient(endpoint: string, gate: CallGate, priority: LanePriority, options: { defaultDeadlineMs?: number; logger?: Logger; codec: ProtoCodec }): GrpcCriClient {
  const channel = new GatedChannel(gate, priority, socketPathOf(endpoint), options.logger);
  // One codec for every client the agent opens: building one parses the whole CRI .proto again.
  return new GrpcCriClient(channel, { codec: options.codec, ...(options.defaultDeadlineMs !== undefined ? { defaultDeadlineMs: options.defaultDeadlineMs } : {}) });
}
