// How a gRPC call over one HTTP/2 stream ended, shared by unary calls and server streams: grpc-status from
// the trailers (or from the headers of a trailers-only reply), the HTTP status of a non-gRPC reply, and
// the stream or transport error when the connection broke first.

import type * as http2 from 'node:http2';
import { CriError } from '../criError';
import { decodeGrpcMessage, GrpcCode } from './status';

/** Maps the HTTP status of a non-gRPC reply as the gRPC spec says (http-grpc-status-mapping). */
function codeForHttpStatus(status: number): number {
  switch (status) {
    case 400:
      return GrpcCode.INTERNAL;
    case 401:
      return 16;
    case 403:
      return GrpcCode.PERMISSION_DENIED;
    case 404:
      return GrpcCode.UNIMPLEMENTED;
    case 429:
    case 502:
    case 503:
    case 504:
      return GrpcCode.UNAVAILABLE;
    default:
      return GrpcCode.UNKNOWN;
  }
}

function headerString(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** What one stream told us about its outcome, collected from its events. */
export class CallEnd {
  grpcStatus: number | undefined;
  grpcMessage = '';
  httpStatus: number | undefined;
  streamError: Error | undefined;

  onResponse(headers: http2.IncomingHttpHeaders): void {
    this.httpStatus = Number(headers[':status']);
    // Trailers-only responses (errors without a body) carry grpc-status in the response headers.
    this.readStatus(headers);
  }

  readStatus(headers: http2.IncomingHttpHeaders): void {
    const status = headerString(headers['grpc-status']);
    if (status !== undefined) {
      this.grpcStatus = Number.parseInt(status, 10);
      this.grpcMessage = decodeGrpcMessage(headerString(headers['grpc-message']) ?? '');
    }
  }

  /**
   * The call's error once the stream closed, or null for grpc-status 0. `transportError`: the byte
   * stream's own failure, which explains a broken connection better than HTTP/2's consequential errors.
   */
  errorAtClose(method: string, ms: number, rstCode: number | undefined, transportError: Error | undefined): CriError | null {
    const { grpcStatus, streamError, httpStatus } = this;
    if (streamError !== undefined && grpcStatus === undefined) {
      const cause = transportError ?? streamError;
      return new CriError(GrpcCode.UNAVAILABLE, transportError ? `connection failed: ${transportError.message}` : `stream failed: ${streamError.message}`, method, ms, { cause });
    }
    if (grpcStatus === undefined) {
      if (httpStatus !== undefined && httpStatus !== 200) return new CriError(codeForHttpStatus(httpStatus), `HTTP ${httpStatus} without grpc-status`, method, ms);
      return new CriError(GrpcCode.UNAVAILABLE, `stream closed without grpc-status${rstCode ? ` (RST_STREAM ${rstCode})` : ''}`, method, ms);
    }
    if (grpcStatus !== 0) return new CriError(grpcStatus, this.grpcMessage || '(no message)', method, ms);
    if (streamError !== undefined) return new CriError(GrpcCode.INTERNAL, `bad reply: ${streamError.message}`, method, ms, { cause: streamError });
    return null;
  }
}
