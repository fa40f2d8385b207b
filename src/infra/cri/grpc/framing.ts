// gRPC length-prefixed message framing (gRPC over HTTP/2, "Length-Prefixed-Message"): 1 byte compressed
// flag, 4 bytes big-endian length, then the message. We never compress and refuse compressed replies,
// since we do not advertise grpc-accept-encoding.

/** Refuses absurd lengths before allocating: CRI replies for even huge nodes stay far below this. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function encodeFrame(message: Uint8Array): Buffer {
  if (message.length > MAX_MESSAGE_BYTES) throw new Error(`gRPC message of ${message.length} bytes exceeds ${MAX_MESSAGE_BYTES}`);
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame.writeUInt8(0, 0);
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/** Reassembles frames from arbitrarily split DATA chunks. */
export class FrameDecoder {
  private buffered: Buffer = Buffer.alloc(0);

  /** Returns every message completed by this chunk; throws on a compressed or oversized frame. */
  push(chunk: Uint8Array): Buffer[] {
    this.buffered = this.buffered.length === 0 ? Buffer.from(chunk) : Buffer.concat([this.buffered, chunk]);
    const messages: Buffer[] = [];
    while (this.buffered.length >= 5) {
      const flag = this.buffered.readUInt8(0);
      if (flag !== 0) throw new Error(`gRPC frame flag ${flag}: compressed messages are not supported`);
      const length = this.buffered.readUInt32BE(1);
      if (length > MAX_MESSAGE_BYTES) throw new Error(`gRPC frame of ${length} bytes exceeds ${MAX_MESSAGE_BYTES}`);
      if (this.buffered.length < 5 + length) break;
      messages.push(this.buffered.subarray(5, 5 + length));
      this.buffered = this.buffered.subarray(5 + length);
    }
    return messages;
  }

  /** Bytes of an incomplete frame still waiting for more data (non-zero at end of stream = truncated reply). */
  get pendingBytes(): number {
    return this.buffered.length;
  }
}
