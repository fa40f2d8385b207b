// Runs an async function over items with at most `limit` in flight, keeping result order. Per-pod and
// per-container status calls go in parallel (sequential ones cost one RTT each over SSH: 84 calls at
// 50 ms RTT took 4.4 s instead of 0.14 s) but bounded, so a large node does not flood the runtime.

export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

export async function boundedMap<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<Settled<R>[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  const results: Settled<R>[] = new Array<Settled<R>>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      try {
        results[index] = { ok: true, value: await fn(items[index] as T, index) };
      } catch (error) {
        results[index] = { ok: false, error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
