// The kubelet's pod cache (pkg/kubelet/container/cache.go), reduced to what PLEG reads and writes.

import type { CacheStamp, PodStatus } from './types';

export interface PodCacheEntry {
  status: PodStatus | null;
  err: string | null;
  modified: CacheStamp;
  /**
   * 1.36+ Cache.SetObservedTime: when a per-pod relist last saw this pod unchanged (null: not since the
   * entry was written; every Set starts a fresh entry).
   */
  observed: CacheStamp;
}

/** Go's `a.After(b)` for cache stamps; the zero time (null) is before everything. */
export function stampAfter(a: CacheStamp, b: CacheStamp): boolean {
  if (a === null) return false;
  if (b === null) return true;
  return a > b;
}

export interface PodCacheObserver {
  onSet?(uid: string, stamp: CacheStamp, updated: boolean, err: string | null): void;
  onDelete?(uid: string): void;
  /** SetObservedTime; `inCache` is false when there was no entry to mark. */
  onObserved?(uid: string, stamp: CacheStamp, inCache: boolean): void;
}

export class PodCache {
  private readonly entries = new Map<string, PodCacheEntry>();
  /** The global time pod workers wait on; null until the first UpdateTime. */
  private globalTime: number | null = null;
  observer: PodCacheObserver | undefined;

  /**
   * @param rejectOlder the EventedPLEG feature gate: when on, a write older than the cached entry is
   *   refused (returns false). With the gate off every write is accepted.
   */
  constructor(readonly rejectOlder: boolean) {}

  get(uid: string): PodCacheEntry | undefined {
    return this.entries.get(uid);
  }

  set(uid: string, status: PodStatus | null, err: string | null, stamp: CacheStamp): boolean {
    if (this.rejectOlder) {
      const cached = this.entries.get(uid);
      if (cached !== undefined && stampAfter(cached.modified, stamp)) {
        this.observer?.onSet?.(uid, stamp, false, err);
        return false;
      }
    }
    this.entries.set(uid, { status, err, modified: stamp, observed: null });
    this.observer?.onSet?.(uid, stamp, true, err);
    return true;
  }

  delete(uid: string): void {
    this.entries.delete(uid);
    this.observer?.onDelete?.(uid);
  }

  /**
   * Cache.SetObservedTime (1.36+, called by relistPod after its reconcile): records that the pod was seen
   * at `stamp` even when nothing was written, so a pod worker waiting for a status newer than its last sync
   * is released without a global relist. A pod without an entry gets none (oracle rnd-od-011), and the next Set
   * drops the observed time (od-10). Whether an older stamp may replace a newer one is not exercised by the
   * corpus; the model replaces.
   */
  setObservedTime(uid: string, stamp: CacheStamp): void {
    const e = this.entries.get(uid);
    if (e !== undefined) e.observed = stamp;
    this.observer?.onObserved?.(uid, stamp, e !== undefined);
  }

  updateTime(ms: number): void {
    this.globalTime = ms;
  }

  get timeMs(): number | null {
    return this.globalTime;
  }

  uids(): IterableIterator<string> {
    return this.entries.keys();
  }

  /**
   * IP retention (generic.go getPodIPs): a status without IPs and without a READY sandbox keeps the
   * cached IPs, unless the cached entry holds an error.
   */
  retainedIps(uid: string, status: PodStatus): readonly string[] {
    if (status.ips.length !== 0) return status.ips;
    const old = this.entries.get(uid);
    if (old === undefined || old.err !== null || old.status === null || old.status.ips.length === 0) return [];
    for (const s of status.sandboxes) if (s.ready) return status.ips;
    return old.status.ips;
  }
}
