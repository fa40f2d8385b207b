// The 1.36 oracle harness' `orderSensitive` hint (test/fixtures/pleg-oracle/README.md, "Harness conventions"):
// a step is order-sensitive when its discards hit a global relist in which two or more pods generated
// events, when a consume-N read stops inside one step's block of events from two or more pods, or when it
// reads events made order-dependent earlier. The kubelet walks its pod records in Go map order, so within
// such a block which events got in, and which the consumer saw first, is not fixed.
// The tracker mirrors the event channel with one tag per queued event.

interface EventTag {
  block: number;
  /** The block's events came from two or more pods of one global relist. */
  multi: boolean;
  /** Which event this is (or whether it is queued at all) depended on the order between pods. */
  dependent: boolean;
}

interface OpenBlock {
  id: number;
  global: boolean;
  tags: EventTag[];
  pods: Set<string>;
  discarded: number;
}

export class ChannelOrderTracker {
  private queued: EventTag[] = [];
  private seq = 0;
  private open: OpenBlock | null = null;
  private stepSensitive = false;

  /** Starts a step: the hint is per step. */
  beginStep(): void {
    this.stepSensitive = false;
  }

  /**
   * Starts the block of one PLEG operation. Only a global relist walks several pods in map order; a per-pod
   * relist, a CRI event or a consumer read have one fixed order.
   */
  beginBlock(global: boolean): void {
    this.endBlock();
    this.open = { id: ++this.seq, global, tags: [], pods: new Set(), discarded: 0 };
  }

  /** An event offered to the channel (delivered or discarded). */
  onSend(pod: string, delivered: boolean): void {
    if (this.open === null) this.beginBlock(false);
    const block = this.open as OpenBlock;
    block.pods.add(pod);
    if (!delivered) {
      block.discarded++;
      return;
    }
    const tag: EventTag = { block: block.id, multi: false, dependent: false };
    block.tags.push(tag);
    this.queued.push(tag);
  }

  /** Closes the open block: a global relist that dropped events of two or more pods taints what got in. */
  endBlock(): void {
    const block = this.open;
    this.open = null;
    if (block === null || !block.global || block.pods.size < 2) return;
    for (const tag of block.tags) tag.multi = true;
    if (block.discarded > 0) {
      this.stepSensitive = true;
      for (const tag of block.tags) tag.dependent = true;
    }
  }

  /** The consumer read `count` events; `partial` is a consume-N read (not "all"). */
  onRead(count: number, partial: boolean): void {
    this.endBlock();
    const read = this.queued.splice(0, count);
    if (read.some((t) => t.dependent)) this.stepSensitive = true;
    const last = read[read.length - 1];
    const next = this.queued[0];
    if (partial && last !== undefined && next !== undefined && last.multi && last.block === next.block) {
      // The read stopped inside a multi-pod block: which of its events remain depends on the pod order.
      this.stepSensitive = true;
      for (const tag of this.queued) if (tag.block === next.block) tag.dependent = true;
    }
  }

  /** Ends the step and says whether it was order-sensitive. */
  endStep(): boolean {
    this.endBlock();
    return this.stepSensitive;
  }
}
