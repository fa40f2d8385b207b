// What a generic relist costs in wall time. The kubelet does everything serially: GetPods is
// ListPodSandbox + ListContainers; then, for each pod with events (or awaiting reinspection), GetPodStatus
// is ListPodSandbox(uid) → PodSandboxStatus per sandbox → ListContainers(uid) → ContainerStatus per
// container, stopping at the first failing call. A call never lasts longer than runtimeRequestTimeout.

import { DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS } from './criCall';

/** Per-call latency of the CRI calls a relist makes, in ms. */
export interface RpcLatencies {
  listPodSandboxMs: number;
  listContainersMs: number;
  podSandboxStatusMs: number;
  containerStatusMs: number;
}

export interface RelistWorkload {
  pods: number;
  containersPerPod: number;
  /** Usually 1; more when old sandboxes of a pod are still around. */
  sandboxesPerPod?: number;
  /** Pods that get a GetPodStatus this relist (pods with events plus pods awaiting reinspection). */
  inspectedPods: number;
}

export interface RelistCost {
  getPodsMs: number;
  /** False when ListPodSandbox or ListContainers hit the deadline: the relist ends with an error. */
  getPodsOk: boolean;
  /** Cost of one GetPodStatus. */
  podStatusMs: number;
  podStatusOk: boolean;
  inspectMs: number;
  totalMs: number;
  /** CRI calls issued. */
  calls: number;
}

function call(latencyMs: number, timeoutMs: number): { ms: number; ok: boolean } {
  if (!(latencyMs >= 0)) throw new RangeError(`a CRI latency must be a non-negative number of ms, got ${latencyMs}`);
  return latencyMs > timeoutMs ? { ms: timeoutMs, ok: false } : { ms: latencyMs, ok: true };
}

/** Runs a serial call sequence, stopping at the first failure. */
function serial(latencies: readonly number[], timeoutMs: number): { ms: number; ok: boolean; calls: number } {
  let ms = 0;
  let calls = 0;
  for (const l of latencies) {
    const c = call(l, timeoutMs);
    ms += c.ms;
    calls++;
    if (!c.ok) return { ms, ok: false, calls };
  }
  return { ms, ok: true, calls };
}

export function getPodStatusCalls(lat: RpcLatencies, sandboxes: number, containers: number): number[] {
  const seq = [lat.listPodSandboxMs];
  for (let i = 0; i < sandboxes; i++) seq.push(lat.podSandboxStatusMs);
  seq.push(lat.listContainersMs);
  for (let i = 0; i < containers; i++) seq.push(lat.containerStatusMs);
  return seq;
}

export function relistCost(lat: RpcLatencies, work: RelistWorkload, runtimeRequestTimeoutMs = DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS): RelistCost {
  for (const [k, v] of Object.entries(work)) {
    if (typeof v === 'number' && (!Number.isInteger(v) || v < 0)) throw new RangeError(`workload.${k} must be a non-negative integer, got ${v}`);
  }
  if (work.inspectedPods > work.pods) throw new RangeError(`workload.inspectedPods (${work.inspectedPods}) exceeds workload.pods (${work.pods})`);
  if (!(runtimeRequestTimeoutMs > 0)) throw new RangeError(`runtimeRequestTimeout must be positive, got ${runtimeRequestTimeoutMs}`);
  const getPods = serial([lat.listPodSandboxMs, lat.listContainersMs], runtimeRequestTimeoutMs);
  const perPod = serial(getPodStatusCalls(lat, work.sandboxesPerPod ?? 1, work.containersPerPod), runtimeRequestTimeoutMs);
  if (!getPods.ok) {
    return { getPodsMs: getPods.ms, getPodsOk: false, podStatusMs: perPod.ms, podStatusOk: perPod.ok, inspectMs: 0, totalMs: getPods.ms, calls: getPods.calls };
  }
  const inspectMs = perPod.ms * work.inspectedPods;
  return {
    getPodsMs: getPods.ms,
    getPodsOk: true,
    podStatusMs: perPod.ms,
    podStatusOk: perPod.ok,
    inspectMs,
    totalMs: getPods.ms + inspectMs,
    calls: getPods.calls + perPod.calls * work.inspectedPods,
  };
}

/** What one on-demand per-pod relist (kubelet 1.36+ relistPod) costs. */
export interface PodRelistCost {
  /** GetPod: ListPodSandbox and ListContainers filtered to the pod (PR #137471: GetPods for one pod). */
  getPodMs: number;
  getPodOk: boolean;
  /** The GetPodStatus that follows when the pod changed or awaits reinspection (0 when it did not run). */
  podStatusMs: number;
  totalMs: number;
  calls: number;
}

/**
 * A per-pod relist: GetPod, then (when `inspects`) the pod's GetPodStatus, serially, stopping at the first
 * failing call; a failed GetPod ends it (the kubelet only logs). It holds the relist lock throughout, so this
 * is also the longest a periodic relist can wait behind it (the worker loop serves the periodic timer
 * before the next request).
 */
export function podRelistCost(lat: RpcLatencies, sandboxes: number, containers: number, inspects = true, runtimeRequestTimeoutMs = DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS): PodRelistCost {
  for (const [k, v] of Object.entries({ sandboxes, containers })) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`${k} must be a non-negative integer, got ${v}`);
  }
  if (!(runtimeRequestTimeoutMs > 0)) throw new RangeError(`runtimeRequestTimeout must be positive, got ${runtimeRequestTimeoutMs}`);
  const getPod = serial([lat.listPodSandboxMs, lat.listContainersMs], runtimeRequestTimeoutMs);
  if (!getPod.ok || !inspects) return { getPodMs: getPod.ms, getPodOk: getPod.ok, podStatusMs: 0, totalMs: getPod.ms, calls: getPod.calls };
  const status = serial(getPodStatusCalls(lat, sandboxes, containers), runtimeRequestTimeoutMs);
  return { getPodMs: getPod.ms, getPodOk: true, podStatusMs: status.ms, totalMs: getPod.ms + status.ms, calls: getPod.calls + status.calls };
}
