// Replays an oracle trace through the model and reports each step in the oracle's result schema
// (test/fixtures/pleg-oracle/README.md): same field names, same time base, fields omitted where the
// oracle omits them.

import { EventChannel } from './channel';
import type { CriEventReport } from './evented';
import { EventedPleg } from './evented';
import type { EventedUsage, RelistRequestOutcome, ServedRelistRequest } from './generic';
import { GenericPleg } from './generic';
import { ChannelOrderTracker } from './orderHint';
import { PodCache } from './podCache';
import { statusFromPod } from './podStatus';
import type { PlegProfile } from './profiles';
import { PROFILE_1_26_1_31, PROFILE_1_32_PLUS, PROFILE_1_36_PLUS } from './profiles';
import { stampToOracleMs, stampToUnixSec } from './stamp';
import type { ConsumeSpec, RelistHang, Trace, TraceStep } from './traceSchema';
import { parseTrace, TraceError } from './traceSchema';
import type { CacheStamp, GetPodResult, GetPodStatusResult, PlegEvent, RelistReport, RuntimeContainer, RuntimePod } from './types';

export type ReplayKubelet = '1.26' | '1.32' | '1.36';

export interface OracleCacheSet {
  pod: string;
  atMs: number | null;
  atUnixSec: number;
  updated: boolean;
  err?: string;
}

export interface OracleCacheEntry {
  pod: string;
  present: boolean;
  modifiedMs?: number;
  modifiedIsZeroTime?: true;
  modifiedUnixSec?: number;
  /** 1.36+: Cache.SetObservedTime's stamp, when it differs from the modified time. */
  observedMs?: number;
  err?: string;
  containers: string[];
  sandboxes: string[];
  ips: string[];
}

export interface OraclePodRecord {
  pod: string;
  old: string[] | null;
  current: string[] | null;
}

export interface OracleCacheObserved {
  pod: string;
  atMs: number | null;
  inCache: boolean;
}

export interface OracleQueueHandled {
  pod: string;
  requestedMs: number;
  ran: boolean;
}

export interface StepResult {
  index: number;
  op: string;
  at: number;
  delivered?: PlegEvent[];
  generatedByPod?: Record<string, PlegEvent[]>;
  discarded?: PlegEvent[];
  discardCount: number;
  getPodStatusCalls?: string[];
  podsToReinspect?: string[];
  relistTimeMs?: number;
  podRecords?: OraclePodRecord[];
  cacheSets?: OracleCacheSet[];
  cacheDeletes?: string[];
  cacheUpdateTimeMs?: number;
  cache?: OracleCacheEntry[];
  consumed?: PlegEvent[];
  channelLenAfter: number;
  healthy?: boolean;
  healthyError?: string;
  orderSensitive?: true;
  panic?: string;
  relistQueue?: string[];
  relistRequestsAccepted?: number;
  relistRequestsDropped?: number;
  droppedRequests?: Record<string, number>;
  relistRequestsIgnored?: number;
  queueHandled?: OracleQueueHandled[];
  getPodCalls?: string[];
  cacheObserved?: OracleCacheObserved[];
  hangAtMs?: number;
  hangHealthy?: boolean;
  hangHealthyError?: string;
  hangGlobalRelistBlocked?: boolean;
}

export interface ReplayResult {
  steps: StepResult[];
}

/** What the real 1.32 kubelet printed when its relist touched the missing cache. */
const NIL_CACHE_PANIC = 'runtime error: invalid memory address or nil pointer dereference';
/** generic.go NewGenericPLEG (1.36+). */
const NIL_CACHE_CONSTRUCTION_PANIC = 'cache cannot be nil';

export function profileForReplay(kubelet: ReplayKubelet): PlegProfile {
  if (kubelet === '1.26') return PROFILE_1_26_1_31;
  return kubelet === '1.32' ? PROFILE_1_32_PLUS : PROFILE_1_36_PLUS;
}

const ON_DEMAND_OPS: ReadonlySet<string> = new Set(['setRuntime', 'requestRelist', 'processRelistQueue']);

interface StepLog {
  delivered: PlegEvent[];
  discarded: PlegEvent[];
  generated: Map<string, PlegEvent[]>;
  inspected: string[];
  cacheSets: OracleCacheSet[];
  cacheDeletes: string[];
  getPodCalls: string[];
  cacheObserved: OracleCacheObserved[];
}

function newLog(): StepLog {
  return { delivered: [], discarded: [], generated: new Map(), inspected: [], cacheSets: [], cacheDeletes: [], getPodCalls: [], cacheObserved: [] };
}

/** A hang armed for the current processRelistQueue step, and what happened during it. */
interface HangState {
  spec: RelistHang;
  fired: boolean;
  atMs?: number;
  health?: { healthy: boolean; error?: string };
  globalRelistWaiting: boolean;
}

/** What the on-demand ops did in one step (the oracle's request/queue fields). */
interface OnDemandLog {
  outcomes: RelistRequestOutcome[];
  dropped: Map<string, number>;
  handled: ServedRelistRequest[];
}

function recordList(pod: RuntimePod | null): string[] | null {
  if (pod === null) return null;
  const out: string[] = [];
  for (const c of pod.containers) out.push(`c:${c.id}:${c.state}`);
  for (const s of pod.sandboxes) out.push(`s:${s.id}:${s.state}`);
  return out;
}

function containerList(list: readonly RuntimeContainer[]): string[] {
  return list.map((c) => `${c.id}:${c.state}`);
}

export function replayTrace(input: unknown, kubelet: ReplayKubelet): ReplayResult {
  const trace = parseTrace(input);
  const profile = profileForReplay(kubelet);
  if (profile.onDemandRelist === null) {
    if (trace.config.onDemandRelist) throw new TraceError('trace.config.onDemandRelist', `kubelet ${kubelet} has no on-demand relist (replay it with --kubelet 1.36)`);
    const i = trace.steps.findIndex((s) => ON_DEMAND_OPS.has(s.op));
    if (i >= 0) throw new TraceError(`trace.steps[${i}].op`, `"${trace.steps[i]?.op ?? ''}" needs kubelet 1.36 or later (replay it with --kubelet 1.36)`);
  }
  if (!trace.config.useCache && profile.nilCachePanicsAtConstruction) return constructionPanic(trace);
  return new Replayer(trace, profile).run();
}

/** 1.36+ without a cache: NewGenericPLEG panics, so nothing runs and every step reports the panic. */
function constructionPanic(trace: Trace): ReplayResult {
  return {
    steps: trace.steps.map((s, index) => ({ index, op: s.op, at: s.at, discardCount: 0, channelLenAfter: 0, panic: NIL_CACHE_CONSTRUCTION_PANIC })),
  };
}

class Replayer {
  private now = 0;
  private pods: readonly RuntimePod[] = [];
  private getPodsError: string | undefined;
  private statusErrors: Readonly<Record<string, string>> = {};
  private getPodError: string | undefined;
  private hang: HangState | null = null;
  private log: StepLog = newLog();
  private readonly cacheTouched = new Set<string>();
  /** The channel holds events whose identity or position depended on the order between pods. */
  private channelOrderDependent = false;
  /** The 1.36 harness' order hint (null: the 1.26/1.32 harness' rule, isOrderSensitive). */
  private readonly order: ChannelOrderTracker | null;
  private readonly channel: EventChannel;
  private readonly cache: PodCache | null;
  private readonly generic: GenericPleg;
  private readonly evented: EventedPleg | null;
  /** 1.32 without a cache is not a real configuration: the kubelet panics on every successful relist. */
  private readonly panicsWithoutCache: boolean;

  constructor(private readonly trace: Trace, profile: PlegProfile) {
    const cfg = trace.config;
    this.order = profile.onDemandRelist !== null ? new ChannelOrderTracker() : null;
    this.panicsWithoutCache = !cfg.useCache && !profile.cacheOptional;
    const clock = { now: () => this.now };
    this.channel = new EventChannel(cfg.channelCapacity);
    this.cache = cfg.useCache ? new PodCache(cfg.eventedPLEGFeatureGate) : null;
    if (this.cache !== null) {
      this.cache.observer = {
        onSet: (uid, stamp, updated, err) => {
          this.cacheTouched.add(uid);
          const set: OracleCacheSet = { pod: uid, atMs: stampToOracleMs(stamp), atUnixSec: stampToUnixSec(stamp), updated };
          if (err !== null) set.err = err;
          this.log.cacheSets.push(set);
        },
        onDelete: (uid) => {
          this.cacheTouched.add(uid);
          this.log.cacheDeletes.push(uid);
        },
        onObserved: (uid, stamp, inCache) => {
          this.log.cacheObserved.push({ pod: uid, atMs: stampToOracleMs(stamp), inCache });
        },
      };
    }
    const usage: EventedUsage = { inUse: cfg.eventedPLEGInUse };
    const onSend = (ev: PlegEvent, delivered: boolean): void => {
      this.order?.onSend(ev.pod, delivered);
      (delivered ? this.log.delivered : this.log.discarded).push(ev);
      const list = this.log.generated.get(ev.pod);
      if (list === undefined) this.log.generated.set(ev.pod, [ev]);
      else list.push(ev);
    };
    this.generic = new GenericPleg({
      // Emulating the panicking configuration: the ≤1.31 code without a cache, fed no pods, keeps the
      // relist time (set before the panic) while every relist step reports the panic.
      profile: this.panicsWithoutCache ? PROFILE_1_26_1_31 : profile,
      runtime: {
        getPods: () => {
          if (this.getPodsError !== undefined) return { ok: false, error: this.getPodsError };
          return { ok: true, pods: this.panicsWithoutCache ? [] : this.pods };
        },
        getPodStatus: (pod) => this.podStatus(pod),
        getPod: (uid) => this.getPod(uid),
      },
      clock,
      channel: this.channel,
      cache: this.cache,
      relistPeriodMs: cfg.relistPeriodMs,
      relistThresholdMs: cfg.relistThresholdMs,
      eventedGate: cfg.eventedPLEGFeatureGate,
      eventedUsage: usage,
      onDemandRelist: profile.onDemandRelist !== null && cfg.onDemandRelist,
      observer: { onInspect: (uid) => this.log.inspected.push(uid), onSend, onGetPod: (uid) => this.log.getPodCalls.push(uid) },
    });
    const needsEvented = cfg.evented || trace.steps.some((s) => s.op === 'criEvent' || s.op === 'eventedHealthy');
    this.evented =
      needsEvented && this.cache !== null
        ? new EventedPleg({ profile, clock, channel: this.channel, cache: this.cache, generic: this.generic, usage, onSend })
        : null;
  }

  private podStatus(pod: RuntimePod): GetPodStatusResult {
    const err = this.statusErrors[pod.uid];
    if (err !== undefined) return { ok: false, error: err };
    // The runtime answers from its current state; the first pod with the UID wins. A pod that is gone
    // has an empty status.
    const live = this.pods.find((p) => p.uid === pod.uid);
    if (live !== undefined) return { ok: true, status: statusFromPod(live) };
    return {
      ok: true,
      status: { uid: pod.uid, name: pod.name, namespace: pod.namespace, ips: [], containers: [], sandboxes: [], timestamp: null },
    };
  }

  /** FakeRuntime.GetPod: the first pod with the UID, else ErrPodNotFound; a step's hang fires on the first call. */
  private getPod(uid: string): GetPodResult {
    const hang = this.hang;
    if (hang !== null && !hang.fired) {
      hang.fired = true;
      this.now += hang.spec.ms;
      hang.atMs = this.now;
      // Healthy() does not take the relist lock; a global relist does, so it waits for this per-pod relist.
      if (hang.spec.healthy) hang.health = this.generic.healthy();
      hang.globalRelistWaiting = hang.spec.globalRelist;
    }
    if (this.getPodError !== undefined) return { ok: false, error: this.getPodError };
    const live = this.pods.find((p) => p.uid === uid);
    return live === undefined ? { ok: false, error: `pod "${uid}" not found` } : { ok: true, pod: live };
  }

  private requestRelists(uids: readonly string[], count: number): OnDemandLog {
    const log: OnDemandLog = { outcomes: [], dropped: new Map(), handled: [] };
    for (const uid of uids) {
      for (let i = 0; i < count; i++) {
        const outcome = this.generic.requestRelist(uid);
        log.outcomes.push(outcome);
        if (outcome === 'dropped') log.dropped.set(uid, (log.dropped.get(uid) ?? 0) + 1);
      }
    }
    return log;
  }

  /** Runs the worker loop's request branch once per queued request (up to `max`). */
  private processQueue(max: number | undefined): { log: OnDemandLog; relist: RelistReport | null } {
    const log: OnDemandLog = { outcomes: [], dropped: new Map(), handled: [] };
    let relist: RelistReport | null = null;
    const limit = max ?? Number.POSITIVE_INFINITY;
    while (log.handled.length < limit) {
      this.order?.beginBlock(false);
      const served = this.generic.serveRelistRequest();
      if (served === null) break;
      log.handled.push(served);
      if (this.hang?.globalRelistWaiting === true) {
        // The global relist blocked on the lock runs as soon as relistPod releases it.
        this.hang.globalRelistWaiting = false;
        relist = this.globalRelist();
      }
    }
    return { log, relist };
  }

  run(): ReplayResult {
    const steps: StepResult[] = [];
    this.trace.steps.forEach((step, index) => {
      this.now = step.at;
      this.log = newLog();
      const out: StepResult = { index, op: step.op, at: step.at, discardCount: 0, channelLenAfter: 0 };
      let consumed: PlegEvent[] = [];
      let relist: RelistReport | null = null;
      let evented: CriEventReport | null = null;
      let health: { healthy: boolean; error?: string } | null = null;
      let onDemand: OnDemandLog | null = null;
      this.hang = null;
      this.order?.beginStep();
      switch (step.op) {
        case 'relist':
          if (step.pods !== undefined) this.pods = step.pods;
          this.getPodsError = step.getPodsError;
          this.statusErrors = step.podStatusErrors ?? {};
          relist = this.globalRelist();
          this.getPodsError = undefined;
          this.statusErrors = {};
          consumed = this.consume(step.consume);
          break;
        case 'healthy':
          health = this.generic.healthy();
          break;
        case 'eventedHealthy':
          health = this.requireEvented(index).healthy();
          break;
        case 'consume':
          consumed = this.consume(step.consume);
          break;
        case 'updateRelistDuration':
          this.generic.updateRelistDuration(step.relistPeriodMs, step.relistThresholdMs);
          break;
        case 'criEvent':
          this.order?.beginBlock(false);
          evented = this.requireEvented(index).handleEvent(step.event);
          consumed = this.consume('all');
          break;
        case 'setRuntime':
          this.pods = step.pods;
          break;
        case 'requestRelist':
          onDemand = this.requestRelists(step.podUIDs, step.count);
          consumed = this.consume(step.consume);
          break;
        case 'processRelistQueue': {
          if (step.pods !== undefined) this.pods = step.pods;
          this.statusErrors = step.podStatusErrors ?? {};
          this.getPodError = step.getPodError;
          if (step.hang !== undefined) this.hang = { spec: step.hang, fired: false, globalRelistWaiting: false };
          const done = this.processQueue(step.max);
          this.statusErrors = {};
          this.getPodError = undefined;
          onDemand = done.log;
          relist = done.relist;
          consumed = this.consume(step.consume);
          break;
        }
      }
      if (relist !== null && this.panicsWithoutCache && relist.ok) {
        out.channelLenAfter = this.channel.length;
        out.panic = NIL_CACHE_PANIC;
        steps.push(out);
        return;
      }
      const log = this.log;
      const sensitive = this.isOrderSensitive(step, log);
      const built = this.build(out, step.op, log, relist, evented !== null || onDemand !== null, consumed, health, sensitive);
      this.addOnDemandFields(built, step.op, onDemand, log);
      steps.push(built);
    });
    return { steps };
  }

  /** The 1.36 corpus' fields: the request queue on every step of an on-demand trace, and what the new ops did. */
  private addOnDemandFields(r: StepResult, op: string, onDemand: OnDemandLog | null, log: StepLog): void {
    const isQueueOp = op === 'requestRelist' || op === 'processRelistQueue';
    if (this.trace.config.onDemandRelist || isQueueOp) r.relistQueue = this.generic.relistQueue().map((q) => q.uid);
    if (onDemand === null) return;
    if (op === 'requestRelist') {
      if (this.generic.onDemandRelistEnabled) {
        r.relistRequestsAccepted = onDemand.outcomes.filter((o) => o === 'accepted').length;
        r.relistRequestsDropped = onDemand.outcomes.filter((o) => o === 'dropped').length;
        if (onDemand.dropped.size > 0) r.droppedRequests = Object.fromEntries(onDemand.dropped);
      } else r.relistRequestsIgnored = onDemand.outcomes.length;
    }
    if (onDemand.handled.length > 0) r.queueHandled = onDemand.handled.map((h) => ({ pod: h.uid, requestedMs: h.requestedMs, ran: h.ran }));
    if (log.getPodCalls.length > 0) r.getPodCalls = log.getPodCalls;
    if (log.cacheObserved.length > 0) r.cacheObserved = log.cacheObserved;
    const hang = this.hang;
    if (hang?.fired === true) {
      if (hang.atMs !== undefined) r.hangAtMs = hang.atMs;
      if (hang.health !== undefined) {
        r.hangHealthy = hang.health.healthy;
        if (hang.health.error !== undefined) r.hangHealthyError = hang.health.error;
      }
      // relistPod held the lock for the whole hang, so a global relist started then always waited.
      if (hang.spec.globalRelist) r.hangGlobalRelistBlocked = true;
    }
  }

  private requireEvented(index: number): EventedPleg {
    if (this.evented === null) throw new TraceError(`trace.steps[${index}].op`, 'EventedPLEG steps need config.useCache true');
    return this.evented;
  }

  private globalRelist(): RelistReport {
    this.order?.beginBlock(true);
    const report = this.generic.relist();
    this.order?.endBlock();
    return report;
  }

  private consume(spec: ConsumeSpec): PlegEvent[] {
    if (spec === 'none') return [];
    const out = this.generic.receive(spec === 'all' ? undefined : spec);
    this.order?.onRead(out.length, spec !== 'all');
    return out;
  }

  /**
   * The oracle's `orderSensitive`: a relist where several pods sent events and the channel either dropped
   * some or was not drained completely (which events got in, or which the consumer saw, depends on Go's
   * map order), and every channel-touching step after it while such events remain queued. That is the
   * 1.26/1.32 harness' rule; the 1.36 harness flags fewer steps (orderHint.ts).
   */
  private isOrderSensitive(step: TraceStep, log: StepLog): boolean {
    if (this.order !== null) return this.order.endStep();
    if (step.op !== 'relist' && step.op !== 'consume' && step.op !== 'criEvent') return false;
    const own = step.op === 'relist' && log.generated.size >= 2 && (log.discarded.length > 0 || step.consume !== 'all');
    const sensitive = own || this.channelOrderDependent;
    this.channelOrderDependent = sensitive && this.channel.length > 0;
    return sensitive;
  }

  private build(
    out: StepResult,
    op: string,
    log: StepLog,
    relist: RelistReport | null,
    isEvented: boolean,
    consumed: PlegEvent[],
    health: { healthy: boolean; error?: string } | null,
    sensitive: boolean,
  ): StepResult {
    const r: StepResult = { index: out.index, op, at: out.at } as StepResult;
    if (log.delivered.length > 0) r.delivered = log.delivered;
    if (log.generated.size > 0) r.generatedByPod = Object.fromEntries(log.generated);
    if (log.discarded.length > 0) r.discarded = log.discarded;
    r.discardCount = log.discarded.length;
    if (log.inspected.length > 0) r.getPodStatusCalls = [...log.inspected].sort();
    const showsState = relist !== null || isEvented;
    if (relist !== null || (isEvented && (op === 'requestRelist' || op === 'processRelistQueue'))) {
      const reinspect = this.generic.reinspectionSet();
      if (reinspect.length > 0) r.podsToReinspect = reinspect;
    }
    if (showsState) {
      const t = this.generic.lastRelistMs;
      if (t !== null) r.relistTimeMs = t;
      const records = this.podRecords();
      if (records.length > 0) r.podRecords = records;
    }
    if (log.cacheSets.length > 0) r.cacheSets = log.cacheSets;
    if (log.cacheDeletes.length > 0) r.cacheDeletes = log.cacheDeletes;
    if (relist !== null && relist.ok && this.cache !== null) {
      const t = this.cache.timeMs;
      if (t !== null) r.cacheUpdateTimeMs = t;
    }
    if (showsState && this.cache !== null && this.cacheTouched.size > 0) r.cache = this.cacheEntries(this.cache);
    if (consumed.length > 0) r.consumed = consumed;
    r.channelLenAfter = this.channel.length;
    if (health !== null) {
      r.healthy = health.healthy;
      if (health.error !== undefined) r.healthyError = health.error;
    }
    if (sensitive) r.orderSensitive = true;
    return r;
  }

  private podRecords(): OraclePodRecord[] {
    const out: OraclePodRecord[] = [];
    for (const [uid, rec] of this.generic.podRecords()) out.push({ pod: uid, old: recordList(rec.old), current: recordList(rec.current) });
    return out.sort((a, b) => (a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0));
  }

  private cacheEntries(cache: PodCache): OracleCacheEntry[] {
    return [...this.cacheTouched].sort().map((uid) => {
      const e = cache.get(uid);
      if (e === undefined) return { pod: uid, present: false, containers: [], sandboxes: [], ips: [] };
      const entry: OracleCacheEntry = { pod: uid, present: true, containers: [], sandboxes: [], ips: [] };
      const stamp: CacheStamp = e.modified;
      const ms = stampToOracleMs(stamp);
      if (ms === null) entry.modifiedIsZeroTime = true;
      else entry.modifiedMs = ms;
      entry.modifiedUnixSec = stampToUnixSec(stamp);
      const observedMs = e.observed !== null && e.observed !== stamp ? stampToOracleMs(e.observed) : null;
      if (observedMs !== null) entry.observedMs = observedMs;
      if (e.err !== null) entry.err = e.err;
      // Re-created so the keys come out in the oracle's order.
      const { containers: _c, sandboxes: _s, ips: _i, ...head } = entry;
      if (e.status === null) return { ...head, containers: [], sandboxes: [], ips: [] };
      return {
        ...head,
        containers: containerList(e.status.containers),
        sandboxes: e.status.sandboxes.map((s) => `${s.id}:${s.ready ? 'READY' : 'NOTREADY'}`),
        ips: [...e.status.ips],
      };
    });
  }
}
