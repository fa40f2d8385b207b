// The simulated container runtime: the node's real pod state, churned at random, answering PLEG's CRI
// calls on the virtual clock. Every call's duration comes from the cost model (sampled latency, frozen
// windows, the per-call deadline), and the calls follow the kubelet's serial pattern.

import { criCallOutcome, type HangWindow } from '../cost/criCall';
import type { CriContainerEventType } from '../evented';
import type { GetPodResult, GetPodStatusResult, GetPodsResult, PlegRuntime, RuntimeContainer, RuntimePod } from '../types';
import type { SeededRandom } from './prng';
import type { LatencyDist, LatencyModel, Scenario, SlowWindow } from './scenario';

// sigma of each log-normal, computed once per distribution object (latencies are sampled ~300k times a day).
const sigmas = new WeakMap<LatencyDist, number>();

export function sampleLatency(d: LatencyDist, rng: SeededRandom): number {
  switch (d.kind) {
    case 'constant':
      return d.ms;
    case 'uniform':
      return d.minMs + rng.next() * (d.maxMs - d.minMs);
    case 'exponential':
      return rng.exponential(d.meanMs);
    case 'lognormal': {
      let sigma = sigmas.get(d);
      if (sigma === undefined) {
        // 2.3263 is the standard normal's 99th percentile.
        sigma = Math.log(d.p99Ms / d.medianMs) / 2.3263;
        sigmas.set(d, sigma);
      }
      return d.medianMs * Math.exp(sigma * rng.normal());
    }
  }
}

/** The virtual clock shared by the simulator and the PLEG model. */
export interface SimClock {
  now: number;
}

export interface CallLog {
  calls: number;
  timeouts: number;
}

export interface CallResult {
  readonly ok: boolean;
  readonly error?: string;
}

const CALL_OK: CallResult = Object.freeze({ ok: true });

/** A container change as a CRI GetContainerEvents stream reports it (EventedPLEG's input). */
export interface SimContainerChange {
  type: CriContainerEventType;
  containerId: string;
  /** The pod as the runtime reports it with the event (after the change). */
  pod: RuntimePod;
}

export class SimRuntime implements PlegRuntime {
  /** Told of every container change churn makes; the simulator turns them into CRI events. */
  onChange: ((change: SimContainerChange) => void) | undefined;
  private readonly pods = new Map<string, RuntimePod>();
  private list: RuntimePod[] | null = null;
  private nextId = 1;
  private nextPod = 1;
  /** When the last getPods() returned (the moment a successful relist stamps its start). */
  lastGetPodsEndMs = 0;
  readonly stats: CallLog = { calls: 0, timeouts: 0 };

  constructor(
    private readonly clock: SimClock,
    private readonly latency: LatencyModel,
    private readonly hangs: readonly HangWindow[],
    private readonly slowdowns: readonly SlowWindow[],
    private readonly timeoutMs: number,
    private readonly rng: SeededRandom,
    private readonly shape: Scenario['pods'],
  ) {
    for (let i = 0; i < shape.count; i++) this.addPod();
  }

  get podCount(): number {
    return this.pods.size;
  }

  /** One call at the current clock (a CRI call by default; another client's deadline when given); advances the clock to its end. */
  call(d: LatencyDist, timeoutMs: number = this.timeoutMs): CallResult {
    const start = this.clock.now;
    const out = criCallOutcome(start, sampleLatency(d, this.rng) * this.slowFactor(start), this.hangs, timeoutMs);
    this.clock.now = out.endMs;
    this.stats.calls++;
    if (!out.ok) {
      this.stats.timeouts++;
      return { ok: false, error: out.error as string };
    }
    return CALL_OK;
  }

  private slowFactor(at: number): number {
    for (const s of this.slowdowns) if (at >= s.startMs && at < s.startMs + s.durationMs) return s.factor;
    return 1;
  }

  getPods(): GetPodsResult {
    const a = this.call(this.latency.listPodSandbox);
    if (!a.ok) return this.endGetPods({ ok: false, error: a.error as string });
    const b = this.call(this.latency.listContainers);
    if (!b.ok) return this.endGetPods({ ok: false, error: b.error as string });
    this.list ??= [...this.pods.values()];
    return this.endGetPods({ ok: true, pods: this.list });
  }

  /**
   * 1.36 runtime.GetPod (PR #137471): GetPods for one pod, i.e. ListPodSandbox and ListContainers filtered
   * by the pod's UID; a pod the runtime does not have is an error (kubecontainer.ErrPodNotFound).
   */
  getPod(uid: string): GetPodResult {
    const a = this.call(this.latency.listPodSandbox);
    if (!a.ok) return { ok: false, error: a.error as string };
    const b = this.call(this.latency.listContainers);
    if (!b.ok) return { ok: false, error: b.error as string };
    const pod = this.pods.get(uid);
    return pod === undefined ? { ok: false, error: 'pod not found' } : { ok: true, pod };
  }

  private endGetPods(r: GetPodsResult): GetPodsResult {
    this.lastGetPodsEndMs = this.clock.now;
    return r;
  }

  /** ListPodSandbox(uid) → PodSandboxStatus × sandboxes → ListContainers(uid) → ContainerStatus × containers. */
  getPodStatus(pod: RuntimePod): GetPodStatusResult {
    const fail = (r: CallResult): GetPodStatusResult => ({ ok: false, error: r.error as string });
    const first = this.call(this.latency.listPodSandbox);
    if (!first.ok) return fail(first);
    const now = this.pods.get(pod.uid);
    const sandboxes = now?.sandboxes ?? [];
    const containers = now?.containers ?? [];
    for (let i = 0; i < sandboxes.length; i++) {
      const r = this.call(this.latency.podSandboxStatus);
      if (!r.ok) return fail(r);
    }
    const lc = this.call(this.latency.listContainers);
    if (!lc.ok) return fail(lc);
    for (let i = 0; i < containers.length; i++) {
      const r = this.call(this.latency.containerStatus);
      if (!r.ok) return fail(r);
    }
    return {
      ok: true,
      status: {
        uid: pod.uid,
        name: pod.name,
        namespace: pod.namespace,
        ips: now?.ips ?? [],
        containers,
        sandboxes: sandboxes.map((s) => ({ id: s.id, ready: s.state === 'running' })),
        timestamp: this.clock.now,
      },
    };
  }

  private newId(prefix: string): string {
    return `${prefix}${(this.nextId++).toString(16).padStart(8, '0')}`;
  }

  private addPod(): RuntimePod {
    const n = this.nextPod++;
    const uid = `pod-${n.toString().padStart(5, '0')}`;
    const containers: RuntimeContainer[] = [];
    const exact = this.shape.containersPerPod.perPod?.[n - 1];
    const count = exact ?? this.rng.int(this.shape.containersPerPod.min, this.shape.containersPerPod.max);
    for (let i = 0; i < count; i++) containers.push({ id: this.newId('c'), state: 'running' });
    const sandboxes: RuntimeContainer[] = [];
    for (let i = 0; i < this.shape.sandboxesPerPod; i++) sandboxes.push({ id: this.newId('s'), state: 'running' });
    const pod: RuntimePod = { uid, name: `app-${n}`, namespace: 'default', ips: [`10.0.${(n >> 8) & 255}.${n & 255}`], sandboxes, containers };
    this.pods.set(uid, pod);
    this.list = null;
    return pod;
  }

  private randomPod(): RuntimePod | undefined {
    if (this.pods.size === 0) return undefined;
    const k = this.rng.int(0, this.pods.size - 1);
    let i = 0;
    for (const p of this.pods.values()) if (i++ === k) return p;
    return undefined;
  }

  /**
   * A container crashes and the kubelet restarts it: the old one exits (and is garbage-collected after a
   * later restart) and a new ID runs. Pod objects are replaced, never mutated, so PLEG's record of the
   * old snapshot stays intact and unchanged pods keep their identity (the model's fast path).
   */
  restartContainer(): string | undefined {
    const pod = this.randomPod();
    if (!pod || pod.containers.length === 0) return undefined;
    const running = pod.containers.filter((c) => c.state === 'running');
    const victim = running[this.rng.int(0, Math.max(0, running.length - 1))];
    if (!victim) return undefined;
    const containers = pod.containers.filter((c) => c.state === 'running' || c === victim).map((c) => (c === victim ? { id: c.id, state: 'exited' as const } : c));
    const started = { id: this.newId('c'), state: 'running' as const };
    containers.push(started);
    const after = { ...pod, containers };
    this.pods.set(pod.uid, after);
    this.list = null;
    this.onChange?.({ type: 'CONTAINER_STOPPED_EVENT', containerId: victim.id, pod: after });
    this.onChange?.({ type: 'CONTAINER_CREATED_EVENT', containerId: started.id, pod: after });
    this.onChange?.({ type: 'CONTAINER_STARTED_EVENT', containerId: started.id, pod: after });
    return pod.uid;
  }

  /**
   * A pod is deleted (all its containers and sandboxes vanish) and a new one is scheduled in its place.
   * Returns the new pod's UID (the pod whose sync created something).
   */
  replacePod(): string | undefined {
    const pod = this.randomPod();
    if (!pod) return undefined;
    this.pods.delete(pod.uid);
    const added = this.addPod();
    if (this.onChange === undefined) return added.uid;
    // Containers go before their sandbox, as the kubelet removes them.
    for (const c of [...pod.containers, ...pod.sandboxes]) this.onChange({ type: 'CONTAINER_DELETED_EVENT', containerId: c.id, pod });
    for (const c of [...added.sandboxes, ...added.containers]) {
      this.onChange({ type: 'CONTAINER_CREATED_EVENT', containerId: c.id, pod: added });
      this.onChange({ type: 'CONTAINER_STARTED_EVENT', containerId: c.id, pod: added });
    }
    return added.uid;
  }
}
