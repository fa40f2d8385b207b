// Held PING ACKs: the frame test, the hold on a recording stream, and, through H2Channel against an
// in-process HTTP/2 server that pings the way a Go gRPC server's bandwidth estimator does (on request data,
// when no PING of its own waits for an ACK), how many PINGs a run of calls draws with and without the hold.

import * as http2 from 'node:http2';
import { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { H2Channel } from '../../../../../src/infra/cri/grpc/h2Channel';
import { encodeFrame, FrameDecoder } from '../../../../../src/infra/cri/grpc/framing';
import { holdPingAcks, isPingAck } from '../../../../../src/infra/cri/grpc/heldPingAcks';
import { memoryPair } from '../../../../support/memoryPair';

const frame = (length: number, type: number, flags: number, streamId: number, payload: number[]): Buffer =>
  Buffer.from([(length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff, type, flags, (streamId >>> 24) & 0xff, (streamId >> 16) & 0xff, (streamId >> 8) & 0xff, streamId & 0xff, ...payload]);
const PING_ACK = frame(8, 6, 1, 0, [1, 2, 3, 4, 5, 6, 7, 8]);

describe('isPingAck', () => {
  it('is true for one PING frame with the ACK flag on stream 0, and for nothing else', () => {
    expect(isPingAck(PING_ACK)).toBe(true);
    // The reserved bit of the stream id is ignored by HTTP/2 receivers; so is it here.
    expect(isPingAck(frame(8, 6, 1, 0x80000000, [0, 0, 0, 0, 0, 0, 0, 0]))).toBe(true);
    expect(isPingAck(frame(8, 6, 0, 0, [0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false); // a PING, not its ACK
    expect(isPingAck(frame(8, 6, 1, 3, [0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false); // not stream 0
    expect(isPingAck(frame(8, 8, 1, 0, [0, 0, 0, 0, 0, 0, 0, 0]))).toBe(false); // WINDOW_UPDATE-typed
    expect(isPingAck(Buffer.concat([PING_ACK, frame(4, 8, 0, 0, [0, 0, 0, 1])]))).toBe(false); // an ACK with more behind it
    expect(isPingAck(PING_ACK.subarray(0, 16))).toBe(false);
  });

  it('agrees with a field-by-field reading of any 17 bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 17, maxLength: 17 }), fc.boolean(), (bytes, shaped) => {
        const b = Buffer.from(bytes);
        if (shaped) {
          b[0] = 0;
          b[1] = 0;
          b[2] = 8;
          b[3] = 6;
        }
        const streamId = b.readUInt32BE(5) & 0x7fffffff;
        const expected = b.readUIntBE(0, 3) === 8 && b[3] === 6 && ((b[4] ?? 0) & 1) === 1 && streamId === 0;
        expect(isPingAck(b)).toBe(expected);
      }),
      { numRuns: 2_000 },
    );
  });
});

/** A stream that records what reaches its own _write (and when), like the SSH channel under the hold. */
class Recording extends Duplex {
  readonly sent: Array<{ at: number; bytes: Buffer }> = [];
  finals = 0;
  override _read(): void {}
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.sent.push({ at: performance.now(), bytes: Buffer.from(chunk) });
    callback();
  }
  override _final(callback: (error?: Error | null) => void): void {
    this.finals++;
    callback();
  }
}

describe('holdPingAcks', () => {
  it('acknowledges a lone PING ACK at once, writes it after the hold, behind what was written meanwhile', async () => {
    const stream = new Recording();
    holdPingAcks(stream, 40);
    const started = performance.now();
    let acknowledged = Number.NaN;
    stream.write(PING_ACK, () => (acknowledged = performance.now() - started));
    stream.write('REQUEST');
    await sleep(5);
    expect(acknowledged).toBeLessThan(20);
    expect(stream.sent.map((s) => s.bytes.toString('latin1'))).toEqual(['REQUEST']);
    await sleep(80);
    expect(stream.sent.map((s) => s.bytes)).toEqual([Buffer.from('REQUEST'), PING_ACK]);
    expect((stream.sent[1]?.at ?? 0) - started).toBeGreaterThanOrEqual(38);
  });

  it('passes other writes straight through, in order', () => {
    const stream = new Recording();
    holdPingAcks(stream, 40);
    const ping = frame(8, 6, 0, 0, [9, 9, 9, 9, 9, 9, 9, 9]);
    stream.write('A');
    stream.write(ping);
    stream.write('B');
    expect(stream.sent.map((s) => s.bytes)).toEqual([Buffer.from('A'), ping, Buffer.from('B')]);
  });

  it('writes a held ACK before the stream ends', async () => {
    const stream = new Recording();
    holdPingAcks(stream, 10_000);
    stream.write(PING_ACK);
    await new Promise<void>((resolve) => stream.end(resolve));
    expect(stream.sent.map((s) => s.bytes)).toEqual([PING_ACK]);
    expect(stream.finals).toBe(1);
  });

  it('drops a held ACK when the stream is destroyed, without writing to it afterwards', async () => {
    const stream = new Recording();
    holdPingAcks(stream, 20);
    stream.write(PING_ACK);
    stream.destroy();
    await sleep(50);
    expect(stream.sent).toEqual([]);
  });
});

/** A server that pings on request data while none of its PINGs waits for an ACK (grpc-go's BDP estimator). */
function estimatingServer(): { server: http2.Http2Server; pings: () => number; unanswered: () => number } {
  const server = http2.createServer();
  let pings = 0;
  let waiting = 0;
  server.on('session', (session) => {
    let outstanding = false;
    session.on('stream', (stream) => {
      const decoder = new FrameDecoder();
      stream.on('data', (chunk: Buffer) => {
        decoder.push(chunk);
        if (outstanding) return;
        outstanding = true;
        pings++;
        waiting++;
        session.ping((error) => {
          outstanding = false;
          if (!error) waiting--;
        });
      });
      stream.on('end', () => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(encodeFrame(Buffer.from('reply')));
      });
      stream.on('error', () => undefined);
    });
  });
  return { server, pings: () => pings, unanswered: () => waiting };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function callsAgainstEstimator(holdMs: number, calls: number): Promise<{ pings: number; unanswered: number }> {
  const { server, pings, unanswered } = estimatingServer();
  const sockets: Duplex[] = [];
  const channel = new H2Channel(
    async () => {
      const [client, serverSide] = memoryPair();
      sockets.push(client, serverSide);
      server.emit('connection', serverSide);
      return client;
    },
    'memory',
    undefined,
    undefined,
    holdMs,
  );
  cleanups.push(() => {
    channel.close();
    for (const s of sockets) s.destroy();
    server.close();
  });
  for (let i = 0; i < calls; i++) {
    const reply = await channel.unary('Version', '/runtime.v1.RuntimeService/Version', Buffer.alloc(0), { deadlineMs: 5_000 });
    expect(reply.toString()).toBe('reply');
  }
  await sleep(holdMs + 50);
  return { pings: pings(), unanswered: unanswered() };
}

describe('H2Channel with held PING ACKs', () => {
  it('draws one PING per call when ACKs go at once, a few per run of calls when they are held; every PING is answered', async () => {
    const atOnce = await callsAgainstEstimator(0, 30);
    const held = await callsAgainstEstimator(200, 30);
    expect(atOnce.pings).toBe(30);
    expect(held.pings).toBeGreaterThanOrEqual(1);
    expect(held.pings).toBeLessThanOrEqual(5);
    expect(atOnce.unanswered).toBe(0);
    expect(held.unanswered).toBe(0);
  });
});
