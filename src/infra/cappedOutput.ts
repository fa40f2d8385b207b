// Collects a command's output up to a byte cap: what comes after is dropped and `truncated` is set, so a
// runaway command cannot fill memory. One stream each for stdout and stderr.

export class CappedOutput {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    const room = this.cap - this.size;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  /** The kept bytes, with `tail` (bytes held back by the caller) after them. */
  text(tail: readonly Buffer[] = []): string {
    return Buffer.concat([...this.chunks, ...tail]).toString('utf8');
  }
}
