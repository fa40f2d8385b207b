// The in-memory text behind read-only virtual documents (CRI snapshots, diagnosis reports): keyed by the
// document's URI string, only the newest `capacity` kept, so a long session does not keep every report.

export class BoundedContents {
  private readonly contents = new Map<string, string>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`BoundedContents capacity must be a positive integer, got ${capacity}`);
  }

  /** Stores `text` under `key` as the newest entry; returns the keys evicted to stay within capacity. */
  set(key: string, text: string): string[] {
    this.contents.delete(key);
    this.contents.set(key, text);
    const evicted: string[] = [];
    while (this.contents.size > this.capacity) {
      const oldest = this.contents.keys().next().value;
      if (oldest === undefined) break;
      this.contents.delete(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  get(key: string): string | undefined {
    return this.contents.get(key);
  }

  get size(): number {
    return this.contents.size;
  }

  clear(): void {
    this.contents.clear();
  }
}
