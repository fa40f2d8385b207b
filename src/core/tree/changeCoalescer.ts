// Turns a burst of model changes into few, targeted view refreshes. A 5,000-node initial list becomes one
// refresh; a single node flip reaches the view after `delayMs` (never later than `maxDelayMs`).

import type { ContextNodes, NodeEntry } from './contextNodes';
import type { ModelChange } from './nodeTreeModel';

export interface RefreshBatch {
  /** Refresh everything (the context list changed). */
  root: boolean;
  contexts: ContextNodes[];
  /** Rows to refresh on their own; never one whose context is already in `contexts`. */
  entries: NodeEntry[];
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ChangeCoalescer {
  private root = false;
  private readonly contexts = new Set<ContextNodes>();
  private readonly entries = new Set<NodeEntry>();
  private timer: unknown;
  private firstPendingAt: number | undefined;

  constructor(
    private readonly flushTo: (batch: RefreshBatch) => void,
    private readonly options: { delayMs: number; maxDelayMs: number; timers?: Timers; clock?: () => number },
  ) {}

  push(change: ModelChange): void {
    switch (change.scope) {
      case 'root':
        this.root = true;
        break;
      case 'context':
        this.contexts.add(change.context);
        break;
      case 'node':
        this.entries.add(change.entry);
        break;
    }
    this.schedule();
  }

  /** Emits whatever is pending now. */
  flush(): void {
    this.cancelTimer();
    this.firstPendingAt = undefined;
    if (!this.root && this.contexts.size === 0 && this.entries.size === 0) return;
    const refreshed = new Set([...this.contexts].map((c) => c.name));
    const batch: RefreshBatch = {
      root: this.root,
      contexts: this.root ? [] : [...this.contexts],
      entries: this.root ? [] : [...this.entries].filter((e) => !refreshed.has(e.context)),
    };
    this.root = false;
    this.contexts.clear();
    this.entries.clear();
    this.flushTo(batch);
  }

  dispose(): void {
    this.cancelTimer();
    this.contexts.clear();
    this.entries.clear();
    this.root = false;
  }

  private schedule(): void {
    const timers = this.options.timers ?? realTimers;
    const now = (this.options.clock ?? Date.now)();
    this.firstPendingAt ??= now;
    const deadline = this.firstPendingAt + this.options.maxDelayMs;
    const wait = Math.max(0, Math.min(this.options.delayMs, deadline - now));
    this.cancelTimer();
    this.timer = timers.set(() => this.flush(), wait);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) (this.options.timers ?? realTimers).clear(this.timer);
    this.timer = undefined;
  }
}
