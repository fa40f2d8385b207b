// A scripted runtime and clock for driving GenericPleg/EventedPleg in tests.

import { EventChannel } from '../../src/core/pleg/channel';
import type { EventedUsage } from '../../src/core/pleg/generic';
import { GenericPleg } from '../../src/core/pleg/generic';
import { PodCache } from '../../src/core/pleg/podCache';
import { statusFromPod } from '../../src/core/pleg/podStatus';
import type { PlegProfile } from '../../src/core/pleg/profiles';
import type { ContainerState, RuntimePod } from '../../src/core/pleg/types';

export class ScriptedRuntime {
  pods: RuntimePod[] = [];
  getPodsError: string | null = null;
  statusErrors = new Map<string, string>();
  /** Simulated latency of each GetPodStatus call, in ms of the test clock. */
  statusLatencyMs = 0;
  constructor(private readonly clock: { t: number }) {}

  getPods() {
    if (this.getPodsError !== null) return { ok: false as const, error: this.getPodsError };
    return { ok: true as const, pods: this.pods };
  }

  /** 1.36 GetPod: the first pod with the UID, else not found. */
  getPod(uid: string) {
    if (this.getPodsError !== null) return { ok: false as const, error: this.getPodsError };
    const live = this.pods.find((p) => p.uid === uid);
    return live === undefined ? { ok: false as const, error: 'pod not found' } : { ok: true as const, pod: live };
  }

  getPodStatus(pod: RuntimePod) {
    this.clock.t += this.statusLatencyMs;
    const err = this.statusErrors.get(pod.uid);
    if (err !== undefined) return { ok: false as const, error: err };
    const live = this.pods.find((p) => p.uid === pod.uid);
    return { ok: true as const, status: statusFromPod(live ?? { ...pod, containers: [], sandboxes: [] }) };
  }
}

export function pod(uid: string, containers: Record<string, ContainerState>, sandboxes: Record<string, ContainerState> = {}): RuntimePod {
  return {
    uid,
    name: `pod-${uid}`,
    namespace: 'default',
    containers: Object.entries(containers).map(([id, state]) => ({ id, state })),
    sandboxes: Object.entries(sandboxes).map(([id, state]) => ({ id, state })),
  };
}

export interface Harness {
  clock: { t: number };
  runtime: ScriptedRuntime;
  channel: EventChannel;
  cache: PodCache | null;
  usage: EventedUsage;
  pleg: GenericPleg;
}

export function harness(
  profile: PlegProfile,
  opts: { capacity?: number; cache?: boolean; eventedGate?: boolean; thresholdMs?: number; onDemandRelist?: boolean } = {},
): Harness {
  const clock = { t: 0 };
  const runtime = new ScriptedRuntime(clock);
  const channel = new EventChannel(opts.capacity ?? 1000);
  const cache = opts.cache === false ? null : new PodCache(opts.eventedGate ?? false);
  const usage: EventedUsage = { inUse: false };
  const pleg = new GenericPleg({
    profile,
    runtime,
    clock: { now: () => clock.t },
    channel,
    cache,
    eventedGate: opts.eventedGate ?? false,
    eventedUsage: usage,
    ...(opts.thresholdMs === undefined ? {} : { relistThresholdMs: opts.thresholdMs }),
    ...(opts.onDemandRelist === undefined ? {} : { onDemandRelist: opts.onDemandRelist }),
  });
  return { clock, runtime, channel, cache, usage, pleg };
}
