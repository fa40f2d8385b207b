// A gRPC server in Go (containerd, CRI-O) estimates the connection's bandwidth-delay product by sending
// an HTTP/2 PING whenever request data arrives and no such PING is waiting for its ACK. node:http2 ACKs
// at once, so on a stream relayed by sshd a unary call costs up to two SSH packets more than it needs: the
// server's PING ahead of the reply, and our ACK on its own while the server works (on the node stack, a
// full 110-pod relist of 442 calls took 577–659 packets out and 615–752 in; with the hold 445–452 out and
// 443–461 in). Holding the ACK back for a few
// milliseconds keeps one PING waiting across the calls made meanwhile, so the server pings once per hold
// instead of once per call. The estimate only ever grows the server's windows, and our requests are far
// too small for that; a keepalive PING waits seconds for its ACK, not milliseconds.

import type { Duplex } from 'node:stream';

/** How long an ACK may wait. Long against a call over SSH (about a millisecond), short against any timeout. */
export const PING_ACK_HOLD_MS = 10;

const FRAME_HEADER_BYTES = 9;
const PING_PAYLOAD_BYTES = 8;
const PING_TYPE = 0x6;
const ACK_FLAG = 0x1;

/** True when `chunk` is exactly one HTTP/2 PING frame with the ACK flag, on stream 0. */
export function isPingAck(chunk: Uint8Array): boolean {
  return (
    chunk.length === FRAME_HEADER_BYTES + PING_PAYLOAD_BYTES &&
    chunk[0] === 0 &&
    chunk[1] === 0 &&
    chunk[2] === PING_PAYLOAD_BYTES &&
    chunk[3] === PING_TYPE &&
    ((chunk[4] ?? 0) & ACK_FLAG) !== 0 &&
    ((chunk[5] ?? 0) & 0x7f) === 0 &&
    chunk[6] === 0 &&
    chunk[7] === 0 &&
    chunk[8] === 0
  );
}

type WriteCallback = (error?: Error | null) => void;
type WriteFn = (chunk: Buffer, encoding: BufferEncoding | 'buffer', callback: WriteCallback) => void;

/**
 * Makes `stream` hold each PING ACK written to it alone for `holdMs` (acknowledged to the writer at once),
 * then write it after whatever was written meanwhile. Ending the stream writes a held ACK first; an error
 * writing it destroys the stream, since the writer was told it was sent.
 */
export function holdPingAcks(stream: Duplex, holdMs = PING_ACK_HOLD_MS): void {
  const own = stream as unknown as { _write: WriteFn; _final?: (callback: WriteCallback) => void };
  const send = own._write.bind(stream);
  const sendFinal = own._final?.bind(stream);
  let held: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;

  const release = (): void => {
    timer = undefined;
    const acks = held;
    held = [];
    if (stream.destroyed) return;
    for (const ack of acks) {
      send(ack, 'buffer', (error) => {
        if (error) stream.destroy(error);
      });
    }
  };

  const write: WriteFn = (chunk, encoding, callback) => {
    if (!isPingAck(chunk) || stream.destroyed) {
      send(chunk, encoding, callback);
      return;
    }
    held.push(Buffer.from(chunk));
    timer ??= setTimeout(release, holdMs);
    callback();
  };

  const final = (callback: WriteCallback): void => {
    if (timer !== undefined) clearTimeout(timer);
    release();
    if (sendFinal) sendFinal(callback);
    else callback();
  };

  stream.once('close', () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    held = [];
  });
  Object.assign(stream, { _write: write, _final: final });
}
