// Two connected in-memory Duplex streams (what one end writes, the other reads), so HTTP/2 client and
// server can run in one process without sockets.

import { Duplex } from 'node:stream';

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
