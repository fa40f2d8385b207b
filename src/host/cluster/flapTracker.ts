// Loads the events of nodes whose Ready condition changed within the flap window, so their rows can say
// "flapped 3× in 30 min". A node whose Ready condition has not changed for 30 minutes cannot have flapped
// in them, so a 5,000-node cluster costs a few requests, not 5,000. Each node is fetched again only when
// its transition time moves; every request has a deadline, and a failure is logged, never shown as a popup.

import type { KubeEvent } from '../../core/kube/objects';
import { FLAP_WINDOW_S } from '../../core/tree/flapHistory';
import type { NodeTreeModel } from '../../core/tree/nodeTreeModel';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../../infra/kube/gateway';
import { withDeadline } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';

export interface FlapTrackerOptions {
  deadlineMs?: number;
  /** Waits this long after a change before fetching: the kubelet records the event just after the status. */
  settleMs?: number;
  concurrency?: number;
  now?: () => number;
}

function describe(err: unknown, deadlineMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') return `no answer within ${deadlineMs / 1000}s`;
  return errorText(err);
}

export class FlapTracker {
  /** "context/node" → the Ready transition time the last fetch was for. */
  private readonly fetchedFor = new Map<string, string>();
  private readonly queue: Array<{ context: string; name: string; key: string }> = [];
  private running = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private readonly controller = new AbortController();
  private readonly subscription: { dispose(): void };
  private readonly deadlineMs: number;
  private readonly settleMs: number;
  private readonly concurrency: number;
  private readonly now: () => number;

  constructor(
    private readonly model: NodeTreeModel,
    private readonly gateway: () => KubeGateway | undefined,
    private readonly logger: Logger,
    options: FlapTrackerOptions = {},
  ) {
    this.deadlineMs = options.deadlineMs ?? 10_000;
    this.settleMs = options.settleMs ?? 1_500;
    this.concurrency = options.concurrency ?? 4;
    this.now = options.now ?? Date.now;
    this.subscription = model.onDidChange(() => this.schedule());
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.controller.abort();
    this.subscription.dispose();
    this.queue.length = 0;
  }

  private schedule(): void {
    if (this.disposed || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.scan();
    }, this.settleMs);
  }

  /** Queues every node whose Ready transition lies in the window and has not been fetched for. */
  private scan(): void {
    const since = this.now() - FLAP_WINDOW_S * 1000;
    const queued = new Set(this.queue.map((q) => `${q.context}/${q.name}`));
    for (const group of this.model.groups()) {
      for (const entry of group.rows()) {
        const ready = entry.node.status?.conditions?.find((c) => c.type === 'Ready');
        const transition = ready?.lastTransitionTime === undefined ? undefined : String(ready.lastTransitionTime);
        if (transition === undefined || !(Date.parse(transition) >= since)) continue;
        const id = `${entry.context}/${entry.name}`;
        if (this.fetchedFor.get(id) === transition || queued.has(id)) continue;
        this.queue.push({ context: entry.context, name: entry.name, key: transition });
      }
    }
    this.pump();
  }

  private pump(): void {
    while (!this.disposed && this.running < this.concurrency && this.queue.length > 0) {
      const next = this.queue.shift();
      if (next !== undefined) void this.fetch(next.context, next.name, next.key);
    }
  }

  private async fetch(context: string, name: string, key: string): Promise<void> {
    const kube = this.gateway();
    if (kube === undefined) return;
    this.running++;
    const id = `${context}/${name}`;
    this.fetchedFor.set(id, key);
    try {
      const signal = withDeadline(this.controller.signal, this.deadlineMs);
      const events: KubeEvent[] = await kube.listNodeEvents(context, name, signal);
      if (!this.disposed) this.model.setReadyEvents(context, name, events);
    } catch (err) {
      if (!this.disposed) {
        // Not cached as done: the next change of this node tries again.
        this.fetchedFor.delete(id);
        this.logger.warn(`events of ${id} (for its flap count): ${describe(err, this.deadlineMs)}`);
      }
    } finally {
      this.running--;
      this.pump();
    }
  }
}
