// node:http2 writes each frame to a non-socket stream as its own write: a unary gRPC call is a HEADERS
// frame, a DATA header and a DATA payload, and reading the reply writes a PING ACK. On an SSH channel
// every write is its own SSH packet, which this process encrypts and sends, sshd wakes up for and forwards,
// and the runtime wakes up for again. Acknowledging small writes at once and sending what gathers until a
// turn of the event loop passes without a write makes a call one packet instead of four, which was most of
// what SSH added to a relist (README, benchmarks).

import type { Duplex } from 'node:stream';

type WriteCallback = (error?: Error | null) => void;
type WriteFn = (chunk: Buffer, encoding: BufferEncoding | 'buffer', callback: WriteCallback) => void;

/** Above this many unsent bytes writes are acknowledged only once sent: the channel's own backpressure. */
const EARLY_ACK_LIMIT = 64 * 1024;
/** Writes that keep coming every turn are sent after this many, so that a steady writer is not held back. */
const MAX_TURNS = 8;

/**
 * Makes `stream` gather writes until a turn of the event loop passes without one (and two turns at least),
 * then send them as one write. Ending the stream sends what is pending first; an error sending acknowledged bytes destroys it.
 */
export function coalesceWrites(stream: Duplex): void {
  const own = stream as unknown as { _write: WriteFn; _final?: (callback: WriteCallback) => void };
  const send = own._write.bind(stream);
  const sendFinal = own._final?.bind(stream);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Callbacks of writes not acknowledged early: called when their bytes are sent. */
  let held: WriteCallback[] = [];
  let inFlight = false;
  let scheduled = false;
  let wroteSinceScheduled = false;
  let turns = 0;
  let onDrained: (() => void) | undefined;

  const flush = (): void => {
    if (inFlight || pending.length === 0) {
      if (!inFlight) onDrained?.();
      return;
    }
    const data = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
    const callbacks = held;
    pending = [];
    pendingBytes = 0;
    held = [];
    inFlight = true;
    send(data, 'buffer', (error) => {
      inFlight = false;
      for (const cb of callbacks) cb(error);
      if (error) {
        // Bytes already acknowledged to the writer are lost: the stream cannot go on.
        if (callbacks.length === 0) stream.destroy(error);
        return;
      }
      flush();
    });
  };

  const onTurn = (): void => {
    turns++;
    // At least two turns: the runtime's reply carries an HTTP/2 PING, whose ACK is written as the reply
    // is read, and the caller's next request comes a turn later; the extra turn sends both as one packet.
    // (On gRPC streams the ACK is now held for milliseconds instead: src/infra/cri/grpc/heldPingAcks.ts.)
    if (turns < MAX_TURNS && (turns < 2 || wroteSinceScheduled)) {
      wroteSinceScheduled = false;
      setImmediate(onTurn);
      return;
    }
    scheduled = false;
    flush();
  };

  const write: WriteFn = (chunk, _encoding, callback) => {
    pending.push(chunk);
    pendingBytes += chunk.length;
    if (pendingBytes <= EARLY_ACK_LIMIT) callback();
    else held.push(callback);
    if (scheduled) {
      wroteSinceScheduled = true;
      return;
    }
    scheduled = true;
    wroteSinceScheduled = false;
    turns = 0;
    setImmediate(onTurn);
  };

  const final = (callback: WriteCallback): void => {
    onDrained = () => {
      onDrained = undefined;
      if (sendFinal) sendFinal(callback);
      else callback();
    };
    flush();
  };

  Object.assign(stream, { _write: write, _final: final });
}
