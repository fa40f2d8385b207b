// One server-streaming gRPC call on an HTTP/2 session: the request goes out as one length-prefixed message,
// replies are handed over one by one as their frames complete (whatever the DATA frames' boundaries), and
// the call ends with the trailers' grpc-status. Only getting the response headers has a deadline: after
// them a stream may stay silent for as long as it likes (the kubelet opens GetContainerEvents without
// one). The consumer can pause delivery; reading then stops, so HTTP/2 flow control holds the server back
// instead of a buffer growing here.

import * as http2 from 'node:http2';
import { CriError } from '../criError';
import { CallEnd } from './callEnd';
import { encodeFrame, FrameDecoder } from './framing';
import { settleOnce } from './settleOnce';
import { GrpcCode } from './status';

export interface ServerStreamOptions {
  /** Bound on connecting and on the response headers (a trailers-only error counts as headers). */
  headersDeadlineMs: number;
  signal?: AbortSignal;
  /** Each reply message, in order. */
  onMessage(message: Buffer): void;
  /** The response headers arrived: the stream is open (the kubelet's "connection established"). */
  onOpen?(): void;
}

export interface ServerStreamCall {
  /** Resolves when the server ends the stream with grpc-status 0; rejects with CriError otherwise. */
  readonly done: Promise<void>;
  /** Stops handing over messages (those already decoded wait) and stops reading from the connection. */
  pause(): void;
  resume(): void;
}

/** The stream's flow state, settable before the HTTP/2 stream exists. */
export class StreamFlow {
  paused = false;
  private stream: http2.ClientHttp2Stream | undefined;
  private readonly pending: Buffer[] = [];
  private drained: (() => void) | undefined;

  constructor(private readonly deliver: (message: Buffer) => void) {}

  attach(stream: http2.ClientHttp2Stream): void {
    this.stream = stream;
    if (this.paused) stream.pause();
  }

  push(messages: readonly Buffer[]): void {
    this.pending.push(...messages);
    this.flush();
  }

  pause(): void {
    this.paused = true;
    this.stream?.pause();
  }

  resume(): void {
    this.paused = false;
    this.flush();
    if (!this.paused) this.stream?.resume();
  }

  /** Runs `then` once every decoded message has been handed over (a call ends after its last message). */
  afterPending(then: () => void): void {
    if (this.pending.length === 0) then();
    else this.drained = then;
  }

  private flush(): void {
    while (!this.paused && this.pending.length > 0) this.deliver(this.pending.shift() as Buffer);
    if (this.pending.length === 0 && this.drained !== undefined) {
      const then = this.drained;
      this.drained = undefined;
      then();
    }
  }
}

export interface StreamOnSession {
  session: http2.ClientHttp2Session;
  method: string;
  path: string;
  request: Uint8Array;
  flow: StreamFlow;
  signal: AbortSignal;
  elapsed: () => number;
  onHeaders: () => void;
  transportError: () => Error | undefined;
}

/** Runs the call on an open session until the stream closes or `signal` aborts (rejecting with its reason). */
export function streamOnSession(a: StreamOnSession): Promise<void> {
  const { method, signal, elapsed } = a;
  return new Promise<void>((resolve, reject) => {
    let stream: http2.ClientHttp2Stream;
    try {
      // No grpc-timeout: the stream lives until either side ends it.
      stream = a.session.request(
        { ':method': 'POST', ':path': a.path, 'content-type': 'application/grpc', te: 'trailers', 'user-agent': 'pleg-doctor-cri/1' },
        { endStream: false },
      );
    } catch (error) {
      reject(new CriError(GrpcCode.UNAVAILABLE, `cannot start stream: ${(error as Error).message}`, method, elapsed(), { cause: error }));
      return;
    }
    const decoder = new FrameDecoder();
    const end = new CallEnd();
    const settle = settleOnce<void>({ stream, signal, method, elapsed, resolve, reject });
    if (settle === undefined) return;
    a.flow.attach(stream);

    stream.on('response', (headers) => {
      end.onResponse(headers);
      a.onHeaders();
    });
    stream.on('trailers', (trailers) => end.readStatus(trailers));
    stream.on('data', (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = decoder.push(chunk);
      } catch (error) {
        end.streamError = error as Error;
        stream.close(http2.constants.NGHTTP2_CANCEL);
        return;
      }
      if (messages.length > 0) a.flow.push(messages);
    });
    stream.on('error', (error) => {
      end.streamError = error;
    });
    stream.on('close', () => {
      const ms = elapsed();
      const error = end.errorAtClose(method, ms, stream.rstCode, a.transportError());
      if (error === null && decoder.pendingBytes > 0) {
        settle(new CriError(GrpcCode.INTERNAL, `stream ended inside a message (${decoder.pendingBytes} stray bytes)`, method, ms));
        return;
      }
      a.flow.afterPending(() => settle(error ?? undefined));
    });
    stream.end(encodeFrame(a.request));
  });
}
