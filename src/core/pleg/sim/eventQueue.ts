// A binary min-heap of timed callbacks: the simulator's scheduler. Ties run in insertion order, so a
// scenario replays identically however its processes interleave.

interface Entry {
  at: number;
  seq: number;
  run: (at: number) => void;
}

export class EventQueue {
  private readonly heap: Entry[] = [];
  private seq = 0;

  get size(): number {
    return this.heap.length;
  }

  schedule(at: number, run: (at: number) => void): void {
    if (!Number.isFinite(at)) throw new RangeError(`cannot schedule at ${at}`);
    const e: Entry = { at, seq: this.seq++, run };
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p] as Entry)) break;
      h[i] = h[p] as Entry;
      i = p;
    }
    h[i] = e;
  }

  /** Removes and returns the earliest entry. */
  pop(): Entry | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (top === undefined || last === undefined || h.length === 0) return top;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const r = l + 1;
      const c = r < h.length && before(h[r] as Entry, h[l] as Entry) ? r : l;
      if (!before(h[c] as Entry, last)) break;
      h[i] = h[c] as Entry;
      i = c;
    }
    h[i] = last;
    return top;
  }

  peekTime(): number | undefined {
    return this.heap[0]?.at;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}
