// Runs a scenario through the kubelet's moving parts on a virtual clock:
//  - the PLEG relist loop (the GenericPleg model; sliding period; durations from the cost model),
//  - updateRuntimeUp (CRI Status every 5 s, sliding; `container runtime is down` 30 s after the last success),
//  - syncLoop (skips while runtimeErrors() is non-empty with a 100 ms → 5 s backoff; housekeeping lists
//    pods from the runtime and so blocks the loop for up to runtimeRequestTimeout when the runtime hangs),
//  - the node status update (every 10 s; its VersionInfo setter calls CRI Version first),
//  - random churn (container restarts, pod replacements) and consumer stalls,
//  - 1.36+ with PLEGOnDemandRelist: after each churn (a sync that changed a pod) a RequestRelist of that pod;
//    the relist goroutine serves requests between periodic relists, under the same lock, so a periodic
//    relist whose timer fires during a per-pod relist starts when that one ends.
// Every callback runs at its virtual time; a CRI call advances the shared clock to its end.

import { DOCKERSHIM_LOOP } from '../../timeline/nodeStatusLoopShape';
import { formatKlogLine } from '../../parse/klogFormat';
import type { KlogSeverity } from '../../parse/klogHeader';
import { formatGoDuration, formatGoDurationMs, MAX_GO_DURATION_NS } from '../../util/goDuration';
import { EventChannel } from '../channel';
import { EventedPleg } from '../evented';
import { GenericPleg, type EventedUsage } from '../generic';
import { PodCache } from '../podCache';
import { PLEG_CONSTANTS, profileForKubeletVersion } from '../profiles';
import { DEFAULT_BASE_UNIX_SEC } from '../stamp';
import type { RelistReport } from '../types';
import { EventQueue } from './eventQueue';
import { SeededRandom } from './prng';
import { aggregateError, readyCondition, runtimeErrorMessages, type ReadyCondition } from './runtimeErrors';
import type { Scenario } from './scenario';
import { SimRuntime, type SimClock } from './simRuntime';
import type {
  EventedSummary,
  HealthTransition,
  NodeStatusPost,
  OnDemandSummary,
  PodRelistEntry,
  RelistEntry,
  RuntimeStatusTransition,
  SkipWindow,
  SimulationRun,
  BlockedWindow,
  SimLogLine,
} from './simulationRun';

const SKIP_BACKOFF_BASE_MS = 100;
const SKIP_BACKOFF_MAX_MS = 5_000;
/** Housekeeping blocks shorter than this are normal work, not worth a timeline entry. */
const NOTABLE_BLOCK_MS = 1_000;

export class SimulationCancelledError extends Error {
  constructor() {
    super('simulation cancelled');
    this.name = 'SimulationCancelledError';
  }
}

interface InFlightRelist {
  startMs: number;
  getPodsEndMs: number;
  endMs: number;
  ok: boolean;
  prevStamp: number | null;
}

export function simulate(scenario: Scenario, signal?: AbortSignal): SimulationRun {
  const k = scenario.kubelet;
  const clock: SimClock = { now: 0 };
  const root = new SeededRandom(scenario.seed);
  const runtimeRng = root.fork();
  const churnRng = root.fork();
  const runtime = new SimRuntime(clock, scenario.latency, scenario.runtimeHangs, scenario.slowdowns, k.runtimeRequestTimeoutMs, runtimeRng, scenario.pods);
  const profile = profileForKubeletVersion(scenario.kubeletVersion);
  const channel = new EventChannel(k.channelCapacity);
  const gate = scenario.eventedPleg !== null;
  const usage: EventedUsage = { inUse: false };
  const cache = new PodCache(gate);
  const plegClock = { now: () => clock.now };
  const pleg = new GenericPleg({
    profile,
    runtime,
    clock: plegClock,
    channel,
    cache,
    // With the gate on, the kubelet builds the generic PLEG with the evented period and threshold.
    relistPeriodMs: gate ? PLEG_CONSTANTS.eventedRelistPeriodMs : k.relistPeriodMs,
    relistThresholdMs: gate ? PLEG_CONSTANTS.eventedRelistThresholdMs : k.relistThresholdMs,
    eventedGate: gate,
    eventedUsage: usage,
    onDemandRelist: k.onDemandRelist,
  });
  const evented = gate
    ? new EventedPleg({ profile, clock: plegClock, channel, cache, generic: pleg, usage, fallbackPeriodMs: k.relistPeriodMs, fallbackThresholdMs: k.relistThresholdMs })
    : null;
  evented?.start();
  const eventedSummary: EventedSummary | null = evented === null ? null : { streamFailures: 0, fallbackAtMs: null, criEvents: 0, criEventsIgnored: 0 };
  const q = new EventQueue();
  const end = scenario.durationMs;

  const relists: RelistEntry[] = [];
  const health: HealthTransition[] = [{ atMs: 0, healthy: false }];
  const runtimeStatus: RuntimeStatusTransition[] = [];
  const nodeReady: NodeStatusPost[] = [];
  const skipWindows: SkipWindow[] = [];
  const blocked: BlockedWindow[] = [];
  const logLines: SimLogLine[] = [];
  let logLinesDropped = 0;
  const totals = { relists: 0, failed: 0, maxMs: 0, sumMs: 0, events: 0, discards: 0, skips: 0, notReadyPosts: 0, unhealthyMs: 0 };

  const log = (atMs: number, severity: KlogSeverity, source: string, msg: string, fields?: ReadonlyArray<readonly [string, string | { raw: string }]>): void => {
    if (logLines.length >= scenario.record.maxLogLines) {
      logLinesDropped++;
      return;
    }
    const spec = { severity, epochMs: scenario.startEpochMs + atMs, threadId: k.pid, source, msg };
    logLines.push({ atMs, line: formatKlogLine(fields ? { ...spec, fields } : spec) });
  };

  // ---- PLEG health, as Healthy() would answer at any instant ----
  let inFlight: InFlightRelist | null = null;
  let stampMs: number | null = null;
  let healthyNow = false;
  let unhealthySince = 0;

  /** Healthy() at time x. A relist in flight has already run in the model; before its GetPods returned, the kubelet still saw the previous stamp. */
  const plegErrorAt = (x: number): string | undefined => {
    if (inFlight !== null && inFlight.ok && x < inFlight.getPodsEndMs) {
      const prev = inFlight.prevStamp;
      const thresholdText = formatGoDurationMs(pleg.relistThresholdMs);
      if (prev === null) {
        return profile.yetToBeSuccessfulText
          ? 'pleg has yet to be successful'
          : `pleg was last seen active ${formatGoDuration(MAX_GO_DURATION_NS)} ago; threshold is ${thresholdText}`;
      }
      return x - prev > pleg.relistThresholdMs ? `pleg was last seen active ${formatGoDurationMs(x - prev)} ago; threshold is ${thresholdText}` : undefined;
    }
    // Healthy() is true whenever the stamp is at most a threshold old; only ask the model (which also
    // formats the error text) when it can fail. This check runs on every sync loop pass.
    const last = pleg.lastRelistMs;
    if (last !== null && x - last <= pleg.relistThresholdMs) return undefined;
    const saved = clock.now;
    clock.now = x;
    const h = pleg.healthy();
    clock.now = saved;
    return h.healthy ? undefined : h.error;
  };

  const flushHealth = (x: number): void => {
    if (healthyNow && stampMs !== null && x > stampMs + pleg.relistThresholdMs) {
      healthyNow = false;
      unhealthySince = stampMs + pleg.relistThresholdMs;
      health.push({ atMs: unhealthySince, healthy: false });
    }
  };
  const stampChanged = (visibleAt: number, stamp: number): void => {
    flushHealth(visibleAt);
    stampMs = stamp;
    if (!healthyNow && visibleAt - stamp <= pleg.relistThresholdMs) {
      healthyNow = true;
      totals.unhealthyMs += visibleAt - unhealthySince;
      health.push({ atMs: visibleAt, healthy: true });
    }
  };

  // ---- runtime status (updateRuntimeUp) ----
  let lastRuntimeSync: number | null = null;
  let runtimeUp = false;
  const flushRuntime = (x: number): void => {
    if (runtimeUp && lastRuntimeSync !== null && x >= lastRuntimeSync + k.runtimeSyncThresholdMs) {
      runtimeUp = false;
      runtimeStatus.push({ atMs: lastRuntimeSync + k.runtimeSyncThresholdMs, up: false });
    }
  };
  const statusCheck = (t: number): void => {
    clock.now = t;
    const r = runtime.call(scenario.latency.status);
    const u = clock.now;
    q.schedule(u, () => {
      if (r.ok) {
        flushRuntime(u);
        lastRuntimeSync = u;
        if (!runtimeUp) {
          runtimeUp = true;
          runtimeStatus.push({ atMs: u, up: true });
        }
      }
      q.schedule(u + k.runtimeStatusPeriodMs, statusCheck);
    });
  };

  const NO_ERRORS: string[] = [];
  const runtimeErrorsAt = (x: number): string[] => {
    const pe = plegErrorAt(x);
    // With the gate on the kubelet also registers EventedPLEG's check: unhealthy when the channel is full.
    const ee = evented === null ? undefined : evented.healthy().error;
    // The common case on every sync pass: a fresh runtime status and a healthy PLEG.
    if (pe === undefined && ee === undefined && lastRuntimeSync !== null && lastRuntimeSync + k.runtimeSyncThresholdMs > x) return NO_ERRORS;
    const failingChecks: Array<[string, string]> = [];
    if (pe !== undefined) failingChecks.push(['PLEG', pe]);
    if (ee !== undefined) failingChecks.push(['EventedPLEG', ee]);
    return runtimeErrorMessages({ nowMs: x, lastRuntimeSyncMs: lastRuntimeSync, runtimeSyncThresholdMs: k.runtimeSyncThresholdMs, failingChecks });
  };

  // ---- consumer stalls ----
  const stallEndAt = (x: number): number | undefined => {
    for (const s of scenario.consumerStalls) if (x >= s.startMs && x < s.startMs + s.durationMs) return s.startMs + s.durationMs;
    return undefined;
  };

  // ---- the relist loop ----
  let blockedRelist: { report: RelistReport; startMs: number; getPodsEndMs: number; next: (endMs: number) => void } | null = null;
  const recordRelist = (report: RelistReport, startMs: number, endMs: number, getPodsEndMs: number): void => {
    const durationMs = endMs - startMs;
    totals.relists++;
    totals.sumMs += durationMs;
    totals.maxMs = Math.max(totals.maxMs, durationMs);
    totals.events += report.generated;
    totals.discards += report.discarded;
    if (!report.ok) {
      totals.failed++;
      log(endMs, 'E', 'generic.go:256', 'GenericPLEG: Unable to retrieve pods', [['err', report.error ?? '']]);
    }
    for (let i = 0; i < report.discarded; i++) log(endMs, 'E', 'generic.go:300', 'Event channel is full, discard this relist() cycle event');
    const notable = !report.ok || durationMs >= scenario.record.slowRelistMs || report.generated > 0 || report.discarded > 0;
    if (scenario.record.relists === 'all' || notable) {
      const entry: RelistEntry = {
        startMs,
        endMs,
        durationMs,
        getPodsEndMs,
        ok: report.ok,
        events: report.generated,
        delivered: report.delivered,
        discards: report.discarded,
        podsInspected: report.inspected.length,
      };
      if (report.error !== undefined) entry.error = report.error;
      relists.push(entry);
    }
  };

  /** One relist at t (`run` makes it: the loop's own, or one forced by a failed event stream); `next` runs when it ends. */
  const runRelist = (t: number, run: () => RelistReport, next: (endMs: number) => void): void => {
    clock.now = t;
    const prevStamp = pleg.lastRelistMs;
    const report = run();
    const relistEnd = clock.now;
    const getPodsEndMs = runtime.lastGetPodsEndMs;
    inFlight = { startMs: t, getPodsEndMs, endMs: relistEnd, ok: report.ok, prevStamp };
    q.schedule(relistEnd, () => {
      if (report.ok) stampChanged(getPodsEndMs, t);
      inFlight = null;
      if (report.blocked) {
        // Kubelet ≤1.13: stuck in a channel send until the sync loop reads (#72482).
        blockedRelist = { report, startMs: t, getPodsEndMs, next };
        consume(relistEnd);
        return;
      }
      recordRelist(report, t, relistEnd, getPodsEndMs);
      next(relistEnd);
      if (syncIdle(relistEnd)) consume(relistEnd);
    });
  };
  // ---- the on-demand per-pod relist (1.36+): the worker loop's request branch ----
  const onDemand: OnDemandSummary | null = k.onDemandRelist
    ? { requests: 0, dropped: 0, podRelists: 0, stale: 0, failedPodRelists: 0, maxPodRelistMs: 0, meanPodRelistMs: 0, delayedRelists: 0, maxRelistDelayMs: 0, totalRelistDelayMs: 0 }
    : null;
  const podRelists: PodRelistEntry[] = [];
  let podRelistMsSum = 0;
  /** When the per-pod relist holding the relist lock ends (-Infinity: none). */
  let podRelistUntil = Number.NEGATIVE_INFINITY;
  /** When the periodic relist's timer fires next (the worker serves it before any request). */
  let globalDueAt = 0;
  const relistBusyAt = (t: number): boolean => (inFlight !== null && (inFlight as InFlightRelist).endMs > t) || blockedRelist !== null;
  /** The worker loop is free at t: it serves queued requests until the queue is empty or the timer is due. */
  const serveRequests = (t: number): void => {
    if (onDemand === null) return;
    while (t >= podRelistUntil && t < globalDueAt && !relistBusyAt(t)) {
      clock.now = t;
      const served = pleg.serveRelistRequest();
      if (served === null) return;
      if (!served.ran) {
        onDemand.stale++;
        continue;
      }
      const r = served.report as NonNullable<typeof served.report>;
      const durationMs = r.endMs - r.startMs;
      onDemand.podRelists++;
      podRelistMsSum += durationMs;
      onDemand.maxPodRelistMs = Math.max(onDemand.maxPodRelistMs, durationMs);
      onDemand.meanPodRelistMs = podRelistMsSum / onDemand.podRelists;
      if (!r.ok) onDemand.failedPodRelists++;
      totals.events += r.generated;
      totals.discards += r.discarded;
      if (scenario.record.relists === 'all' || !r.ok || durationMs >= scenario.record.slowRelistMs) {
        const entry: PodRelistEntry = { pod: r.uid, requestedMs: served.requestedMs, startMs: r.startMs, endMs: r.endMs, durationMs, ok: r.ok, events: r.generated, delivered: r.delivered, discards: r.discarded };
        if (r.error !== undefined) entry.error = r.error;
        podRelists.push(entry);
      }
      podRelistUntil = r.endMs;
      q.schedule(r.endMs, () => {
        if (syncIdle(r.endMs)) consume(r.endMs);
        kickWorker(r.endMs);
      });
      return;
    }
  };
  /**
   * The worker loop notices it has work at t: queued after whatever else happens at t (a relist's end
   * hands its events to the sync loop before the next per-pod relist runs).
   */
  let kickPending = false;
  const kickWorker = (t: number): void => {
    if (onDemand === null || kickPending) return;
    kickPending = true;
    q.schedule(t, () => {
      kickPending = false;
      serveRequests(t);
    });
  };
  /** RequestRelist after a sync that changed the pod (the sync loop must be running pod syncs). */
  const requestRelist = (t: number, uid: string | undefined): void => {
    if (onDemand === null || uid === undefined || skipping !== null) return;
    clock.now = t;
    onDemand.requests++;
    if (pleg.requestRelist(uid) === 'dropped') onDemand.dropped++;
    kickWorker(t);
  };

  /** The relist goroutine; a fallback from EventedPLEG stops it and starts a new one (a new generation). */
  let loopGeneration = 0;
  const relistLoop = (generation: number) => {
    const start = (t: number): void => {
      if (generation !== loopGeneration) return;
      if (t < podRelistUntil && onDemand !== null) {
        // The timer fired while a per-pod relist held the relist lock: the periodic relist starts when it ends.
        const waitMs = podRelistUntil - t;
        onDemand.delayedRelists++;
        onDemand.totalRelistDelayMs += waitMs;
        onDemand.maxRelistDelayMs = Math.max(onDemand.maxRelistDelayMs, waitMs);
        q.schedule(podRelistUntil, start);
        return;
      }
      runRelist(
        t,
        () => pleg.relist(),
        (endMs) => {
          globalDueAt = endMs + pleg.relistPeriodMs;
          q.schedule(globalDueAt, start);
          kickWorker(endMs);
        },
      );
    };
    return start;
  };
  const relistStart = relistLoop(0);

  /** The sync loop reads the PLEG channel (all of it: syncLoopIteration runs back to back). */
  const consume = (t: number): void => {
    if (stallEndAt(t) !== undefined || skipping !== null || t < loopBusyUntil) return;
    clock.now = t;
    // syncLoop takes one event per pass and passes back to back, so a relist blocked in a send (≤1.13)
    // keeps going for as long as the loop keeps reading.
    while (pleg.drain() > 0 && pleg.blockedRelist !== null);
    const b = blockedRelist;
    if (b !== null && pleg.blockedRelist === null) {
      blockedRelist = null;
      const done = clock.now;
      recordRelist(b.report, b.startMs, done, b.getPodsEndMs);
      b.next(done);
    }
  };

  // ---- syncLoop ----
  let backoff = SKIP_BACKOFF_BASE_MS;
  let skipping: SkipWindow | null = null;
  let loopBusyUntil = 0;
  let nextHousekeeping = k.housekeepingPeriodMs;
  const syncIdle = (t: number): boolean => skipping === null && t >= loopBusyUntil && stallEndAt(t) === undefined;
  const nextGrid = (t: number, period: number): number => (Math.floor(t / period) + 1) * period;

  const syncIter = (t: number): void => {
    const stallEnd = stallEndAt(t);
    if (stallEnd !== undefined) {
      blocked.push({ startMs: t, endMs: stallEnd, cause: 'consumerStall' });
      loopBusyUntil = stallEnd;
      q.schedule(stallEnd, syncIter);
      return;
    }
    const errs = runtimeErrorsAt(t);
    if (errs.length > 0) {
      const text = aggregateError(errs) as string;
      if (skipping === null) {
        skipping = { startMs: t, endMs: null, skips: 0, firstError: text };
        skipWindows.push(skipping);
      }
      skipping.skips++;
      totals.skips++;
      log(t, 'E', 'kubelet.go:2273', 'Skipping pod synchronization', [['err', text]]);
      q.schedule(t + backoff, syncIter);
      backoff = Math.min(backoff * 2, SKIP_BACKOFF_MAX_MS);
      return;
    }
    backoff = SKIP_BACKOFF_BASE_MS;
    if (skipping !== null) {
      skipping.endMs = t;
      skipping = null;
    }
    consume(t);
    if (t >= nextHousekeeping) {
      nextHousekeeping = nextGrid(t, k.housekeepingPeriodMs);
      let u = t;
      if (k.housekeepingCallsRuntime) {
        clock.now = t;
        if (runtime.call(scenario.latency.listPodSandbox).ok) runtime.call(scenario.latency.listContainers);
        u = clock.now;
      }
      if (u > t) {
        // A tick that fired meanwhile waits in the ticker's one-slot channel and runs right away.
        if (u >= nextHousekeeping) nextHousekeeping = u;
        if (u - t >= NOTABLE_BLOCK_MS) blocked.push({ startMs: t, endMs: u, cause: 'housekeeping' });
        loopBusyUntil = u;
        q.schedule(u, syncIter);
        return;
      }
    }
    q.schedule(Math.min(nextGrid(t, k.syncTickMs), nextHousekeeping), syncIter);
  };

  // ---- node status ----
  let lastReady: ReadyCondition | null = null;
  const nodeStatus = (t: number): void => {
    clock.now = t;
    // A dockershim kubelet's cAdvisor asks dockerd for its version twice first, each with its own deadline.
    if (k.dockershim) for (const timeoutMs of DOCKERSHIM_LOOP.callsBeforeVersionMs) runtime.call(scenario.latency.version, timeoutMs);
    if (k.nodeStatusCallsRuntime) runtime.call(scenario.latency.version);
    const u = clock.now;
    q.schedule(u, () => {
      const cond = readyCondition(runtimeErrorsAt(u));
      if (cond.status === 'False') totals.notReadyPosts++;
      if (lastReady === null || cond.status !== lastReady.status || cond.message !== lastReady.message) {
        nodeReady.push({ atMs: u, ...cond });
        if (cond.status === 'False' && lastReady?.status === 'True') {
          const at = new Date(scenario.startEpochMs + u).toISOString().replace(/\.\d+Z$/u, 'Z');
          const condition = JSON.stringify({ type: 'Ready', status: cond.status, lastHeartbeatTime: at, lastTransitionTime: at, reason: cond.reason, message: cond.message });
          log(u, 'I', 'setters.go:602', 'Node became not ready', [['node', scenario.nodeName], ['condition', { raw: condition }]]);
        }
      }
      lastReady = cond;
      q.schedule(u + k.nodeStatusUpdateFrequencyMs, nodeStatus);
    });
  };

  // ---- churn ----
  const scheduleChurn = (perHour: number, act: () => void): void => {
    if (perHour <= 0) return;
    const meanMs = 3_600_000 / perHour;
    const tick = (t: number): void => {
      act();
      q.schedule(t + churnRng.exponential(meanMs), tick);
    };
    q.schedule(churnRng.exponential(meanMs), tick);
  };

  // ---- EventedPLEG ----
  const hungAt = (x: number): boolean => scenario.runtimeHangs.some((h) => x >= h.startMs && x < h.startMs + h.durationMs);
  const streamFailure = (t: number): void => {
    if (evented === null || eventedSummary === null) return;
    // Relists hold the generic PLEG's relist lock: a forced one waits for the one in flight.
    const busy = inFlight as InFlightRelist | null;
    if (busy !== null && busy.endMs > t) {
      q.schedule(busy.endMs, streamFailure);
      return;
    }
    if (t < podRelistUntil) {
      q.schedule(podRelistUntil, streamFailure);
      return;
    }
    let fellBack = false;
    runRelist(
      t,
      () => {
        const r = evented.streamFailed();
        fellBack = r.fellBack;
        // Only a ≤1.13 relist blocked in a send gives null, and those kubelets have no EventedPLEG.
        return r.relist as RelistReport;
      },
      (endMs) => {
        eventedSummary.streamFailures = evented.failedStreams;
        kickWorker(endMs);
        if (!fellBack) return;
        // Stop, Update(1 s, 3 min), Start: wait.Until relists at once, then every period.
        eventedSummary.fallbackAtMs = endMs;
        loopGeneration++;
        globalDueAt = endMs;
        q.schedule(endMs, relistLoop(loopGeneration));
      },
    );
  };
  if (evented !== null && eventedSummary !== null) {
    for (const at of scenario.eventedPleg?.streamFailuresMs ?? []) q.schedule(at, streamFailure);
    // A frozen runtime sends no events; once EventedPLEG is no longer in use nobody reads the stream.
    runtime.onChange = (change) => {
      if (!usage.inUse || hungAt(clock.now)) return;
      const createdAt = BigInt(DEFAULT_BASE_UNIX_SEC) * 1_000_000_000n + BigInt(Math.round(clock.now * 1e6));
      const r = evented.handleEvent({ type: change.type, containerId: change.containerId, createdAt, pod: change.pod });
      eventedSummary.criEvents++;
      if (r.ignored) eventedSummary.criEventsIgnored++;
      totals.events += r.generated;
      totals.discards += r.discarded;
      if (syncIdle(clock.now)) consume(clock.now);
    };
  }

  // The sync loop's first pass comes first: on a starting kubelet it finds neither a runtime status nor a relist.
  q.schedule(0, syncIter);
  q.schedule(0, statusCheck);
  q.schedule(0, relistStart);
  q.schedule(k.nodeStatusUpdateFrequencyMs, nodeStatus);
  scheduleChurn(scenario.churn.containerRestartsPerHour, () => requestRelist(clock.now, runtime.restartContainer()));
  scheduleChurn(scenario.churn.podReplacementsPerHour, () => requestRelist(clock.now, runtime.replacePod()));

  let steps = 0;
  for (;;) {
    const next = q.peekTime();
    if (next === undefined || next > end) break;
    const e = q.pop();
    if (e === undefined) break;
    if ((++steps & 4095) === 0 && signal?.aborted) throw new SimulationCancelledError();
    clock.now = e.at;
    e.run(e.at);
  }
  // A relist still running at the end: its stamp is already visible once its GetPods returned.
  // Assigned inside callbacks, so the compiler cannot see it is anything but its initial null here.
  const unfinished = inFlight as InFlightRelist | null;
  if (unfinished !== null && unfinished.ok && unfinished.getPodsEndMs <= end) stampChanged(unfinished.getPodsEndMs, unfinished.startMs);
  flushHealth(end);
  flushRuntime(end);
  if (!healthyNow) totals.unhealthyMs += end - unhealthySince;

  return {
    scenario: scenario.name,
    seed: scenario.seed,
    kubeletVersion: scenario.kubeletVersion,
    profile: profile.id,
    startTime: scenario.startTime,
    durationMs: end,
    relistsRecorded: scenario.record.relists,
    relists,
    evented: eventedSummary,
    ...(onDemand !== null ? { onDemand, podRelists } : {}),
    relistInFlight: unfinished === null ? null : { startMs: unfinished.startMs, getPodsEndMs: unfinished.getPodsEndMs, ok: unfinished.ok },
    health,
    runtimeStatus,
    nodeReady,
    skipWindows,
    blocked,
    logLines,
    summary: {
      relists: totals.relists,
      failedRelists: totals.failed,
      maxRelistMs: totals.maxMs,
      meanRelistMs: totals.relists === 0 ? 0 : totals.sumMs / totals.relists,
      events: totals.events,
      discards: totals.discards,
      criCalls: runtime.stats.calls,
      criTimeouts: runtime.stats.timeouts,
      unhealthyMs: totals.unhealthyMs,
      notReadyPosts: totals.notReadyPosts,
      skips: totals.skips,
      logLinesDropped,
    },
  };
}
