// One error type for every failed CRI call, whatever the transport: the gRPC status code (or the code we
// assign for client-side failures: 4 on our own deadline, 1 on cancellation, 14 when the stream broke),
// the RPC name, and how long the call took. A hung runtime shows up as code 4 with durationMs ≈ deadline.

import { grpcCodeName } from './grpc/status';

export class CriError extends Error {
  override readonly name = 'CriError';
  readonly codeName: string;

  constructor(
    readonly code: number,
    /** The runtime's (decoded) grpc-message, or our explanation for client-side failures. */
    readonly detail: string,
    readonly method: string,
    readonly durationMs: number,
    options?: { cause?: unknown },
  ) {
    super(`${method}: ${grpcCodeName(code)}: ${detail} (after ${Math.round(durationMs)} ms)`, options);
    this.codeName = grpcCodeName(code);
  }
}
