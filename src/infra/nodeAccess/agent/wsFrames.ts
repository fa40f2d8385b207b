// The WebSocket framing (RFC 6455 section 5) a pod port-forward client needs: masked client frames out,
// unmasked server frames in, control frames (ping, close) between fragments. Written here rather than
// taken from a package because the product has no WebSocket dependency of its own and this is all of it.

import { createHash, randomBytes } from 'node:crypto';

export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** RFC 6455 section 4.2.2: the server's Sec-WebSocket-Accept for a client key. */
export function acceptFor(key: string): string {
  return createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
}

/** One client-to-server frame, FIN set: a client must mask every frame it sends (section 5.3). */
export function encodeClientFrame(opcode: number, payload: Buffer, mask: Buffer = randomBytes(4)): Buffer {
  const len = payload.length;
  const head = len < 126 ? 2 : len < 0x10000 ? 4 : 10;
  const out = Buffer.alloc(head + 4 + len);
  out[0] = 0x80 | opcode;
  if (len < 126) out[1] = 0x80 | len;
  else if (len < 0x10000) {
    out[1] = 0x80 | 126;
    out.writeUInt16BE(len, 2);
  } else {
    out[1] = 0x80 | 127;
    out.writeBigUInt64BE(BigInt(len), 2);
  }
  mask.copy(out, head);
  for (let i = 0; i < len; i++) out[head + 4 + i] = (payload[i] as number) ^ (mask[i % 4] as number);
  return out;
}

/** A whole message (fragments joined) or a control frame, as the server sent it. */
export interface WsMessage {
  opcode: number;
  payload: Buffer;
}

/** Splits the server's byte stream into messages; throws on what a server must not send. */
export class FrameReader {
  private buffered: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private fragmentOpcode = 0;

  constructor(private readonly maxMessageBytes: number) {}

  push(chunk: Buffer): WsMessage[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: WsMessage[] = [];
    for (;;) {
      const frame = this.nextFrame();
      if (frame === undefined) return out;
      const { fin, opcode, payload } = frame;
      if (opcode >= 0x8) {
        out.push({ opcode, payload });
        continue;
      }
      if (opcode !== OPCODE.continuation) {
        if (this.fragments.length > 0) throw new Error('WebSocket: a new message began inside a fragmented one');
        this.fragmentOpcode = opcode;
      } else if (this.fragments.length === 0) throw new Error('WebSocket: a continuation frame without a message to continue');
      this.fragments.push(payload);
      if (this.fragments.reduce((n, b) => n + b.length, 0) > this.maxMessageBytes) throw new Error(`WebSocket: a message exceeded ${this.maxMessageBytes} bytes`);
      if (fin) {
        out.push({ opcode: this.fragmentOpcode, payload: Buffer.concat(this.fragments) });
        this.fragments = [];
      }
    }
  }

  private nextFrame(): { fin: boolean; opcode: number; payload: Buffer } | undefined {
    const b = this.buffered;
    if (b.length < 2) return undefined;
    const first = b[0] as number;
    const second = b[1] as number;
    if ((second & 0x80) !== 0) throw new Error('WebSocket: the server sent a masked frame');
    let len = second & 0x7f;
    let offset = 2;
    if (len === 126) {
      if (b.length < 4) return undefined;
      len = b.readUInt16BE(2);
      offset = 4;
    } else if (len === 127) {
      if (b.length < 10) return undefined;
      const big = b.readBigUInt64BE(2);
      if (big > BigInt(this.maxMessageBytes)) throw new Error(`WebSocket: a frame of ${big} bytes exceeds ${this.maxMessageBytes}`);
      len = Number(big);
      offset = 10;
    }
    if (len > this.maxMessageBytes) throw new Error(`WebSocket: a frame of ${len} bytes exceeds ${this.maxMessageBytes}`);
    if (b.length < offset + len) return undefined;
    const payload = Buffer.from(b.subarray(offset, offset + len));
    this.buffered = b.subarray(offset + len);
    return { fin: (first & 0x80) !== 0, opcode: first & 0x0f, payload };
  }
}
