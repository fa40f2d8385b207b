// The hand-framed unary gRPC client against an in-process HTTP/2 server on an in-memory stream pair:
// replies split across DATA frames, trailers-only errors, percent-encoded messages, protocol violations,
// and the client-side deadline that cancels a call the server never answers.

import * as http2 from 'node:http2';
import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { H2Channel } from '../../../../../src/infra/cri/grpc/h2Channel';
import { encodeFrame, FrameDecoder } from '../../../../../src/infra/cri/grpc/framing';
import { memoryPair } from '../../../../support/memoryPair';
import { criFailure } from '../../../../support/criFailure';

type Handler = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders, request: Buffer) => void;

interface Harness {
  channel: H2Channel;
  connections: number;
  serverStreams: http2.ServerHttp2Stream[];
  /** Client and server ends of every connection, in order. */
  sockets: Duplex[];
  close(): void;
}

const harnesses: Harness[] = [];
afterEach(() => {
  for (const h of harnesses.splice(0)) h.close();
});

function harness(handler: Handler): Harness {
  const server = http2.createServer();
  const sockets: Duplex[] = [];
  const h: Harness = {
    channel: undefined as unknown as H2Channel,
    connections: 0,
    serverStreams: [],
    sockets,
    close: () => {
      h.channel.close();
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
  server.on('stream', (stream, headers) => {
    h.serverStreams.push(stream);
    const decoder = new FrameDecoder();
    const messages: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => messages.push(...decoder.push(chunk)));
    stream.on('end', () => handler(stream, headers, messages[0] ?? Buffer.alloc(0)));
    stream.on('error', () => undefined);
  });
  h.channel = new H2Channel(async () => {
    h.connections++;
    const [client, serverSide] = memoryPair();
    sockets.push(client, serverSide);
    server.emit('connection', serverSide);
    return client;
  }, 'memory');
  harnesses.push(h);
  return h;
}

const ok = (reply: Buffer, split = false): Handler => (stream) => {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  const frame = encodeFrame(reply);
  if (split) {
    // One byte per write: the client must reassemble across DATA frames.
    for (const byte of frame) stream.write(Uint8Array.of(byte));
    stream.end();
  } else {
    stream.end(frame);
  }
};

describe('H2Channel unary calls', () => {
  it('sends the gRPC request headers and one framed message, and returns the reply', async () => {
    let seen: { headers: http2.IncomingHttpHeaders; request: Buffer } | undefined;
    const h = harness((stream, headers, request) => {
      seen = { headers, request };
      ok(Buffer.from('pong'))(stream, headers, request);
    });
    const reply = await h.channel.unary('Version', '/runtime.v1.RuntimeService/Version', Buffer.from('ping'), { deadlineMs: 2_000 });
    expect(reply.toString()).toBe('pong');
    expect(seen?.request.toString()).toBe('ping');
    expect(seen?.headers).toMatchObject({ ':method': 'POST', ':path': '/runtime.v1.RuntimeService/Version', 'content-type': 'application/grpc', te: 'trailers' });
    expect(seen?.headers['grpc-timeout']).toMatch(/^\d{1,4}m$/);
    expect(Number.parseInt(String(seen?.headers['grpc-timeout']), 10)).toBeLessThanOrEqual(2_000);
  });

  it('reassembles a reply split into single bytes, and reuses one connection for many calls', async () => {
    const h = harness(ok(Buffer.alloc(200, 7), true));
    const replies = await Promise.all(Array.from({ length: 5 }, () => h.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 5_000 })));
    for (const reply of replies) expect(reply.equals(Buffer.alloc(200, 7))).toBe(true);
    expect(h.connections).toBe(1);
  });

  it('reports a trailers-only error with its percent-decoded message', async () => {
    const h = harness((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'container %22abc%22 not found: caf%C3%A9' }, { endStream: true });
    });
    const error = await criFailure(h.channel.unary('ContainerStatus', '/s/ContainerStatus', Buffer.alloc(0), { deadlineMs: 2_000 }));
    expect(error).toMatchObject({ code: 5, codeName: 'NOT_FOUND', method: 'ContainerStatus', detail: 'container "abc" not found: café' });
    expect(error.message).toMatch(/^ContainerStatus: NOT_FOUND: container "abc" not found: café \(after \d+ ms\)$/);
  });

  it('reports an error status sent in trailers after headers', async () => {
    const h = harness((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '12', 'grpc-message': 'method GetContainerEvents not implemented' }));
      stream.end();
    });
    const error = await criFailure(h.channel.unary('GetContainerEvents', '/s/G', Buffer.alloc(0), { deadlineMs: 2_000 }));
    expect(error).toMatchObject({ code: 12, codeName: 'UNIMPLEMENTED', detail: 'method GetContainerEvents not implemented' });
  });

  it('maps an HTTP error without grpc-status and refuses a reply without status or with two messages', async () => {
    const notFound = harness((stream) => stream.respond({ ':status': 404 }, { endStream: true }));
    expect(await criFailure(notFound.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 2_000 }))).toMatchObject({ code: 12, detail: 'HTTP 404 without grpc-status' });

    const noStatus = harness((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.end(encodeFrame(Buffer.from('x')));
    });
    expect(await criFailure(noStatus.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 2_000 }))).toMatchObject({ code: 14, detail: 'stream closed without grpc-status' });

    const two = harness((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([encodeFrame(Buffer.from('a')), encodeFrame(Buffer.from('b'))]));
    });
    expect(await criFailure(two.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 2_000 }))).toMatchObject({ code: 13, detail: 'expected exactly one reply message, got 2 (+0 stray bytes)' });
  });

  it('cancels an unanswered call at the deadline with DEADLINE_EXCEEDED and RST_STREAM CANCEL', async () => {
    const h = harness(() => undefined);
    const started = performance.now();
    const error = await criFailure(h.channel.unary('ListPodSandbox', '/s/L', Buffer.alloc(0), { deadlineMs: 300 }));
    const elapsed = performance.now() - started;
    expect(error).toMatchObject({ code: 4, codeName: 'DEADLINE_EXCEEDED', method: 'ListPodSandbox' });
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(elapsed).toBeLessThan(1_000);
    expect(error.durationMs).toBeGreaterThanOrEqual(295);
    const serverStream = h.serverStreams[0];
    if (!serverStream) throw new Error('server saw no stream');
    if (!serverStream.closed) await new Promise((resolve) => serverStream.once('close', resolve));
    expect(serverStream.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
  });

  it('cancels on the caller signal with CANCELLED', async () => {
    const h = harness(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await criFailure(h.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 5_000, signal: controller.signal }))).toMatchObject({ code: 1, codeName: 'CANCELLED' });
  });

  it('applies the deadline to a connect that never completes, and reports a failed connect as UNAVAILABLE', async () => {
    const hanging = new H2Channel(() => new Promise<Duplex>(() => undefined), 'nowhere');
    expect(await criFailure(hanging.unary('Version', '/s/V', Buffer.alloc(0), { deadlineMs: 200 }))).toMatchObject({ code: 4 });
    hanging.close();
    const refused = new H2Channel(() => Promise.reject(new Error('connect /x.sock: ENOENT')), 'x');
    expect(await criFailure(refused.unary('Version', '/s/V', Buffer.alloc(0), { deadlineMs: 1_000 }))).toMatchObject({ code: 14, detail: 'connect /x.sock: ENOENT' });
    refused.close();
  });

  it('reconnects after the connection is lost', async () => {
    const h = harness(ok(Buffer.from('again')));
    await h.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 2_000 });
    // Drop the transport under the session, as a dying SSH channel would.
    h.sockets[0]?.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const reply = await h.channel.unary('X', '/s/X', Buffer.alloc(0), { deadlineMs: 2_000 });
    expect(reply.toString()).toBe('again');
    expect(h.connections).toBe(2);
  });
});

describe('H2Channel connect bound', () => {
  it('gives up on an opener that ignores its abort signal, and tries again on the next call', async () => {
    let opens = 0;
    const channel = new H2Channel(
      () => {
        opens++;
        return new Promise<Duplex>(() => undefined);
      },
      'stuck',
      undefined,
      100,
    );
    expect(await criFailure(channel.unary('Version', '/s/V', Buffer.alloc(0), { deadlineMs: 1_000 }))).toMatchObject({ code: 14, detail: 'opening a stream to stuck took longer than 100 ms' });
    await criFailure(channel.unary('Version', '/s/V', Buffer.alloc(0), { deadlineMs: 1_000 }));
    expect(opens).toBe(2);
    channel.close();
  });
});
