// Finding lines, written in batches: each write to stdout is a system call, and one per finding of a 1 GB
// journal cost more than the file's anchor scan (bench/README.md). A
// batch is written once the next line would not fit in its 64 KiB or it is 50 ms old when a chunk ends,
// so findings still appear as the file is read; from standard input (possibly a live `journalctl -f`)
// after every chunk. Lines are encoded straight into one buffer that is reused, and the stream gets a
// copy of its bytes: joining them into one string and encoding that made two objects of a batch's size
// each time (the string twice as big when a message holds a non-Latin-1 character such as "→"), and
// memory touched for the first time is dear on a VM that backs it lazily.

import type { CliIo } from '../io';

const BATCH_BYTES = 64 * 1024;
const BATCH_MS = 50;

export class OutputBatch {
  private readonly buffer = Buffer.allocUnsafe(BATCH_BYTES);
  private used = 0;
  private since = 0;

  constructor(
    private readonly io: CliIo,
    private readonly live: boolean,
  ) {}

  add(line: string): void {
    // A UTF-16 code unit takes at most three bytes in UTF-8 (a surrogate pair four, for two units).
    if (3 * line.length > BATCH_BYTES - this.used) {
      this.flush();
      if (3 * line.length > BATCH_BYTES) {
        this.io.stdout.write(line);
        return;
      }
    }
    if (this.used === 0) this.since = performance.now();
    this.used += this.buffer.write(line, this.used, 'utf8');
  }

  /** After each chunk of input: writes the batch if it is due. */
  chunkDone(): void {
    if (this.used > 0 && (this.live || performance.now() - this.since >= BATCH_MS)) this.flush();
  }

  flush(): void {
    if (this.used === 0) return;
    // A copy: a stream may hold on to what it was given after write() returns.
    this.io.stdout.write(Buffer.from(this.buffer.subarray(0, this.used)));
    this.used = 0;
  }
}
