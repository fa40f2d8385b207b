// The buffered Go channel between PLEG and the kubelet's syncLoop, as a fixed-capacity FIFO ring.

import type { PlegEvent } from './types';

export class EventChannel {
  private readonly buf: (PlegEvent | undefined)[];
  private head = 0;
  private len = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`channel capacity must be a non-negative integer, got ${capacity}`);
    this.buf = new Array<PlegEvent | undefined>(capacity);
  }

  get length(): number {
    return this.len;
  }

  isFull(): boolean {
    return this.len >= this.capacity;
  }

  /** Go's `select { case ch <- e: default: }`: false when the channel is full. */
  trySend(event: PlegEvent): boolean {
    if (this.len >= this.capacity) return false;
    this.buf[(this.head + this.len) % this.capacity] = event;
    this.len++;
    return true;
  }

  /** Takes up to `max` events (all when omitted), oldest first. */
  receive(max = Number.POSITIVE_INFINITY): PlegEvent[] {
    const n = Math.min(Math.max(0, max), this.len);
    const out: PlegEvent[] = new Array<PlegEvent>(n);
    for (let i = 0; i < n; i++) {
      out[i] = this.buf[this.head] as PlegEvent;
      this.buf[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
    }
    this.len -= n;
    return out;
  }

  /** Drops up to `max` events without materialising them (a consumer whose reads nobody inspects). */
  drain(max = Number.POSITIVE_INFINITY): number {
    const n = Math.min(Math.max(0, max), this.len);
    for (let i = 0; i < n; i++) {
      this.buf[this.head] = undefined;
      this.head = (this.head + 1) % this.capacity;
    }
    this.len -= n;
    return n;
  }

  /** The queued events, oldest first, without removing them. */
  peekAll(): PlegEvent[] {
    const out: PlegEvent[] = [];
    for (let i = 0; i < this.len; i++) out.push(this.buf[(this.head + i) % this.capacity] as PlegEvent);
    return out;
  }
}
