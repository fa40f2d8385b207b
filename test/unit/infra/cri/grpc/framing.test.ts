// gRPC length-prefixed framing and the grpc-message / grpc-timeout header encodings.

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameDecoder, MAX_MESSAGE_BYTES } from '../../../../../src/infra/cri/grpc/framing';
import { decodeGrpcMessage, encodeGrpcMessage, formatGrpcTimeout, grpcCodeName } from '../../../../../src/infra/cri/grpc/status';

describe('framing', () => {
  it('prefixes a flag byte 0 and a big-endian length', () => {
    expect([...encodeFrame(Uint8Array.from([0x0a, 0x01, 0x41]))]).toEqual([0, 0, 0, 0, 3, 0x0a, 0x01, 0x41]);
    expect([...encodeFrame(new Uint8Array(0))]).toEqual([0, 0, 0, 0, 0]);
    expect([...encodeFrame(new Uint8Array(0x0102)).subarray(0, 5)]).toEqual([0, 0, 0, 1, 2]);
  });

  it('reassembles a frame delivered one byte at a time', () => {
    const decoder = new FrameDecoder();
    const frame = encodeFrame(Buffer.from('hello'));
    const out: Buffer[] = [];
    for (const byte of frame) out.push(...decoder.push(Uint8Array.of(byte)));
    expect(out.map((b) => b.toString())).toEqual(['hello']);
    expect(decoder.pendingBytes).toBe(0);
  });

  it('splits several frames arriving in one chunk, keeping an incomplete tail', () => {
    const decoder = new FrameDecoder();
    const joined = Buffer.concat([encodeFrame(Buffer.from('a')), encodeFrame(Buffer.from('')), encodeFrame(Buffer.from('bcd'))]);
    expect(decoder.push(joined.subarray(0, joined.length - 1)).map(String)).toEqual(['a', '']);
    expect(decoder.pendingBytes).toBe(7);
    expect(decoder.push(joined.subarray(joined.length - 1)).map(String)).toEqual(['bcd']);
  });

  test.prop([fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 20 })])(
    'any message sequence survives any chunking',
    (messages, cuts) => {
      const stream = Buffer.concat(messages.map((m) => encodeFrame(m)));
      const decoder = new FrameDecoder();
      const out: Buffer[] = [];
      let at = 0;
      let i = 0;
      while (at < stream.length) {
        const size = cuts[i++ % cuts.length] ?? 1;
        out.push(...decoder.push(stream.subarray(at, at + size)));
        at += size;
      }
      expect(out.map((b) => [...b])).toEqual(messages.map((m) => [...m]));
      expect(decoder.pendingBytes).toBe(0);
    },
  );

  it('refuses compressed and oversized frames', () => {
    expect(() => new FrameDecoder().push(Uint8Array.of(1, 0, 0, 0, 0))).toThrow(/compressed messages are not supported/);
    const huge = Buffer.alloc(5);
    huge.writeUInt32BE(MAX_MESSAGE_BYTES + 1, 1);
    expect(() => new FrameDecoder().push(huge)).toThrow(/exceeds/);
  });
});

describe('grpc-message percent-encoding', () => {
  it('decodes what containerd sends', () => {
    expect(decodeGrpcMessage('an error occurred when try to find container "abc": not found')).toBe('an error occurred when try to find container "abc": not found');
    expect(decodeGrpcMessage('failed%20to%3A %25done')).toBe('failed to: %done');
    expect(decodeGrpcMessage('caf%C3%A9 %E2%9C%93')).toBe('café ✓');
  });

  it('keeps malformed escapes literally', () => {
    expect(decodeGrpcMessage('100% sure %zz %4')).toBe('100% sure %zz %4');
  });

  test.prop([fc.string({ unit: 'binary', maxLength: 80 })])('round-trips any text', (message) => {
    const encoded = encodeGrpcMessage(message);
    expect(encoded).toMatch(/^[\x20-\x7e]*$/);
    expect(decodeGrpcMessage(encoded)).toBe(message);
  });
});

describe('grpc-timeout and codes', () => {
  it('formats milliseconds within 8 digits', () => {
    expect(formatGrpcTimeout(1500)).toBe('1500m');
    expect(formatGrpcTimeout(0.2)).toBe('1m');
    expect(formatGrpcTimeout(99_999_999)).toBe('99999999m');
    expect(formatGrpcTimeout(100_000_000)).toBe('100000S');
  });

  it('names codes', () => {
    expect(grpcCodeName(4)).toBe('DEADLINE_EXCEEDED');
    expect(grpcCodeName(12)).toBe('UNIMPLEMENTED');
    expect(grpcCodeName(99)).toBe('CODE_99');
  });
});
