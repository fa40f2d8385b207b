// Recorded-looking PLEG timeline sessions for the webview test and benchmark: a node relisting once a
// second whose runtime freezes for a while (relists hang until the runtime request timeout and fail,
// PLEG turns unhealthy 3 minutes after the last good relist started, the node posts NotReady at its
// next status update), then recovers with a burst of events (some discarded). Deterministic.

import type { KubeletSample, SessionDelta, SessionPodEvent, SessionRelist, TimelineSession } from '../../src/core/timeline/session';
import { TIMELINE_SESSION_FORMAT } from '../../src/core/timeline/session';

export interface SessionShape {
  durationS: number;
  pods: number;
  /** The runtime stops answering at `atS` for `forS` seconds; none when absent. */
  freeze?: { atS: number; forS: number };
  startedAt?: string;
}

const THRESHOLD_MS = 180_000;
const TIMEOUT_MS = 120_000;
const STATUS_PERIOD_MS = 10_000;

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const podName = (i: number): string => `shop/web-${String(i).padStart(3, '0')}`;

export class SessionRecorder {
  readonly session: TimelineSession;
  private readonly rand = random(11);
  private nextStartMs = 0;
  private lastGoodStartMs = 0;
  private healthy = true;
  private ready: 'True' | 'False' = 'True';
  private nextStatusMs = STATUS_PERIOD_MS;
  private nextScrapeMs = 5_000;
  private relistsSinceScrape: number[] = [];
  private discardsTotal = 0;

  constructor(private readonly shape: SessionShape) {
    this.session = {
      format: TIMELINE_SESSION_FORMAT,
      node: 'prod-eu-node-07',
      context: 'prod-eu',
      source: 'live',
      kubeletVersion: 'v1.32.10',
      startedAt: shape.startedAt ?? '2026-11-22T03:00:00.000Z',
      durationMs: 0,
      settings: { relistPeriodMs: 1000, thresholdMs: THRESHOLD_MS, runtimeRequestTimeoutMs: TIMEOUT_MS, profile: '1.32+', evented: false },
      lacks: ['recorded for the test: pod names are made up'],
      relists: [],
      podEvents: [],
      health: [{ atMs: 0, healthy: true }],
      ready: [{ atMs: 0, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
      kubelet: [],
      cost: [],
    };
  }

  private frozenAt(ms: number): boolean {
    const f = this.shape.freeze;
    return f !== undefined && ms >= f.atS * 1000 && ms < (f.atS + f.forS) * 1000;
  }

  private thawMs(): number {
    const f = this.shape.freeze!;
    return (f.atS + f.forS) * 1000;
  }

  /** Records everything up to `untilMs` and returns it as one delta (also applied to `session`). */
  advance(untilMs: number): SessionDelta {
    const delta: Required<Pick<SessionDelta, 'relists' | 'podEvents' | 'health' | 'ready' | 'kubelet'>> & SessionDelta = { durationMs: untilMs, relists: [], podEvents: [], health: [], ready: [], kubelet: [] };
    while (this.nextStartMs < untilMs) {
      const relist = this.relist(this.nextStartMs, delta.podEvents);
      // The kubelet's status updates and our scrapes while this relist ran see the stamp before it.
      while (this.nextStatusMs <= relist.endMs) this.status(this.nextStatusMs, delta);
      while (this.nextScrapeMs <= relist.endMs) this.scrape(this.nextScrapeMs, delta);
      // Health is checked by the kubelet between relists: flip when the stamp got too old.
      const unhealthyFrom = this.lastGoodStartMs + THRESHOLD_MS;
      if (this.healthy && relist.endMs > unhealthyFrom) {
        this.healthy = false;
        delta.health.push({ atMs: unhealthyFrom, healthy: false, message: `pleg was last seen active 3m0s ago; threshold is 3m0s` });
      }
      if (relist.ok) {
        this.lastGoodStartMs = relist.startMs;
        if (!this.healthy) {
          this.healthy = true;
          delta.health.push({ atMs: relist.endMs, healthy: true });
        }
      }
      relist.sinceLastRelistStartMs = relist.endMs - this.lastGoodStartMs;
      delta.relists.push(relist);
      this.relistsSinceScrape.push(relist.endMs - relist.startMs);
      this.nextStartMs = relist.endMs + 1000;
    }
    this.session.durationMs = untilMs;
    for (const key of ['relists', 'podEvents', 'health', 'ready', 'kubelet'] as const) (this.session[key] as unknown[]).push(...delta[key]);
    return delta;
  }

  private status(atMs: number, delta: SessionDelta & { ready: TimelineSession['ready'] }): void {
    this.nextStatusMs += STATUS_PERIOD_MS;
    const want = this.healthy || atMs < this.lastGoodStartMs + THRESHOLD_MS ? 'True' : 'False';
    if (want === this.ready) return;
    this.ready = want;
    delta.ready.push(
      want === 'True'
        ? { atMs, status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
        : { atMs, status: 'False', reason: 'KubeletNotReady', message: 'PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s' },
    );
  }

  private scrape(atMs: number, delta: SessionDelta & { kubelet: KubeletSample[] }): void {
    this.nextScrapeMs += 10_000;
    const durations = this.relistsSinceScrape.splice(0);
    const sample: KubeletSample = {
      atMs,
      scrape: 'ok',
      lastSeenAgeS: Math.floor((atMs - this.lastGoodStartMs) / 1000),
      discardEvents: this.discardsTotal,
      runningPods: this.shape.pods,
      runningContainers: this.shape.pods * 2,
      runtimeErrors: {},
    };
    if (durations.length > 0) sample.relistDurationS = (durations.reduce((a, b) => a + b, 0) / durations.length / 1000) * 1.05;
    delta.kubelet.push(sample);
  }

  private relist(startMs: number, events: SessionPodEvent[]): SessionRelist {
    const lat = (): number => 0.3 + this.rand() * 2.5;
    const rpcs: SessionRelist['rpcs'] = [];
    let at = 0;
    const call = (rpc: SessionRelist['rpcs'][number]['rpc'], pod?: string): void => {
      const latencyMs = lat();
      rpcs.push(pod === undefined ? { rpc, atMs: at, latencyMs } : { rpc, atMs: at, latencyMs, pod });
      at += latencyMs;
    };
    if (this.frozenAt(startMs)) {
      // ListPodSandbox hangs until the runtime request timeout (or the thaw, if that comes first).
      const endMs = Math.min(startMs + TIMEOUT_MS, Math.max(this.thawMs(), startMs + 1));
      const failed = endMs - startMs >= TIMEOUT_MS;
      const error = `rpc error: code = DeadlineExceeded desc = context deadline exceeded after ${TIMEOUT_MS} ms`;
      rpcs.push(failed ? { rpc: 'ListPodSandbox', atMs: 0, latencyMs: TIMEOUT_MS, error } : { rpc: 'ListPodSandbox', atMs: 0, latencyMs: endMs - startMs });
      if (failed) return { startMs, endMs, ok: false, error, rpcs, podsInspected: [], events: 0, discards: 0, sinceLastRelistStartMs: 0 };
      at = endMs - startMs;
      call('ListContainers');
      // The thaw: every pod changed while the runtime was frozen, a burst that overflows the channel.
      const pods = Array.from({ length: this.shape.pods }, (_v, i) => podName(i));
      for (const pod of pods) call('PodSandboxStatus', pod);
      for (const [i, pod] of pods.entries()) events.push({ atMs: startMs + at, pod, type: i % 3 === 0 ? 'ContainerDied' : 'ContainerStarted', container: `c${i}` });
      const discards = Math.max(0, pods.length - 20);
      this.discardsTotal += discards;
      return { startMs, endMs: startMs + at, ok: true, rpcs, podsInspected: pods, events: pods.length, discards, sinceLastRelistStartMs: 0, pods: this.shape.pods, containers: this.shape.pods * 2 };
    }
    call('ListPodSandbox');
    call('ListContainers');
    const inspected: string[] = [];
    // About one pod in 40 relists changes: a restart (Died then Started), now and then a removal.
    if (this.rand() < 0.025 * Math.min(this.shape.pods, 40) / 10) {
      const i = Math.floor(this.rand() * this.shape.pods);
      const pod = podName(i);
      call('PodSandboxStatus', pod);
      call('ContainerStatus', pod);
      inspected.push(pod);
      const roll = this.rand();
      const types: SessionPodEvent['type'][] = roll < 0.15 ? ['ContainerRemoved'] : roll < 0.3 ? ['ContainerChanged'] : ['ContainerDied', 'ContainerStarted'];
      for (const type of types) events.push({ atMs: startMs + at, pod, type, container: `c${i}` });
    }
    return { startMs, endMs: startMs + at, ok: true, rpcs, podsInspected: inspected, events: inspected.length === 0 ? 0 : 1, discards: 0, sinceLastRelistStartMs: 0, pods: this.shape.pods, containers: this.shape.pods * 2 };
  }
}

/** A whole recording: `shape.durationS` seconds, recorded at once. */
export function recordedSession(shape: SessionShape): TimelineSession {
  const recorder = new SessionRecorder(shape);
  recorder.advance(shape.durationS * 1000);
  return recorder.session;
}
