// A gRPC client on node:http2 over any byte stream (a unix socket, an SSH direct-streamlocal channel, or
// the stdio of `socat` run over SSH). grpc-js cannot take a ready-made stream, hence this. Unary calls
// carry grpc-timeout for the server AND a client-side timer: a SIGSTOPped runtime never answers, so only
// our own timer (which cancels the stream with NGHTTP2_CANCEL) ends the call. Server streams
// (serverStream.ts) have a timer only until their response headers.

import * as http2 from 'node:http2';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { CriError } from '../criError';
import { encodeFrame, FrameDecoder } from './framing';
import { formatGrpcTimeout, GrpcCode } from './status';
import { CallEnd } from './callEnd';
import { settleOnce } from './settleOnce';
import { holdPingAcks, PING_ACK_HOLD_MS } from './heldPingAcks';
import { StreamFlow, streamOnSession, type ServerStreamCall, type ServerStreamOptions } from './serverStream';
import { abortable } from '../../../core/util/abortable';
import type { Logger } from '../../../core/util/logger';
import { silentLogger } from '../../../core/util/logger';
import { withDeadline } from '../../../core/util/deadlineSignal';

/** Opens a fresh byte stream to the gRPC server; called on first use and after the connection is lost. */
export type StreamOpener = (signal: AbortSignal) => Promise<Duplex>;

export interface UnaryOptions {
  /** Whole-call deadline, including (re)connecting. */
  deadlineMs: number;
  signal?: AbortSignal;
}

export class H2Channel {
  private session: http2.ClientHttp2Session | undefined;
  private connecting: Promise<http2.ClientHttp2Session> | undefined;
  /** The byte stream being opened for `connecting`, and how many calls wait for it. */
  private opening: { controller: AbortController; waiting: number } | undefined;
  private closed = false;
  private readonly transportErrors = new WeakMap<http2.ClientHttp2Session, Error>();

  constructor(
    private readonly openStream: StreamOpener,
    readonly target: string,
    private readonly logger: Logger = silentLogger,
    /** Bound on opening the byte stream; shared by concurrent callers, so not tied to one call's deadline. */
    private readonly connectTimeoutMs = 10_000,
    /** How long a PING ACK may wait on a relayed stream (heldPingAcks.ts); 0 sends it at once. */
    private readonly pingAckHoldMs = PING_ACK_HOLD_MS,
  ) {}

  /** Sends one request message and resolves with the single reply message, or rejects with CriError. */
  async unary(method: string, path: string, request: Uint8Array, options: UnaryOptions): Promise<Buffer> {
    const started = performance.now();
    const elapsed = (): number => performance.now() - started;
    if (this.closed) throw new CriError(GrpcCode.CANCELLED, `channel to ${this.target} is closed`, method, 0);
    if (options.signal?.aborted) throw new CriError(GrpcCode.CANCELLED, 'cancelled before start', method, 0);

    const abort = new AbortController();
    let failure: CriError | undefined;
    const fail = (error: CriError): void => {
      if (failure) return;
      failure = error;
      abort.abort(error);
    };
    const timer = setTimeout(
      () => fail(new CriError(GrpcCode.DEADLINE_EXCEEDED, `no reply within the ${options.deadlineMs} ms deadline (client-side)`, method, elapsed())),
      options.deadlineMs,
    );
    const onCallerAbort = (): void => fail(new CriError(GrpcCode.CANCELLED, 'cancelled by caller', method, elapsed()));
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });

    try {
      const session = await this.waitForSession(abort.signal, () => (abort.signal.reason as Error | undefined) ?? new CriError(GrpcCode.CANCELLED, 'aborted', method, elapsed()));
      return await this.call(session, method, path, request, options.deadlineMs - elapsed(), abort.signal, elapsed);
    } catch (error) {
      throw failure ?? (error instanceof CriError ? error : new CriError(GrpcCode.UNAVAILABLE, String((error as Error)?.message ?? error), method, elapsed(), { cause: error }));
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /**
   * Opens a server-streaming call. Connecting and the response headers are bounded by
   * `headersDeadlineMs`; after that only the caller's signal (or the server) ends the stream.
   */
  serverStream(method: string, path: string, request: Uint8Array, options: ServerStreamOptions): ServerStreamCall {
    const flow = new StreamFlow((message) => options.onMessage(message));
    const done = this.runServerStream(method, path, request, options, flow);
    return { done, pause: () => flow.pause(), resume: () => flow.resume() };
  }

  private async runServerStream(method: string, path: string, request: Uint8Array, options: ServerStreamOptions, flow: StreamFlow): Promise<void> {
    const started = performance.now();
    const elapsed = (): number => performance.now() - started;
    if (this.closed) throw new CriError(GrpcCode.CANCELLED, `channel to ${this.target} is closed`, method, 0);
    if (options.signal?.aborted) throw new CriError(GrpcCode.CANCELLED, 'cancelled before start', method, 0);
    const abort = new AbortController();
    const fail = (error: CriError): void => {
      if (!abort.signal.aborted) abort.abort(error);
    };
    const timer = setTimeout(
      () => fail(new CriError(GrpcCode.DEADLINE_EXCEEDED, `stream not open within the ${options.headersDeadlineMs} ms deadline (client-side)`, method, elapsed())),
      options.headersDeadlineMs,
    );
    // A caller's own CriError (e.g. a message it could not decode) stays the call's outcome.
    const onCallerAbort = (): void => {
      const reason = options.signal?.reason as unknown;
      fail(reason instanceof CriError ? reason : new CriError(GrpcCode.CANCELLED, 'cancelled by caller', method, elapsed()));
    };
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      const session = await this.waitForSession(abort.signal, () => (abort.signal.reason as Error | undefined) ?? new CriError(GrpcCode.CANCELLED, 'aborted', method, elapsed()));
      await streamOnSession({
        session,
        method,
        path,
        request,
        flow,
        signal: abort.signal,
        elapsed,
        onHeaders: () => {
          clearTimeout(timer);
          options.onOpen?.();
        },
        transportError: () => this.transportErrors.get(session),
      });
    } catch (error) {
      const reason = abort.signal.reason as unknown;
      throw reason instanceof CriError ? reason : error instanceof CriError ? error : new CriError(GrpcCode.UNAVAILABLE, String((error as Error)?.message ?? error), method, elapsed(), { cause: error });
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  close(): void {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    this.connecting = undefined;
    if (session && !session.destroyed) session.destroy();
  }

  /**
   * Waits for the shared session. Opening the byte stream (an SSH channel, say) is called off once every
   * call waiting for it has given up (cancelled or past its deadline), not only by the opener's own timer.
   */
  private async waitForSession(signal: AbortSignal, makeError: () => Error): Promise<http2.ClientHttp2Session> {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = this.getSession();
    const opening = this.opening;
    if (opening === undefined) return abortable(session, signal, makeError);
    opening.waiting++;
    try {
      return await abortable(session, signal, makeError);
    } finally {
      opening.waiting--;
      if (opening.waiting === 0 && signal.aborted) opening.controller.abort(signal.reason);
    }
  }

  private getSession(): Promise<http2.ClientHttp2Session> {
    if (this.session && !this.session.closed && !this.session.destroyed) return Promise.resolve(this.session);
    if (!this.connecting) {
      const opening = { controller: new AbortController(), waiting: 0 };
      this.opening = opening;
      const attempt = this.openBounded(opening.controller.signal).then((duplex) => {
        if (this.closed) {
          duplex.destroy();
          throw new Error(`channel to ${this.target} was closed while connecting`);
        }
        // A socket is written by node:http2's native side, which this hold cannot see (nor needs to:
        // without a relay in between, a PING costs the server next to nothing).
        if (!(duplex instanceof Socket) && this.pingAckHoldMs > 0) holdPingAcks(duplex, this.pingAckHoldMs);
        const session = http2.connect('http://localhost', { createConnection: () => duplex });
        // The transport's own error (e.g. "socat exited 1: … Permission denied") explains a broken
        // connection far better than the HTTP/2 layer's consequential stream errors.
        duplex.once('error', (error: Error) => this.transportErrors.set(session, error));
        session.on('error', (error) => this.logger.debug(`CRI h2 session to ${this.target}: ${error.message}`));
        session.on('goaway', (code) => this.logger.debug(`CRI h2 session to ${this.target}: GOAWAY ${code}`));
        const forget = (): void => {
          if (this.session === session) this.session = undefined;
        };
        session.once('close', forget);
        session.once('goaway', forget);
        duplex.once('close', () => {
          forget();
          if (!session.destroyed) session.destroy();
        });
        this.session = session;
        return session;
      });
      this.connecting = attempt;
      const clear = (): void => {
        if (this.connecting === attempt) this.connecting = undefined;
        if (this.opening === opening) this.opening = undefined;
      };
      attempt.then(clear, clear);
    }
    return this.connecting;
  }

  /**
   * The opener gets an abort signal (its own timer, or every waiting caller gone), but a transport that
   * ignores it must not leave us waiting forever.
   */
  private openBounded(callers: AbortSignal): Promise<Duplex> {
    const signal = withDeadline(callers, this.connectTimeoutMs);
    return new Promise<Duplex>((resolve, reject) => {
      let done = false;
      const finish = (error: Error): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        callers.removeEventListener('abort', onCallersGone);
        reject(error);
      };
      const onCallersGone = (): void => finish(new Error(`opening a stream to ${this.target} was called off: every caller gave up`));
      const timer = setTimeout(() => finish(new Error(`opening a stream to ${this.target} took longer than ${this.connectTimeoutMs} ms`)), this.connectTimeoutMs);
      callers.addEventListener('abort', onCallersGone, { once: true });
      this.openStream(signal).then(
        (duplex) => {
          clearTimeout(timer);
          callers.removeEventListener('abort', onCallersGone);
          if (done) duplex.destroy();
          else {
            done = true;
            resolve(duplex);
          }
        },
        (error: unknown) => finish(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }

  private call(
    session: http2.ClientHttp2Session,
    method: string,
    path: string,
    request: Uint8Array,
    remainingMs: number,
    signal: AbortSignal,
    elapsed: () => number,
  ): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      try {
        stream = session.request(
          {
            ':method': 'POST',
            ':path': path,
            'content-type': 'application/grpc',
            te: 'trailers',
            'grpc-timeout': formatGrpcTimeout(Math.max(1, remainingMs)),
            'user-agent': 'pleg-doctor-cri/1',
          },
          { endStream: false },
        );
      } catch (error) {
        reject(new CriError(GrpcCode.UNAVAILABLE, `cannot start stream: ${(error as Error).message}`, method, elapsed(), { cause: error }));
        return;
      }
      const decoder = new FrameDecoder();
      const messages: Buffer[] = [];
      const end = new CallEnd();
      const settle = settleOnce<Buffer>({ stream, signal, method, elapsed, resolve, reject });
      if (settle === undefined) return;

      stream.on('response', (headers) => end.onResponse(headers));
      stream.on('trailers', (trailers) => end.readStatus(trailers));
      stream.on('data', (chunk: Buffer) => {
        try {
          messages.push(...decoder.push(chunk));
        } catch (error) {
          end.streamError = error as Error;
          stream.close(http2.constants.NGHTTP2_CANCEL);
        }
      });
      stream.on('error', (error) => {
        end.streamError = error;
      });
      stream.on('close', () => {
        const ms = elapsed();
        const error = end.errorAtClose(method, ms, stream.rstCode, this.transportErrors.get(session));
        if (error !== null) {
          settle(error);
          return;
        }
        if (decoder.pendingBytes > 0 || messages.length !== 1) {
          settle(new CriError(GrpcCode.INTERNAL, `expected exactly one reply message, got ${messages.length} (+${decoder.pendingBytes} stray bytes)`, method, ms));
          return;
        }
        settle(messages[0] as Buffer);
      });
      stream.end(encodeFrame(request));
    });
  }
}
