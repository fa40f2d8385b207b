// Server-streaming calls on the hand-framed gRPC client, against an in-process HTTP/2 server on an
// in-memory stream pair: messages split across DATA frames and several in one, trailers-only errors, a
// silent open stream that outlives its open deadline, pausing, and GetContainerEvents decoded end to end.

import * as http2 from 'node:http2';
import { afterEach, describe, expect, it } from 'vitest';
import { GrpcCriClient } from '../../../../../src/infra/cri/criClient';
import { encodeFrame } from '../../../../../src/infra/cri/grpc/framing';
import type { H2Channel } from '../../../../../src/infra/cri/grpc/h2Channel';
import { ProtoCodec } from '../../../../../src/infra/cri/protoCodec';
import type { CriContainerEvent } from '../../../../../src/core/pleg/evented';
import { memoryChannelTo } from '../../../../support/memoryPair';
import { criFailure } from '../../../../support/criFailure';

type Handler = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function channelTo(handler: Handler): { channel: H2Channel; streams: http2.ServerHttp2Stream[]; requests: http2.IncomingHttpHeaders[] } {
  const server = http2.createServer();
  const streams: http2.ServerHttp2Stream[] = [];
  const requests: http2.IncomingHttpHeaders[] = [];
  server.on('stream', (stream, headers) => {
    streams.push(stream);
    requests.push(headers);
    stream.on('error', () => undefined);
    // The request is one message, then the client ends its side.
    stream.resume();
    stream.on('end', () => handler(stream, headers));
  });
  const { channel, destroyEnds } = memoryChannelTo(server);
  cleanups.push(() => {
    channel.close();
    destroyEnds();
    server.close();
  });
  return { channel, streams, requests };
}

const tick = (ms = 20): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const respond = (stream: http2.ServerHttp2Stream, trailers: Record<string, string> = { 'grpc-status': '0' }): void => {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers(trailers));
};

describe('H2Channel server streams', () => {
  it('hands over messages as their frames complete: split across DATA frames, several in one, in order', async () => {
    const { channel, requests } = channelTo((stream) => void writeSlowly(stream));
    async function writeSlowly(stream: http2.ServerHttp2Stream): Promise<void> {
      respond(stream);
      const a = encodeFrame(Buffer.from('first message'));
      // One message in three DATA frames, each written after the client has read the previous one.
      stream.write(a.subarray(0, 3));
      await tick();
      stream.write(a.subarray(3, 9));
      await tick();
      stream.write(a.subarray(9));
      await tick();
      // Two whole messages and the head of a third in one frame; its tail in the last.
      const c = encodeFrame(Buffer.from('fourth'));
      stream.write(Buffer.concat([encodeFrame(Buffer.from('second')), encodeFrame(Buffer.alloc(0)), c.subarray(0, 4)]));
      await tick();
      stream.end(c.subarray(4));
    }
    const got: { text: string; atMs: number }[] = [];
    const t0 = performance.now();
    const call = channel.serverStream('GetContainerEvents', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 1_000, onMessage: (m) => got.push({ text: m.toString(), atMs: performance.now() - t0 }) });
    await call.done;
    expect(got.map((m) => m.text)).toEqual(['first message', 'second', '', 'fourth']);
    // The first message was handed over before the stream ended, not collected until the end.
    expect((got.at(-1)?.atMs ?? 0) - (got[0]?.atMs ?? 0)).toBeGreaterThanOrEqual(15);
    // No grpc-timeout: the server must not end the stream at a deadline.
    expect(requests[0]).toMatchObject({ ':method': 'POST', ':path': '/s/G', 'content-type': 'application/grpc', te: 'trailers' });
    expect(requests[0]?.['grpc-timeout']).toBeUndefined();
  });

  it('a trailers-only error (containerd 1.6: UNIMPLEMENTED) ends the call with its status and message', async () => {
    const { channel } = channelTo((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12', 'grpc-message': 'method GetContainerEvents not implemented' }, { endStream: true });
    });
    let opened = false;
    const messages: Buffer[] = [];
    const call = channel.serverStream('GetContainerEvents', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 1_000, onMessage: (m) => messages.push(m), onOpen: () => (opened = true) });
    expect(await criFailure(call.done)).toMatchObject({ code: 12, codeName: 'UNIMPLEMENTED', detail: 'method GetContainerEvents not implemented' });
    expect(messages).toEqual([]);
    expect(opened).toBe(true);
  });

  it('an error in the trailers comes after the messages sent before it; a stream ending inside a message is INTERNAL', async () => {
    const late = channelTo((stream) => {
      respond(stream, { 'grpc-status': '14', 'grpc-message': 'runtime restarting' });
      stream.end(encodeFrame(Buffer.from('last')));
    });
    const got: string[] = [];
    expect(await criFailure(late.channel.serverStream('G', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 1_000, onMessage: (m) => got.push(m.toString()) }).done)).toMatchObject({ code: 14, detail: 'runtime restarting' });
    expect(got).toEqual(['last']);

    const cut = channelTo((stream) => {
      respond(stream);
      stream.end(encodeFrame(Buffer.from('truncated')).subarray(0, 7));
    });
    expect(await criFailure(cut.channel.serverStream('G', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 1_000, onMessage: () => undefined }).done)).toMatchObject({ code: 13, detail: 'stream ended inside a message (7 stray bytes)' });
  });

  it('an open stream stays silent past the open deadline; only the caller ends it (RST_STREAM CANCEL)', async () => {
    const { channel, streams } = channelTo((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
    });
    const controller = new AbortController();
    const call = channel.serverStream('G', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 100, signal: controller.signal, onMessage: () => undefined });
    let settled = false;
    call.done.then(
      () => (settled = true),
      () => (settled = true),
    );
    await tick(400);
    expect(settled).toBe(false);
    controller.abort();
    expect(await criFailure(call.done)).toMatchObject({ code: 1, codeName: 'CANCELLED' });
    const s = streams[0];
    if (s === undefined) throw new Error('no server stream');
    if (!s.closed) await new Promise((resolve) => s.once('close', resolve));
    expect(s.rstCode).toBe(http2.constants.NGHTTP2_CANCEL);
  });

  it('no response headers within the open deadline: DEADLINE_EXCEEDED', async () => {
    const { channel } = channelTo(() => undefined);
    const started = performance.now();
    const error = await criFailure(channel.serverStream('G', '/s/G', Buffer.alloc(0), { headersDeadlineMs: 150, onMessage: () => undefined }).done);
    expect(error).toMatchObject({ code: 4, detail: 'stream not open within the 150 ms deadline (client-side)' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('pause holds messages back until resume, and the end waits for them', async () => {
    const { channel } = channelTo((stream) => {
      respond(stream);
      stream.end(Buffer.concat(['a', 'b', 'c'].map((t) => encodeFrame(Buffer.from(t)))));
    });
    const got: string[] = [];
    const call = channel.serverStream('G', '/s/G', Buffer.alloc(0), {
      headersDeadlineMs: 1_000,
      onMessage: (m) => {
        got.push(m.toString());
        call.pause();
      },
    });
    let ended = false;
    void call.done.then(() => (ended = true));
    await tick(100);
    expect(got).toEqual(['a']);
    expect(ended).toBe(false);
    call.resume();
    await tick();
    expect(got).toEqual(['a', 'b']);
    call.resume();
    call.resume();
    await call.done;
    expect(got).toEqual(['a', 'b', 'c']);
  });
});

describe('GrpcCriClient.containerEvents', () => {
  const codec = ProtoCodec.create();
  const event = (id: string, type: string): Buffer =>
    encodeFrame(
      codec.encode('ContainerEventResponse', {
        containerId: id,
        containerEventType: type,
        createdAt: '1700000001000000000',
        podSandboxStatus: { id: 'sb', metadata: { name: 'p', uid: 'u', namespace: 'n' }, state: 'SANDBOX_READY' },
        containersStatuses: [{ id, state: 'CONTAINER_RUNNING' }],
      }),
    );

  it('asks /runtime.v1.RuntimeService/GetContainerEvents and decodes each event', async () => {
    const { channel, requests } = channelTo((stream) => {
      respond(stream);
      stream.end(Buffer.concat([event('c1', 'CONTAINER_STARTED_EVENT'), event('c2', 'CONTAINER_DELETED_EVENT')]));
    });
    const client = new GrpcCriClient(channel);
    const events: CriContainerEvent[] = [];
    await client.containerEvents({ openDeadlineMs: 1_000, signal: new AbortController().signal, onEvent: (e) => events.push(e) }).done;
    expect(requests[0]?.[':path']).toBe('/runtime.v1.RuntimeService/GetContainerEvents');
    expect(events.map((e) => [e.type, e.containerId, e.createdAt, e.pod?.uid])).toEqual([
      ['CONTAINER_STARTED_EVENT', 'c1', 1_700_000_001_000_000_000n, 'u'],
      ['CONTAINER_DELETED_EVENT', 'c2', 1_700_000_001_000_000_000n, 'u'],
    ]);
  });

  it('a message that does not decode ends the stream with INTERNAL, naming the problem', async () => {
    const { channel } = channelTo((stream) => {
      respond(stream);
      stream.write(Buffer.concat([event('c1', 'CONTAINER_STARTED_EVENT'), encodeFrame(Buffer.from([0x10, 0x09]))]));
    });
    const events: CriContainerEvent[] = [];
    const error = await criFailure(new GrpcCriClient(channel).containerEvents({ openDeadlineMs: 1_000, signal: new AbortController().signal, onEvent: (e) => events.push(e) }).done);
    expect(error).toMatchObject({ code: 13, method: 'GetContainerEvents' });
    expect(error.detail).toMatch(/container_event_type: unknown value 9/u);
    expect(events).toHaveLength(1);
  });
});
