// A journal file as a ByteSource (core/journal/journalFile.ts): synchronous positional reads through a few
// 64 KiB windows, so reading an entry and its data objects, which sit close together, costs one read, and
// a 128 MB archived file is never held in memory.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { ByteSource } from '../../core/journal/journalFile';

const WINDOW = 64 * 1024;
const WINDOWS = 16;

export class FileByteSource implements ByteSource {
  readonly size: number;
  private readonly fd: number;
  /** Window start → bytes, most recently used last. */
  private readonly windows = new Map<number, Uint8Array>();

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    try {
      this.size = fstatSync(this.fd).size;
    } catch (err) {
      closeSync(this.fd);
      throw err;
    }
  }

  private window(start: number): Uint8Array {
    const hit = this.windows.get(start);
    if (hit !== undefined) {
      this.windows.delete(start);
      this.windows.set(start, hit);
      return hit;
    }
    const buf = new Uint8Array(Math.min(WINDOW, this.size - start));
    let got = 0;
    while (got < buf.byteLength) {
      const n = readSync(this.fd, buf, got, buf.byteLength - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const bytes = buf.subarray(0, got);
    if (this.windows.size >= WINDOWS) this.windows.delete(this.windows.keys().next().value as number);
    this.windows.set(start, bytes);
    return bytes;
  }

  read(offset: number, length: number): Uint8Array {
    const end = Math.min(offset + length, this.size);
    if (end <= offset) return new Uint8Array(0);
    const first = Math.floor(offset / WINDOW) * WINDOW;
    if (end <= first + WINDOW) {
      const w = this.window(first);
      return w.subarray(offset - first, Math.min(end - first, w.byteLength));
    }
    // Spans windows (a long message): one read of its own.
    const buf = new Uint8Array(end - offset);
    let got = 0;
    while (got < buf.byteLength) {
      const n = readSync(this.fd, buf, got, buf.byteLength - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  }

  close(): void {
    closeSync(this.fd);
  }
}
