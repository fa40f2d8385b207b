// Replays an oracle trace through the model and reports each step in the oracle's result schema
// (test/fixtures/pleg-oracle/README.md): same field names, same time base, fields omitted where the
// oracle omits them.

import { EventChannel } from './channel';
import type { CriEventReport } from './evented';
import { EventedPleg } from './evented';
import type { EventedUsage } from './generic';
import { GenericPleg } from './generic';
import { PodCache } from './podCache';
import { statusFromPod } from './podStatus';
import type { PlegProfile } from './profiles';
import { PROFILE_1_26_1_31, PROFILE_1_32_PLUS } from './profiles';
import { stampToOracleMs, stampToUnixSec } from './stamp';
import type { ConsumeSpec, Trace, TraceStep } from './traceSchema';
import { parseTrace, TraceError } from './traceSchema';
import type { CacheStamp, GetPodStatusResult, PlegEvent, RelistReport, RuntimeContainer, RuntimePod } from './types';

export type ReplayKubelet = '1.26' | '1.32';

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
}

export interface ReplayResult {
  steps: StepResult[];
}

/** What the real 1.32 kubelet printed when its relist touched the missing cache. */
const NIL_CACHE_PANIC = 'runtime error: invalid memory address or nil pointer dereference';

export function profileForReplay(kubelet: ReplayKubelet): PlegProfile {
  return kubelet === '1.26' ? PROFILE_1_26_1_31 : PROFILE_1_32_PLUS;
}

interface StepLog {
  delivered: PlegEvent[];
  discarded: PlegEvent[];
  generated: Map<string, PlegEvent[]>;
  inspected: string[];
  cacheSets: OracleCacheSet[];
  cacheDeletes: string[];
}

function newLog(): StepLog {
  return { delivered: [], discarded: [], generated: new Map(), inspected: [], cacheSets: [], cacheDeletes: [] };
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
  return new Replayer(trace, kubelet).run();
}

class Replayer {
  private now = 0;
  private pods: readonly RuntimePod[] = [];
  private getPodsError: string | undefined;
  private statusErrors: Readonly<Record<string, string>> = {};
  private log: StepLog = newLog();
  private readonly cacheTouched = new Set<string>();
  /** The channel holds events whose identity or position depended on the order between pods. */
  private channelOrderDependent = false;
  private readonly channel: EventChannel;
  private readonly cache: PodCache | null;
  private readonly generic: GenericPleg;
  private readonly evented: EventedPleg | null;
  /** 1.32 without a cache is not a real configuration: the kubelet panics on every successful relist. */
  private readonly panicsWithoutCache: boolean;

  constructor(private readonly trace: Trace, kubelet: ReplayKubelet) {
    const cfg = trace.config;
    const profile = profileForReplay(kubelet);
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
      };
    }
    const usage: EventedUsage = { inUse: cfg.eventedPLEGInUse };
    const onSend = (ev: PlegEvent, delivered: boolean): void => {
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
      },
      clock,
      channel: this.channel,
      cache: this.cache,
      relistPeriodMs: cfg.relistPeriodMs,
      relistThresholdMs: cfg.relistThresholdMs,
      eventedGate: cfg.eventedPLEGFeatureGate,
      eventedUsage: usage,
      observer: { onInspect: (uid) => this.log.inspected.push(uid), onSend },
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
      switch (step.op) {
        case 'relist':
          if (step.pods !== undefined) this.pods = step.pods;
          this.getPodsError = step.getPodsError;
          this.statusErrors = step.podStatusErrors ?? {};
          relist = this.generic.relist();
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
          evented = this.requireEvented(index).handleEvent(step.event);
          consumed = this.consume('all');
          break;
      }
      if (relist !== null && this.panicsWithoutCache && relist.ok) {
        out.channelLenAfter = this.channel.length;
        out.panic = NIL_CACHE_PANIC;
        steps.push(out);
        return;
      }
      const log = this.log;
      const sensitive = this.isOrderSensitive(step, log);
      steps.push(this.build(out, step.op, log, relist, evented !== null, consumed, health, sensitive));
    });
    return { steps };
  }

  private requireEvented(index: number): EventedPleg {
    if (this.evented === null) throw new TraceError(`trace.steps[${index}].op`, 'EventedPLEG steps need config.useCache true');
    return this.evented;
  }

  private consume(spec: ConsumeSpec): PlegEvent[] {
    if (spec === 'none') return [];
    return this.generic.receive(spec === 'all' ? undefined : spec);
  }

  /**
   * The oracle's `orderSensitive`: a relist where several pods sent events and the channel either dropped
   * some or was not drained completely (which events got in, or which the consumer saw, depends on Go's
   * map order), and every channel-touching step after it while such events remain queued.
   */
  private isOrderSensitive(step: TraceStep, log: StepLog): boolean {
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
    if (relist !== null) {
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
