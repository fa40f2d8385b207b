// Pod counts per node, fetched on hover with a deadline and kept for a minute. Concurrent hovers of the
// same node share one request; failures are not cached, so the next hover tries again.

import type { PodCount } from '../../core/tree/nodeTooltip';
import { withDeadline } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';

const TTL_MS = 60_000;

export class PodCountCache {
  private readonly values = new Map<string, { count: number; at: number }>();
  private readonly inflight = new Map<string, Promise<number>>();

  constructor(
    private readonly fetch: (context: string, node: string, signal: AbortSignal) => Promise<number>,
    private readonly deadlineMs = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  peek(context: string, node: string): PodCount {
    const hit = this.values.get(key(context, node));
    return hit !== undefined && this.clock() - hit.at < TTL_MS ? { kind: 'count', count: hit.count } : { kind: 'unknown' };
  }

  async get(context: string, node: string, signal?: AbortSignal): Promise<PodCount> {
    const cached = this.peek(context, node);
    if (cached.kind === 'count') return cached;
    const k = key(context, node);
    let pending = this.inflight.get(k);
    if (pending === undefined) {
      pending = this.fetch(context, node, withDeadline(signal, this.deadlineMs)).finally(() => this.inflight.delete(k));
      this.inflight.set(k, pending);
    }
    try {
      const count = await pending;
      this.values.set(k, { count, at: this.clock() });
      return { kind: 'count', count };
    } catch (err) {
      return { kind: 'error', message: describeFailure(err, this.deadlineMs) };
    }
  }

  clear(): void {
    this.values.clear();
  }
}

function key(context: string, node: string): string {
  return JSON.stringify([context, node]);
}

export function describeFailure(err: unknown, deadlineMs: number): string {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return err.name === 'TimeoutError' ? `no answer within ${deadlineMs / 1000}s` : 'cancelled';
  }
  return errorText(err);
}
