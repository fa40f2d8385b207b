import { describe, expect, it } from 'vitest';
import { acceptFor, encodeClientFrame, FrameReader, OPCODE } from '../../../../../src/infra/nodeAccess/agent/wsFrames';

/** A server frame (unmasked), as the API server sends them. */
function serverFrame(opcode: number, payload: Buffer, fin = true): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, len]) : Buffer.from([(fin ? 0x80 : 0) | opcode, 126, len >> 8, len & 0xff]);
  return Buffer.concat([head, payload]);
}

describe('WebSocket framing (RFC 6455)', () => {
  it('the accept key of the RFC\u2019s own example (section 1.3)', () => {
    expect(acceptFor('dGhlIHNhbXBsZSBub25jZQ==')).toBe('s3pPLMBiTxaQ9kYGzzhZRbK+xOo=');
  });
  it('client frames are masked, with 7-, 16- and 64-bit lengths', () => {
    const mask = Buffer.from([1, 2, 3, 4]);
    const small = encodeClientFrame(OPCODE.binary, Buffer.from('abc'), mask);
    expect([...small]).toEqual([0x82, 0x80 | 3, 1, 2, 3, 4, 'a'.charCodeAt(0) ^ 1, 'b'.charCodeAt(0) ^ 2, 'c'.charCodeAt(0) ^ 3]);
    const mid = encodeClientFrame(OPCODE.binary, Buffer.alloc(300, 7), mask);
    expect(mid[1]).toBe(0x80 | 126);
    expect(mid.readUInt16BE(2)).toBe(300);
    const big = encodeClientFrame(OPCODE.binary, Buffer.alloc(70_000), mask);
    expect(big[1]).toBe(0x80 | 127);
    expect(Number(big.readBigUInt64BE(2))).toBe(70_000);
  });
  it('server frames split anywhere, fragments joined, control frames in between', () => {
    const reader = new FrameReader(1024);
    const bytes = Buffer.concat([
      serverFrame(OPCODE.binary, Buffer.from('\x00he'), false),
      serverFrame(OPCODE.ping, Buffer.from('p')),
      serverFrame(OPCODE.continuation, Buffer.from('llo')),
      serverFrame(OPCODE.binary, Buffer.alloc(200, 1)),
    ]);
    const got = [];
    for (let i = 0; i < bytes.length; i += 3) got.push(...reader.push(bytes.subarray(i, i + 3)));
    expect(got.map((m) => [m.opcode, m.payload.length])).toEqual([[OPCODE.ping, 1], [OPCODE.binary, 6], [OPCODE.binary, 200]]);
    expect(got[1]?.payload.toString('latin1')).toBe('\x00hello');
  });
  it('refuses what a server must not send, and what is too large', () => {
    expect(() => new FrameReader(1024).push(Buffer.from([0x82, 0x81, 0, 0, 0, 0, 0]))).toThrow(/masked frame/);
    expect(() => new FrameReader(100).push(serverFrame(OPCODE.binary, Buffer.alloc(200)))).toThrow(/exceeds 100/);
    expect(() => new FrameReader(100).push(serverFrame(OPCODE.continuation, Buffer.from('x')))).toThrow(/continuation frame without/);
  });
});
