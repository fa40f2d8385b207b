// GenericPLEG (pkg/kubelet/pleg/generic.go) on a virtual clock: relist, pod records, reinspection, the
// pod cache writes, the event channel and Healthy(), with the per-version differences of profiles.ts.

import { formatGoDurationMs, MAX_GO_DURATION_NS, formatGoDuration } from '../util/goDuration';
import { appendPodEvents } from './events';
import { msToStamp } from './stamp';
import type { EventChannel } from './channel';
import type { PodCache } from './podCache';
import type { PlegProfile } from './profiles';
import { PLEG_CONSTANTS } from './profiles';
import type { CacheStamp, PlegClock, PlegEvent, PlegRuntime, PodStatus, RelistReport, RuntimePod } from './types';

/** Shared "is EventedPLEG in use" flag (a package global in the kubelet). */
export interface EventedUsage {
  inUse: boolean;
}

export interface GenericPlegObserver {
  /** A pod was passed to GetPodStatus. */
  onInspect?(uid: string): void;
  /** An event was offered to the channel; `delivered` is false when it was discarded. */
  onSend?(event: PlegEvent, delivered: boolean): void;
}

export interface GenericPlegOptions {
  profile: PlegProfile;
  runtime: PlegRuntime;
  clock: PlegClock;
  channel: EventChannel;
  /** null: built without a pod cache (allowed up to 1.31; 1.32+ throws, as the kubelet panics). */
  cache: PodCache | null;
  relistPeriodMs?: number;
  relistThresholdMs?: number;
  /** The EventedPLEG feature gate (build the cache with `rejectOlder` equal to it). */
  eventedGate?: boolean;
  eventedUsage?: EventedUsage;
  observer?: GenericPlegObserver;
}

export interface PodRecord {
  readonly uid: string;
  old: RuntimePod | null;
  current: RuntimePod | null;
}

export interface HealthResult {
  healthy: boolean;
  error?: string;
}

interface LiveRecord extends PodRecord {
  /** Removed from the record map (the pod vanished); a later pod with the same UID gets a new record. */
  dropped: boolean;
}

interface WorkItem {
  uid: string;
  events: PlegEvent[];
}

/** A relist in progress; only survives a call when a ≤1.13 blocking send is stuck. */
interface RelistProgress {
  start: number;
  report: RelistReport;
  work: WorkItem[];
  idx: number;
  sending: PlegEvent[] | null;
  sendIdx: number;
  needsReinspection: Map<string, RuntimePod>;
}

export class PlegConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlegConfigurationError';
  }
}

const NO_EVENTS: PlegEvent[] = [];

export class GenericPleg {
  readonly profile: PlegProfile;
  readonly channel: EventChannel;
  readonly cache: PodCache | null;
  observer: GenericPlegObserver | undefined;
  private readonly runtime: PlegRuntime;
  private readonly clock: PlegClock;
  private readonly eventedGate: boolean;
  private readonly eventedUsage: EventedUsage;
  private readonly records = new Map<string, LiveRecord>();
  private podsToReinspect = new Map<string, RuntimePod>();
  private relistTime: number | null = null;
  private periodMs: number;
  private thresholdMs: number;
  private pending: RelistProgress | null = null;
  private readonly scratch: PlegEvent[] = [];
  private readonly recordsByIndex: LiveRecord[] = [];

  constructor(opts: GenericPlegOptions) {
    if (opts.cache === null && !opts.profile.cacheOptional) {
      throw new PlegConfigurationError(`kubelet ${opts.profile.id} requires a pod cache: constructing GenericPLEG without one panics`);
    }
    if (opts.cache !== null && opts.cache.rejectOlder !== (opts.eventedGate ?? false)) {
      throw new PlegConfigurationError('the pod cache must reject older writes exactly when the EventedPLEG gate is on');
    }
    this.profile = opts.profile;
    this.runtime = opts.runtime;
    this.clock = opts.clock;
    this.channel = opts.channel;
    this.cache = opts.cache;
    this.eventedGate = opts.eventedGate ?? false;
    this.eventedUsage = opts.eventedUsage ?? { inUse: false };
    this.observer = opts.observer;
    this.periodMs = opts.relistPeriodMs ?? PLEG_CONSTANTS.relistPeriodMs;
    this.thresholdMs = opts.relistThresholdMs ?? PLEG_CONSTANTS.relistThresholdMs;
  }

  /** Start of the last successful relist (ms), or null if none succeeded. */
  get lastRelistMs(): number | null {
    return this.relistTime;
  }

  get relistPeriodMs(): number {
    return this.periodMs;
  }

  get relistThresholdMs(): number {
    return this.thresholdMs;
  }

  /** Kubelet ≤1.13: the relist stuck in a channel send, if any (its report keeps updating). */
  get blockedRelist(): RelistReport | null {
    return this.pending?.report ?? null;
  }

  /** Pods whose inspection failed and will be inspected again next relist (sorted). */
  reinspectionSet(): string[] {
    return [...this.podsToReinspect.keys()].sort();
  }

  podRecords(): ReadonlyMap<string, Readonly<PodRecord>> {
    return this.records;
  }

  /** Update(): 1.26+ only (EventedPLEG switches the generic PLEG to 300 s / 10 min and back). */
  updateRelistDuration(periodMs: number, thresholdMs: number): void {
    if (!this.profile.updatableRelistDuration) {
      throw new PlegConfigurationError(`kubelet ${this.profile.id} has a fixed relist period and threshold`);
    }
    if (!(periodMs > 0) || !(thresholdMs > 0)) throw new RangeError('relist period and threshold must be positive');
    this.periodMs = periodMs;
    this.thresholdMs = thresholdMs;
  }

  /** Healthy() with the kubelet's exact error texts. */
  healthy(): HealthResult {
    const threshold = formatGoDurationMs(this.thresholdMs);
    if (this.relistTime === null) {
      if (this.profile.yetToBeSuccessfulText) return { healthy: false, error: 'pleg has yet to be successful' };
      return {
        healthy: false,
        error: `pleg was last seen active ${formatGoDuration(MAX_GO_DURATION_NS)} ago; threshold is ${threshold}`,
      };
    }
    const elapsed = this.clock.now() - this.relistTime;
    if (elapsed > this.thresholdMs) {
      return { healthy: false, error: `pleg was last seen active ${formatGoDurationMs(elapsed)} ago; threshold is ${threshold}` };
    }
    return { healthy: true };
  }

  /** The syncLoop side: reads up to `max` events. A relist stuck in a blocking send then continues. */
  receive(max?: number): PlegEvent[] {
    const out = this.channel.receive(max);
    if (this.pending !== null && out.length > 0) this.resume(this.pending);
    return out;
  }

  /** Like receive() without returning the events; returns how many were read. */
  drain(max?: number): number {
    const n = this.channel.drain(max);
    if (this.pending !== null && n > 0) this.resume(this.pending);
    return n;
  }

  /** One relist at the clock's current time. */
  relist(): RelistReport {
    if (this.pending !== null) {
      throw new PlegConfigurationError('the previous relist is still blocked in a channel send (kubelet ≤1.13); drain the channel first');
    }
    const start = this.clock.now();
    const report: RelistReport = { startMs: start, ok: true, generated: 0, delivered: 0, discarded: 0, inspected: [], blocked: false };
    const listed = this.runtime.getPods();
    if (!listed.ok) {
      // PR #45496: no timestamp update, no events, reinspection set kept.
      report.ok = false;
      report.error = listed.error;
      return report;
    }
    this.relistTime = start;
    this.setCurrent(listed.pods);

    const work: WorkItem[] = [];
    const scratch = this.scratch;
    const singlePass = !this.profile.twoPassReinspection;
    const reinspect = singlePass && this.podsToReinspect.size > 0 ? this.podsToReinspect : null;
    // values() rather than entries(): no per-pod tuple allocation on the hot path.
    for (const rec of this.records.values()) {
      if (rec.old === rec.current) {
        // Same runtime object (or both gone): nothing to diff.
        if (reinspect !== null && reinspect.has(rec.uid)) work.push({ uid: rec.uid, events: NO_EVENTS });
        continue;
      }
      const n = appendPodEvents(scratch, rec.uid, rec.old, rec.current);
      if (n > 0) {
        work.push({ uid: rec.uid, events: scratch.slice() });
        scratch.length = 0;
      } else if (reinspect !== null && reinspect.has(rec.uid)) work.push({ uid: rec.uid, events: NO_EVENTS });
    }
    scratch.length = 0;
    const progress: RelistProgress = { start, report, work, idx: 0, sending: null, sendIdx: 0, needsReinspection: new Map() };
    this.resume(progress);
    return report;
  }

  private setCurrent(pods: readonly RuntimePod[]): void {
    for (const rec of this.records.values()) rec.current = null;
    // Runtimes list pods in a stable order, so the record at the same index as last time is usually the
    // right one: that saves a hash lookup per pod per relist. A record dropped since is never reused.
    const byIndex = this.recordsByIndex;
    for (let i = 0; i < pods.length; i++) {
      const pod = pods[i] as RuntimePod;
      const guess = byIndex[i];
      let rec = guess !== undefined && !guess.dropped && guess.uid === pod.uid ? guess : this.records.get(pod.uid);
      if (rec === undefined) {
        rec = { uid: pod.uid, old: null, current: pod, dropped: false };
        this.records.set(pod.uid, rec);
      } else rec.current = pod;
      byIndex[i] = rec;
    }
    byIndex.length = pods.length;
  }

  private resume(p: RelistProgress): void {
    this.pending = null;
    const report = p.report;
    while (p.idx < p.work.length) {
      if (p.sending === null) {
        const toSend = this.inspectAndAdvance(p.work[p.idx] as WorkItem, p);
        if (toSend === null) {
          p.idx++;
          continue;
        }
        p.sending = toSend;
        p.sendIdx = 0;
        report.generated += toSend.length;
      }
      const sending = p.sending;
      while (p.sendIdx < sending.length) {
        const ev = sending[p.sendIdx] as PlegEvent;
        if (this.channel.trySend(ev)) {
          report.delivered++;
          this.observer?.onSend?.(ev, true);
        } else if (this.profile.blockingSend) {
          report.blocked = true;
          this.pending = p;
          return;
        } else {
          report.discarded++;
          this.observer?.onSend?.(ev, false);
        }
        p.sendIdx++;
      }
      p.sending = null;
      p.idx++;
    }
    report.blocked = false;
    this.finish(p);
  }

  /** Inspects the pod if there is a cache; returns the events to send, or null to skip the pod. */
  private inspectAndAdvance(item: WorkItem, p: RelistProgress): PlegEvent[] | null {
    const { uid } = item;
    const rec = this.records.get(uid);
    if (rec === undefined) return null;
    const pod = rec.current;
    if (this.cache !== null) {
      const r = this.updateCache(this.cache, pod, uid, p.report);
      if (r.err !== null) {
        // The record is not advanced, so the same diff is computed again next relist.
        if (pod !== null) p.needsReinspection.set(uid, pod);
        return null;
      }
      if (this.profile.twoPassReinspection) this.podsToReinspect.delete(uid);
      if (this.eventedGate && !r.updated) return null;
    }
    if (rec.current === null) {
      this.records.delete(uid);
      rec.dropped = true;
    } else {
      rec.old = rec.current;
      rec.current = null;
    }
    let out: PlegEvent[] | null = null;
    for (let i = 0; i < item.events.length; i++) {
      const ev = item.events[i] as PlegEvent;
      // ContainerChanged is unreliable and nobody consumes it: filtered before the send.
      if (ev.type === 'ContainerChanged') {
        if (out === null) out = item.events.slice(0, i);
      } else if (out !== null) out.push(ev);
    }
    return out ?? item.events;
  }

  private finish(p: RelistProgress): void {
    const cache = this.cache;
    if (cache !== null) {
      if (this.profile.twoPassReinspection) {
        // ≤1.31: last relist's failures, with the pod object saved then (possibly stale or vanished).
        for (const [uid, stalePod] of this.podsToReinspect) {
          const r = this.updateCache(cache, stalePod, uid, p.report);
          if (r.err !== null) p.needsReinspection.set(uid, stalePod);
        }
      }
      cache.updateTime(p.start);
    }
    this.podsToReinspect = p.needsReinspection;
  }

  private updateCache(cache: PodCache, pod: RuntimePod | null, uid: string, report: RelistReport): { err: string | null; updated: boolean } {
    if (pod === null) {
      // The pod has no visible containers any more.
      cache.delete(uid);
      return { err: null, updated: true };
    }
    const now: CacheStamp = msToStamp(this.clock.now());
    report.inspected.push(uid);
    this.observer?.onInspect?.(uid);
    const r = this.runtime.getPodStatus(pod);
    let status: PodStatus | null = null;
    let err: string | null = null;
    if (r.ok) {
      const ips = cache.retainedIps(uid, r.status);
      status = ips === r.status.ips ? r.status : { ...r.status, ips };
    } else {
      err = r.error;
    }
    // With EventedPLEG in use the cache time is the runtime's status timestamp, not the clock; a failed
    // GetPodStatus carries an empty status, so its timestamp is the zero time.
    const ts = status === null ? null : status.timestamp;
    const stamp = this.eventedGate && this.eventedUsage.inUse ? (ts === null ? null : msToStamp(ts)) : now;
    return { err, updated: cache.set(uid, status, err, stamp) };
  }
}
