// How a call on an HTTP/2 stream ends, once: with its outcome, or when its signal aborts. Aborting sends
// NGHTTP2_CANCEL, which tells the runtime to stop working on the call and frees the stream at once, and
// rejects with the signal's reason when that is a CriError (a deadline), CANCELLED otherwise. Shared by the
// unary calls (h2Channel.ts) and the server-streaming ones (serverStream.ts).

import * as http2 from 'node:http2';
import { CriError } from '../criError';
import { GrpcCode } from './status';

export interface CallOutcome<T> {
  stream: http2.ClientHttp2Stream;
  signal: AbortSignal;
  method: string;
  elapsed: () => number;
  resolve: (value: T) => void;
  reject: (error: CriError) => void;
}

/**
 * Returns the function that ends the call (a CriError rejects, anything else resolves; later calls are
 * ignored), or undefined when the signal had already aborted and the call has ended with that.
 */
export function settleOnce<T>(call: CallOutcome<T>): ((outcome: T | CriError) => void) | undefined {
  const { stream, signal, method, elapsed } = call;
  let settled = false;
  const settle = (outcome: T | CriError): void => {
    if (settled) return;
    settled = true;
    signal.removeEventListener('abort', onAbort);
    if (outcome instanceof CriError) call.reject(outcome);
    else call.resolve(outcome);
  };
  const onAbort = (): void => {
    if (!stream.closed && !stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL);
    settle(signal.reason instanceof CriError ? signal.reason : new CriError(GrpcCode.CANCELLED, 'aborted', method, elapsed()));
  };
  if (signal.aborted) {
    onAbort();
    return undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return settle;
}
