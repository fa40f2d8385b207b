// Two connected in-memory Duplex streams (what one end writes, the other reads), so HTTP/2 client and
// server can run in one process without sockets.

import type * as http2 from 'node:http2';
import { Duplex } from 'node:stream';
import { H2Channel } from '../../src/infra/cri/grpc/h2Channel';

class End extends Duplex {
  peer: End | undefined;

  override _read(): void {
    // Data is pushed by the peer's writes.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.peer?.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer?.push(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.peer && !this.peer.destroyed) this.peer.destroy();
    callback(error);
  }
}

export function memoryPair(): [Duplex, Duplex] {
  const a = new End();
  const b = new End();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/** An H2Channel whose every connection is a fresh memoryPair served by `server`; `destroyEnds` ends them all. */
export function memoryChannelTo(server: http2.Http2Server): { channel: H2Channel; destroyEnds(): void } {
  const ends: Duplex[] = [];
  const channel = new H2Channel(async () => {
    const [client, serverSide] = memoryPair();
    ends.push(client, serverSide);
    server.emit('connection', serverSide);
    return client;
  }, 'memory');
  return { channel, destroyEnds: () => ends.forEach((e) => e.destroy()) };
}
