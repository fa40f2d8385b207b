// GenericPLEG (pkg/kubelet/pleg/generic.go) on a virtual clock: relist, pod records, reinspection, the
// pod cache writes, the event channel and Healthy(), with the per-version differences of profiles.ts, and
// (1.36+) the on-demand per-pod relist: RequestRelist's queue, the worker loop's request branch and
// relistPod, which share the per-pod reconcile code with the global relist.

import { formatGoDurationMs, MAX_GO_DURATION_NS, formatGoDuration } from '../util/goDuration';
import { appendPodEvents } from './events';
import { msToStamp } from './stamp';
import type { EventChannel } from './channel';
import type { PodCache } from './podCache';
import type { PlegProfile } from './profiles';
import { PLEG_CONSTANTS, RELIST_REQUEST_QUEUE_CAPACITY } from './profiles';
import type { CacheStamp, PlegClock, PlegEvent, PlegRuntime, PodRelistReport, PodStatus, RelistReport, RuntimePod } from './types';

/** Shared "is EventedPLEG in use" flag (a package global in the kubelet). */
export interface EventedUsage {
  inUse: boolean;
}

export interface GenericPlegObserver {
  /** A pod was passed to GetPodStatus. */
  onInspect?(uid: string): void;
  /** An event was offered to the channel; `delivered` is false when it was discarded. */
  onSend?(event: PlegEvent, delivered: boolean): void;
  /** A pod was passed to GetPod (1.36+ per-pod relist). */
  onGetPod?(uid: string): void;
}

/** What RequestRelist did with one request. */
export type RelistRequestOutcome = 'accepted' | 'dropped' | 'ignored';

/** One queued on-demand relist request (generic.go relistRequest). */
export interface RelistRequest {
  uid: string;
  requestedMs: number;
}

/** One pass of the worker loop's request branch: the request, and whether it ran or was stale. */
export interface ServedRelistRequest extends RelistRequest {
  ran: boolean;
  /** Present when it ran. */
  report?: PodRelistReport;
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
  /** Feature gate PLEGOnDemandRelist (1.36+ only; off unless given). */
  onDemandRelist?: boolean;
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

/** What one pod's inspection reports into: a global relist's report or a per-pod relist's. */
interface InspectionTally {
  inspected: string[];
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
  /** pod.Timestamp of this relist's pods (1.36+ cache stamp): the clock just before GetPods. */
  podReadMs: number;
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
  private readonly onDemandGate: boolean;
  /** RequestRelist's buffered channel (FIFO, 200 slots, no de-duplication). */
  private readonly relistRequests: RelistRequest[] = [];

  constructor(opts: GenericPlegOptions) {
    if (opts.onDemandRelist === true && opts.profile.onDemandRelist === null) {
      throw new PlegConfigurationError(`kubelet ${opts.profile.id} has no on-demand relist (PLEGOnDemandRelist arrived in 1.36)`);
    }
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
    this.onDemandGate = opts.onDemandRelist ?? false;
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
    const progress: RelistProgress = { start, report, work, idx: 0, sending: null, sendIdx: 0, needsReinspection: new Map(), podReadMs: start };
    this.resume(progress);
    return report;
  }

  /** The PLEGOnDemandRelist gate as this instance was built (always false before 1.36). */
  get onDemandRelistEnabled(): boolean {
    return this.onDemandGate;
  }

  /** Queued on-demand relist requests, oldest first. */
  relistQueue(): readonly RelistRequest[] {
    return this.relistRequests;
  }

  /**
   * RequestRelist(podUID) at the clock's time (1.36+; the kubelet calls it after a SyncPod that changed
   * something). A no-op with the gate off; otherwise a non-blocking send into a 200-slot channel: dropped
   * when full, never de-duplicated. (The kubelet stamps the request with the wall clock and the PLEG with its
   * own clock; both are the real clock in a kubelet, so the model uses its one clock.)
   */
  requestRelist(uid: string): RelistRequestOutcome {
    if (this.profile.onDemandRelist === null) {
      throw new PlegConfigurationError(`kubelet ${this.profile.id} has no RequestRelist (PLEGOnDemandRelist arrived in 1.36)`);
    }
    if (!this.onDemandGate) return 'ignored';
    if (this.relistRequests.length >= RELIST_REQUEST_QUEUE_CAPACITY) return 'dropped';
    this.relistRequests.push({ uid, requestedMs: this.clock.now() });
    return 'accepted';
  }

  /**
   * The request branch of generic.go workerLoopIteration: takes the oldest request and relists that pod
   * unless a global relist that started at or after the request already succeeded (`req.timestamp.After(
   * relistTime)` is strict; a failed global relist does not count). The caller gives the periodic relist
   * priority, as the worker loop does. Null when the queue is empty.
   */
  serveRelistRequest(): ServedRelistRequest | null {
    const req = this.relistRequests.shift();
    if (req === undefined) return null;
    if (this.relistTime !== null && !(req.requestedMs > this.relistTime)) return { ...req, ran: false };
    return { ...req, ran: true, report: this.relistPod(req.uid) };
  }

  /**
   * generic.go relistPod: GetPod, then the same per-pod reconcile as a global relist, then
   * Cache.SetObservedTime at the pod read time. It holds the same lock as the global relist (a caller
   * modelling time must not start a relist until this returns); it never moves the relist time Healthy()
   * reads, the cache's global time, or the running pod/container gauges.
   */
  relistPod(uid: string): PodRelistReport {
    if (this.pending !== null) {
      throw new PlegConfigurationError('a relist is still blocked in a channel send; drain the channel first');
    }
    const getPod = this.runtime.getPod;
    if (getPod === undefined) throw new PlegConfigurationError('the per-pod relist needs a runtime with getPod');
    const startMs = this.clock.now();
    const report: PodRelistReport = { uid, startMs, endMs: startMs, ok: true, generated: 0, delivered: 0, discarded: 0, inspected: [] };
    this.observer?.onGetPod?.(uid);
    const got = getPod.call(this.runtime, uid);
    if (!got.ok) {
      // Logged only: the next global relist picks the pod up (or notices it is gone).
      report.ok = false;
      report.error = got.error;
      report.endMs = this.clock.now();
      return report;
    }
    const pod = got.pod;
    let rec = this.records.get(pod.uid);
    if (rec === undefined) {
      rec = { uid: pod.uid, old: null, current: pod, dropped: false };
      this.records.set(pod.uid, rec);
    } else rec.current = pod;
    const scratch = this.scratch;
    const n = appendPodEvents(scratch, pod.uid, rec.old, rec.current);
    const events = n > 0 ? scratch.slice() : NO_EVENTS;
    scratch.length = 0;
    if (events.length > 0 || this.podsToReinspect.has(pod.uid)) {
      const toSend = this.inspectAndAdvance({ uid: pod.uid, events }, report, this.podsToReinspect, startMs);
      if (toSend !== null) {
        report.generated += toSend.length;
        for (const ev of toSend) {
          const delivered = this.channel.trySend(ev);
          if (delivered) report.delivered++;
          else report.discarded++;
          this.observer?.onSend?.(ev, delivered);
        }
      }
    }
    this.cache?.setObservedTime(uid, msToStamp(startMs));
    report.endMs = this.clock.now();
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
        const toSend = this.inspectAndAdvance(p.work[p.idx] as WorkItem, p.report, p.needsReinspection, p.podReadMs);
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

  /**
   * The per-pod half of a relist (1.36 generic.go reconcilePodRecord; the same steps inline in older
   * relists), shared by the global and the per-pod relist: inspects the pod if there is a cache, advances
   * its record, and returns the events to send, or null to skip the pod. `needsReinspection` is where ≤1.31
   * collects this relist's failures; 1.32+ keeps the flags in place (a sync.Map in 1.36), consumed here and
   * set again on failure, so a per-pod relist in between sees them.
   */
  private inspectAndAdvance(item: WorkItem, tally: InspectionTally, needsReinspection: Map<string, RuntimePod>, podReadMs: number): PlegEvent[] | null {
    const { uid } = item;
    const rec = this.records.get(uid);
    if (rec === undefined) return null;
    const pod = rec.current;
    const twoPass = this.profile.twoPassReinspection;
    const reinspected = !twoPass && this.podsToReinspect.delete(uid);
    if (this.cache !== null) {
      const r = this.updateCache(this.cache, pod, uid, tally, podReadMs);
      if (r.err !== null) {
        // The record is not advanced, so the same diff is computed again next relist.
        if (pod !== null) (twoPass ? needsReinspection : this.podsToReinspect).set(uid, pod);
        return null;
      }
      if (twoPass) this.podsToReinspect.delete(uid);
      if (this.eventedGate && !r.updated) return null;
    }
    let events = item.events;
    if (events.length === 0 && reinspected && this.profile.podSyncOnReinspection) {
      // 1.36+: a reinspection that found no container change still makes the pod worker sync.
      events = [{ pod: uid, type: 'PodSync', data: null }];
    }
    if (rec.current === null) {
      this.records.delete(uid);
      rec.dropped = true;
    } else {
      rec.old = rec.current;
      rec.current = null;
    }
    let out: PlegEvent[] | null = null;
    for (let i = 0; i < events.length; i++) {
      const ev = events[i] as PlegEvent;
      // ContainerChanged is unreliable and nobody consumes it: filtered before the send.
      if (ev.type === 'ContainerChanged') {
        if (out === null) out = events.slice(0, i);
      } else if (out !== null) out.push(ev);
    }
    return out ?? events;
  }

  private finish(p: RelistProgress): void {
    const cache = this.cache;
    if (cache !== null) {
      if (this.profile.twoPassReinspection) {
        // ≤1.31: last relist's failures, with the pod object saved then (possibly stale or vanished).
        for (const [uid, stalePod] of this.podsToReinspect) {
          const r = this.updateCache(cache, stalePod, uid, p.report, p.podReadMs);
          if (r.err !== null) p.needsReinspection.set(uid, stalePod);
        }
      }
      cache.updateTime(p.start);
    }
    if (this.profile.twoPassReinspection) this.podsToReinspect = p.needsReinspection;
  }

  private updateCache(cache: PodCache, pod: RuntimePod | null, uid: string, tally: InspectionTally, podReadMs: number): { err: string | null; updated: boolean } {
    if (pod === null) {
      // The pod has no visible containers any more.
      cache.delete(uid);
      return { err: null, updated: true };
    }
    const now: CacheStamp = msToStamp(this.profile.cacheStampIsPodReadTime ? podReadMs : this.clock.now());
    tally.inspected.push(uid);
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
