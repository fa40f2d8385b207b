// The kubelet's PLEG run on a node's real runtime data. Each period the feed lists the runtime (measured
// latencies and errors included), asks this model which pods the kubelet's relist would inspect, fetches
// exactly those statuses, and hands everything back: the model replays the period through the same
// GenericPleg (and EventedPleg) the simulator uses, on a virtual clock advanced by the measured latencies,
// and says what the kubelet's PLEG would have done, as SessionDelta records. With the EventedPLEG gate on,
// the feed also hands over what the runtime's GetContainerEvents stream delivers: each container event,
// and each failure of the stream (which forces a relist, and after the kubelet's number of retries the
// fallback to generic relisting).

import { podRelistCost, relistCost, type RpcLatencies } from '../pleg/cost/relistCost';
import { EventChannel } from '../pleg/channel';
import { computePodEvents } from '../pleg/events';
import { EventedPleg, type CriContainerEvent } from '../pleg/evented';
import { GenericPleg, type EventedUsage } from '../pleg/generic';
import { PodCache } from '../pleg/podCache';
import type { OnDemandGate } from '../pleg/onDemandGate';
import { PLEG_CONSTANTS, PLEG_PROFILES } from '../pleg/profiles';
import { DEFAULT_BASE_UNIX_SEC } from '../pleg/stamp';
import { formatGoDurationMs } from '../util/goDuration';
import type { PlegEvent, RelistReport, RuntimePod } from '../pleg/types';
import { listingError, listingOk, podLabel, podsFromListing, type CallSample, type CriListing, type PodStatusFetch } from './criListing';
import type { CostReading, PodEventType, RpcSample, SessionDelta, SessionHealth, SessionPodEvent, SessionRelist, SessionSettings } from './session';

export interface LiveModelOptions {
  /**
   * The generic PLEG's period and threshold (1 s / 3 min on a real kubelet), the runtime request timeout,
   * the kubelet profile, and the EventedPLEG gate. With the gate on the model starts evented (300 s / 10 min)
   * and returns to these after the stream failures.
   */
  settings: SessionSettings;
  channelCapacity?: number;
  maxStreamRetries?: number;
  /** Wall-clock ms (Unix epoch) of the model's t = 0: places the runtime's event createdAt on the clock. */
  epochMs?: number;
}

/** Container IDs in deltas are the short form crictl prints. */
const shortId = (id: string): string => id.slice(0, 13);

const CHANGE_EVENT_TYPES = new Set<PlegEvent['type']>(['ContainerStarted', 'ContainerDied', 'ContainerRemoved', 'ContainerChanged']);

export class LivePlegModel {
  readonly generic: GenericPleg;
  readonly evented: EventedPleg | null;
  private readonly clock = { t: 0 };
  private readonly channel: EventChannel;
  private readonly usage: EventedUsage = { inUse: false };
  private readonly base: SessionSettings;
  private current: SessionSettings;
  /** RuntimePods built from a listing once, so the status plan and the relist see the same objects. */
  private readonly podsOf = new WeakMap<CriListing, RuntimePod[]>();
  private readonly labels = new Map<string, string>();
  private feed: {
    listing: CriListing | null;
    statuses: Map<string, PodStatusFetch[]>;
    rpcs: RpcSample[];
    startMs: number;
  } = { listing: null, statuses: new Map(), rpcs: [], startMs: 0 };
  private events: SessionPodEvent[] = [];
  private health: SessionHealth[] = [];
  private healthy = false;
  private started = false;
  private lastRelistEndMs: number | null = null;
  /** The stamp the kubelet's Healthy() sees: the last successful relist's start, once its GetPods returned. */
  private visibleStamp: number | null = null;
  private latencies: RpcLatencies | null = null;
  private lastCounts = { pods: 0, containers: 0, sandboxes: 0 };
  private settingsChanged = false;
  /** The fallback has just restarted the generic PLEG: its first relist is due at once. */
  private restarted = false;
  /** The event createdAt (Unix ns) shift that, with the whole-second base, makes a stamp of t = 0 exactly 0. */
  private readonly createdAtShiftNs: bigint;

  constructor(options: LiveModelOptions) {
    const s = options.settings;
    this.base = { ...s };
    const profile = PLEG_PROFILES[s.profile];
    const gate = s.evented && profile.hasEventedPleg;
    const epochMs = Math.round(options.epochMs ?? DEFAULT_BASE_UNIX_SEC * 1000);
    const baseUnixSec = Math.floor(epochMs / 1000);
    // 1.26–1.31 misread createdAt as seconds: no sub-second shift applies to that (far-future) stamp.
    this.createdAtShiftNs = profile.eventedCreatedAtUnit === 'nanoseconds' ? BigInt(epochMs - baseUnixSec * 1000) * 1_000_000n : 0n;
    this.channel = new EventChannel(options.channelCapacity ?? PLEG_CONSTANTS.channelCapacity);
    const cache = new PodCache(gate);
    const clock = { now: () => this.clock.t };
    this.generic = new GenericPleg({
      profile,
      clock,
      channel: this.channel,
      cache,
      runtime: {
        getPods: () => this.runGetPods(),
        getPodStatus: (pod) => this.runGetPodStatus(pod),
      },
      relistPeriodMs: gate ? PLEG_CONSTANTS.eventedRelistPeriodMs : s.relistPeriodMs,
      relistThresholdMs: gate ? PLEG_CONSTANTS.eventedRelistThresholdMs : s.thresholdMs,
      eventedGate: gate,
      eventedUsage: this.usage,
      observer: { onSend: (event, delivered) => this.recordEvent(event, delivered) },
    });
    this.evented = gate
      ? new EventedPleg({
          profile,
          clock,
          channel: this.channel,
          cache,
          generic: this.generic,
          usage: this.usage,
          baseUnixSec,
          fallbackPeriodMs: s.relistPeriodMs,
          fallbackThresholdMs: s.thresholdMs,
          ...(options.maxStreamRetries !== undefined ? { maxStreamRetries: options.maxStreamRetries } : {}),
          onSend: (event, delivered) => this.recordEvent(event, delivered),
        })
      : null;
    this.evented?.start();
    this.current = this.effectiveSettings();
  }

  /** The period and threshold in force now (300 s / 10 min while EventedPLEG is in use). */
  get settings(): SessionSettings {
    return { ...this.current };
  }

  /**
   * The node's PLEGOnDemandRelist gate as its kubelet reports it (the live feed reads it from every /metrics
   * scrape): a delta carrying the settings when it differs from what the model had, else null. With the
   * gate on, each cost reading also prices one per-pod relist, the wait a periodic relist may have.
   */
  learnOnDemandGate(gate: OnDemandGate, atMs: number): SessionDelta | null {
    const had = this.base.onDemandRelist;
    if (had !== undefined && had.enabled === gate.enabled && had.source === gate.source) return null;
    this.base.onDemandRelist = { ...gate };
    this.current = this.effectiveSettings();
    return { durationMs: atMs, settings: this.settings };
  }

  /** EventedPLEG is in use: its GetContainerEvents stream is (re)opened; generic relists come every 300 s. */
  get eventedInUse(): boolean {
    return this.usage.inUse;
  }

  /** When the next generic relist is due (sliding period after the last one ended); null before the first. */
  get nextRelistDueMs(): number | null {
    if (this.lastRelistEndMs === null) return null;
    // The fallback restarts the generic PLEG, whose loop (wait.Until) relists at once.
    return this.restarted ? this.lastRelistEndMs : this.lastRelistEndMs + this.generic.relistPeriodMs;
  }

  /** A generic relist is due at `atMs`: the first one, or one period (sliding) after the last ended. */
  relistDue(atMs: number): boolean {
    const due = this.nextRelistDueMs;
    return due === null || atMs >= due;
  }

  /**
   * The pods (UIDs) the kubelet's relist of this listing passes to GetPodStatus, with repeats (≤1.31
   * inspects a failing pod with events twice): pods whose containers changed since the model's records,
   * plus the pods awaiting reinspection. Fetch one status per entry.
   */
  statusRequests(listing: CriListing): string[] {
    if (!listingOk(listing)) return [];
    const pods = this.pods(listing);
    const reinspect = new Set(this.generic.reinspectionSet());
    const records = this.generic.podRecords();
    const twoPass = this.generic.profile.twoPassReinspection;
    const out: string[] = [];
    for (const pod of pods) {
      const changed = computePodEvents(pod.uid, records.get(pod.uid)?.old ?? null, pod).length > 0;
      if (changed || (!twoPass && reinspect.has(pod.uid))) out.push(pod.uid);
    }
    // ≤1.31 reinspects last relist's failures in a second pass, with the stale pod, present or not.
    if (twoPass) for (const uid of reinspect) out.push(uid);
    return out;
  }

  /**
   * One generic relist on this period's data. `statuses` answers statusRequests(listing) (any order; a
   * pod asked for twice needs two entries, used in order). Returns what the session gains.
   */
  relist(listing: CriListing, statuses: readonly PodStatusFetch[]): SessionDelta {
    return this.runRelist(listing, statuses, null);
  }

  /**
   * EventedPLEG's GetContainerEvents stream failed (any end counts: the kubelet's Recv loop returns even
   * EOF as an error): the forced relist on this period's data, counted; after the kubelet's number of
   * failures the generic PLEG returns to its own period and threshold (a `settings` record).
   */
  streamFailed(listing: CriListing, statuses: readonly PodStatusFetch[], error: string): SessionDelta {
    if (this.evented === null || !this.usage.inUse) throw new Error('no EventedPLEG in use: a stream failure cannot be modelled');
    return this.runRelist(listing, statuses, error);
  }

  /**
   * One container event from the stream, arriving at `atMs` (not before the model's clock: an event that
   * came during a relist is taken after it). Pod events the kubelet would send are recorded.
   */
  containerEvent(event: CriContainerEvent, atMs: number): SessionDelta {
    const at = Math.max(atMs, this.clock.t);
    const delta = this.beginDelta(at);
    this.clock.t = at;
    const evented = this.evented;
    if (evented === null || !this.usage.inUse) return this.finishDelta(delta, at);
    if (event.pod !== null) {
      const pod = event.pod;
      if (pod.name !== '' || !this.labels.has(pod.uid)) this.labels.set(pod.uid, podLabel(pod));
    }
    evented.handleEvent({ ...event, createdAt: BigInt(event.createdAt) - this.createdAtShiftNs });
    // The sync loop keeps up with the channel.
    this.generic.drain();
    this.flush(at);
    return this.finishDelta(delta, at);
  }

  private runRelist(listing: CriListing, statuses: readonly PodStatusFetch[], streamError: string | null): SessionDelta {
    const queue = new Map<string, PodStatusFetch[]>();
    for (const s of statuses) {
      const list = queue.get(s.uid);
      if (list === undefined) queue.set(s.uid, [s]);
      else list.push(s);
    }
    const start = listing.startMs;
    this.feed = { listing, statuses: queue, rpcs: [], startMs: start };
    const delta = this.beginDelta(start);
    this.clock.t = start;
    let report: RelistReport;
    let fellBack = false;
    if (streamError !== null) {
      const r = (this.evented as EventedPleg).streamFailed();
      // A ≤1.13 relist stuck in a send: no EventedPLEG there, so streamFailed() always relists here.
      report = r.relist as RelistReport;
      fellBack = r.fellBack;
    } else {
      report = this.generic.relist();
    }
    // The sync loop keeps up with the channel (a ≤1.13 relist blocked in a send continues as it reads).
    while (this.generic.drain() > 0 && this.generic.blockedRelist !== null);
    const endMs = this.clock.t;
    const getPodsEnd = start + sumLatency(listing.calls);
    if (report.ok) this.stampChanged(getPodsEnd, start);
    this.flush(endMs);
    this.lastRelistEndMs = endMs;
    this.restarted = fellBack;
    if (fellBack) this.settingsChanged = true;

    const pods = listingOk(listing) ? this.pods(listing) : null;
    if (pods !== null && listing.sandboxes !== undefined && listing.containers !== undefined) {
      this.lastCounts = { pods: pods.length, containers: listing.containers.length, sandboxes: listing.sandboxes.length };
    }
    const stamp = this.generic.lastRelistMs;
    const relist: SessionRelist = {
      startMs: start,
      endMs,
      ok: report.ok,
      rpcs: this.feed.rpcs,
      podsInspected: report.inspected.map((uid) => this.labels.get(uid) ?? uid),
      events: report.generated,
      discards: report.discarded,
      sinceLastRelistStartMs: endMs - (stamp ?? 0),
      ...(report.error !== undefined ? { error: report.error } : {}),
      ...(pods !== null ? { pods: pods.length, containers: listing.containers?.length ?? 0 } : {}),
      ...(streamError !== null ? { streamFailure: { error: streamError, failures: (this.evented as EventedPleg).failedStreams } } : {}),
    };
    delta.relists = [relist];
    const cost = this.costReading(endMs, relist.rpcs, report.inspected);
    if (cost !== null) delta.cost = [cost];
    return this.finishDelta(delta, endMs);
  }

  /**
   * Time passes with nothing new from the runtime (a call is still in flight): Healthy() turns false the
   * instant the stamp gets older than the threshold. `getPodsOkAtMs`: a listing that already returned
   * successfully but is not yet fed (its stamp is visible to the kubelet from then on).
   */
  advance(nowMs: number, getPodsOkAtMs?: number): SessionDelta {
    const at = getPodsOkAtMs !== undefined ? Math.min(nowMs, getPodsOkAtMs) : nowMs;
    const delta = this.beginDelta(at);
    this.flush(at);
    return this.finishDelta(delta, nowMs);
  }

  /** Healthy() at `atMs` (GenericPLEG's, then EventedPLEG's check), with the kubelet's exact error. */
  healthAt(atMs: number): { healthy: boolean; error?: string } {
    const saved = this.clock.t;
    this.clock.t = atMs;
    const g = this.generic.healthy();
    this.clock.t = saved;
    if (!g.healthy) return g;
    return this.evented?.healthy() ?? { healthy: true };
  }

  // ---- internals ----

  private pods(listing: CriListing): RuntimePod[] {
    let pods = this.podsOf.get(listing);
    if (pods === undefined) {
      pods = podsFromListing(listing.sandboxes ?? [], listing.containers ?? []);
      for (const p of pods) if (p.name !== '' || !this.labels.has(p.uid)) this.labels.set(p.uid, podLabel(p));
      this.podsOf.set(listing, pods);
    }
    return pods;
  }

  private runGetPods(): { ok: true; pods: readonly RuntimePod[] } | { ok: false; error: string } {
    const { listing } = this.feed;
    if (listing === null) return { ok: false, error: 'no runtime listing' };
    for (const call of listing.calls) this.call(call);
    if (!listingOk(listing)) return { ok: false, error: listingError(listing) };
    return { ok: true, pods: this.pods(listing) };
  }

  private runGetPodStatus(pod: RuntimePod): { ok: true; status: NonNullable<PodStatusFetch['status']> } | { ok: false; error: string } {
    const fetch = this.feed.statuses.get(pod.uid)?.shift();
    if (fetch === undefined) return { ok: false, error: `the status of pod ${podLabel(pod)} was not fetched` };
    const label = this.labels.get(pod.uid) ?? podLabel(pod);
    for (const call of fetch.calls) this.call(call, label);
    if (fetch.status === undefined) return { ok: false, error: fetch.error ?? fetch.calls.find((c) => c.error !== undefined)?.error ?? 'GetPodStatus failed' };
    const status = fetch.status.timestamp === null && this.usage.inUse ? { ...fetch.status, timestamp: this.clock.t } : fetch.status;
    return { ok: true, status };
  }

  private call(call: CallSample, pod?: string): void {
    const sample: RpcSample = { rpc: call.rpc, atMs: this.clock.t - this.feed.startMs, latencyMs: call.latencyMs };
    if (call.error !== undefined) sample.error = call.error;
    if (pod !== undefined) sample.pod = pod;
    this.feed.rpcs.push(sample);
    this.clock.t += Math.max(0, call.latencyMs);
  }

  private recordEvent(event: PlegEvent, _delivered: boolean): void {
    if (!CHANGE_EVENT_TYPES.has(event.type)) return;
    this.events.push({ atMs: this.clock.t, pod: this.labels.get(event.pod) ?? event.pod, type: event.type as PodEventType, container: shortId(event.data ?? '') });
  }

  private beginDelta(atMs: number): SessionDelta {
    if (!this.started) {
      this.started = true;
      const h = this.healthAt(atMs);
      // "pleg has yet to be successful" here only means the panel has just started watching: the node's
      // kubelet has relisted all along. Health is unknown until the first relist, not unhealthy.
      if (h.healthy || this.generic.lastRelistMs !== null) this.health.push({ atMs: 0, healthy: h.healthy, ...(h.error !== undefined ? { message: h.error } : {}) });
      this.healthy = h.healthy;
    }
    return { durationMs: atMs };
  }

  private finishDelta(delta: SessionDelta, endMs: number): SessionDelta {
    delta.durationMs = Math.max(delta.durationMs, endMs);
    if (this.events.length > 0) {
      delta.podEvents = this.events;
      this.events = [];
    }
    if (this.health.length > 0) {
      delta.health = this.health;
      this.health = [];
    }
    if (this.settingsChanged) {
      this.settingsChanged = false;
      this.current = this.effectiveSettings();
      delta.settings = this.settings;
    }
    return delta;
  }

  private effectiveSettings(): SessionSettings {
    return { ...this.base, relistPeriodMs: this.generic.relistPeriodMs, thresholdMs: this.generic.relistThresholdMs };
  }

  /** Healthy() turned false once the visible stamp got older than the threshold, before `x`. */
  private flush(x: number): void {
    const stamp = this.visibleStamp;
    const threshold = this.generic.relistThresholdMs;
    if (this.healthy && stamp !== null && x > stamp + threshold) {
      this.healthy = false;
      this.health.push({ atMs: stamp + threshold, healthy: false, message: unhealthyText(x - stamp, threshold) });
    }
  }

  /** A successful relist's stamp (its start) becomes visible to Healthy() when its GetPods returns. */
  private stampChanged(visibleAt: number, stamp: number): void {
    this.flush(visibleAt);
    this.visibleStamp = stamp;
    if (!this.healthy && visibleAt - stamp <= this.generic.relistThresholdMs) {
      this.healthy = true;
      this.health.push({ atMs: visibleAt, healthy: true });
    }
  }

  private costReading(atMs: number, rpcs: readonly RpcSample[], inspected: readonly string[]): CostReading | null {
    const sums = new Map<string, { ms: number; n: number }>();
    for (const r of rpcs) {
      const e = sums.get(r.rpc) ?? { ms: 0, n: 0 };
      e.ms += r.latencyMs;
      e.n++;
      sums.set(r.rpc, e);
    }
    const mean = (rpc: string, fallback: number): number => {
      const e = sums.get(rpc);
      return e === undefined ? fallback : e.ms / e.n;
    };
    const prev = this.latencies;
    this.latencies = {
      listPodSandboxMs: mean('ListPodSandbox', prev?.listPodSandboxMs ?? 0),
      listContainersMs: mean('ListContainers', prev?.listContainersMs ?? 0),
      podSandboxStatusMs: mean('PodSandboxStatus', prev?.podSandboxStatusMs ?? prev?.listPodSandboxMs ?? 0),
      containerStatusMs: mean('ContainerStatus', prev?.containerStatusMs ?? prev?.listContainersMs ?? 0),
    };
    const { pods, containers, sandboxes } = this.lastCounts;
    if (pods === 0) return null;
    const timeout = this.base.runtimeRequestTimeoutMs;
    const per = (n: number): number => Math.max(0, Math.round(n / pods));
    const unique = new Set(inspected).size;
    const work = (p: number, insp: number) => ({ pods: p, containersPerPod: per(containers), sandboxesPerPod: Math.max(1, per(sandboxes)), inspectedPods: Math.min(p, insp) });
    const reading: CostReading = { atMs, relistMs: round1(relistCost(this.latencies, work(pods, unique), timeout).totalMs), pods };
    // The projection is a full relist at the node's maxPods (the kubelet's default 110 when unknown): every
    // pod inspected, as after a kubelet restart or a mass restart of pods.
    const maxPods = this.base.maxPods !== undefined && this.base.maxPods > 0 ? this.base.maxPods : DEFAULT_MAX_PODS;
    reading.projectedPods = maxPods;
    reading.projectedRelistMs = round1(relistCost(this.latencies, work(maxPods, maxPods), timeout).totalMs);
    if (this.base.onDemandRelist?.enabled === true) {
      const w = work(pods, 1);
      reading.podRelistWaitMs = round1(podRelistCost(this.latencies, w.sandboxesPerPod, w.containersPerPod, true, timeout).totalMs);
    }
    return reading;
  }
}

/** GenericPLEG.Healthy()'s error for a stamp `elapsedMs` old (the same text GenericPleg.healthy() builds). */
export function unhealthyText(elapsedMs: number, thresholdMs: number): string {
  return `pleg was last seen active ${formatGoDurationMs(elapsedMs)} ago; threshold is ${formatGoDurationMs(thresholdMs)}`;
}

function sumLatency(calls: readonly CallSample[]): number {
  let ms = 0;
  for (const c of calls) ms += Math.max(0, c.latencyMs);
  return ms;
}

const round1 = (ms: number): number => Math.round(ms * 10) / 10;

/** The kubelet's default maxPods. */
export const DEFAULT_MAX_PODS = 110;
