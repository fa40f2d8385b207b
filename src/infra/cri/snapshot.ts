// One consistent look at the runtime, the way the kubelet looks at it: Version, Status, ListPodSandbox,
// ListContainers, then PodSandboxStatus per sandbox and ContainerStatus per container (bounded parallel).
// Every call has a deadline and is timed. A failing call becomes an entry in `errors`, never an exception:
// a hung runtime yields a snapshot full of DEADLINE_EXCEEDED, which is the finding.

import type {
  CriContainer,
  CriContainerStatus,
  CriPodSandboxStatus,
} from '../../core/parse/criTypes';
import type { CriSnapshot, SnapshotError, SnapshotFinding } from '../../core/node/nodeSnapshotTypes';
import type { RuntimeContainer, RuntimePod, ContainerState } from '../../core/pleg/types';
import { boundedMap } from './boundedMap';
import { CriError } from './criError';
import { GrpcCode, grpcCodeName } from './grpc/status';
import type { CriCallTiming, CriReader } from './reader';
import { DEFAULT_CRI_DEADLINE_MS } from './reader';

export interface SnapshotOptions {
  /** Per-call deadline (default 5 s). */
  deadlineMs?: number;
  /** Max concurrent per-pod / per-container status calls (default 8). */
  concurrency?: number;
  /** Verbose PodSandboxStatus asks the shim for the sandbox process state: how a hung shim shows up. */
  verboseSandboxStatus?: boolean;
  /** Also call ListContainerStats (served by the shims; hangs with a hung shim). */
  includeStats?: boolean;
  signal?: AbortSignal;
  /** Injectable clock for tests. */
  now?: () => Date;
}

export type { CriSnapshot, SnapshotError, SnapshotFinding } from '../../core/node/nodeSnapshotTypes';

/** Calls slower than this are reported (the kubelet's relist budget is 1 s per period; 3 min is the threshold). */
const SLOW_CALL_MS = 1_000;

function toSnapshotError(error: unknown, method: string, id: string | undefined): SnapshotError {
  const e =
    error instanceof CriError ? error : new CriError(GrpcCode.UNKNOWN, error instanceof Error ? error.message : String(error), method, 0);
  return { method: e.method || method, ...(id !== undefined ? { id } : {}), code: e.code, codeName: e.codeName, message: e.detail, ms: e.durationMs };
}

export async function takeSnapshot(client: CriReader, options: SnapshotOptions = {}): Promise<CriSnapshot> {
  const started = Date.now();
  const time = (options.now?.() ?? new Date(started)).toISOString();
  const deadlineMs = options.deadlineMs ?? DEFAULT_CRI_DEADLINE_MS;
  const concurrency = options.concurrency ?? 8;
  const call = { deadlineMs, ...(options.signal ? { signal: options.signal } : {}) };
  const timings: CriCallTiming[] = [];
  const errors: SnapshotError[] = [];
  const unsubscribe = client.onCall((t) => timings.push(t));
  const attempt = async <T>(method: string, fn: () => Promise<T>, id?: string): Promise<T | undefined> => {
    try {
      return await fn();
    } catch (error) {
      errors.push(toSnapshotError(error, method, id));
      return undefined;
    }
  };

  try {
    // The four top-level calls are independent; issuing them together keeps a hung runtime's
    // snapshot to one deadline instead of four.
    const [version, status, sandboxes, containers] = await Promise.all([
      attempt('Version', () => client.version(call)),
      attempt('Status', () => client.status(call)),
      attempt('ListPodSandbox', () => client.listPodSandbox(call)),
      attempt('ListContainers', () => client.listContainers(call)),
    ]);
    const verbose = options.verboseSandboxStatus ?? true;
    const [sandboxResults, containerResults, stats] = await Promise.all([
      boundedMap(sandboxes ?? [], concurrency, (s) => client.podSandboxStatus(s.id, { ...call, verbose })),
      boundedMap(containers ?? [], concurrency, (c) => client.containerStatus(c.id, { ...call, verbose: false })),
      options.includeStats ? attempt('ListContainerStats', () => client.listContainerStats(call)) : Promise.resolve(undefined),
    ]);
    const sandboxStatuses: CriPodSandboxStatus[] = [];
    sandboxResults.forEach((r, i) => {
      if (r.ok) sandboxStatuses.push(r.value);
      else errors.push(toSnapshotError(r.error, 'PodSandboxStatus', sandboxes?.[i]?.id));
    });
    const containerStatuses: CriContainerStatus[] = [];
    containerResults.forEach((r, i) => {
      if (r.ok) containerStatuses.push(r.value);
      else errors.push(toSnapshotError(r.error, 'ContainerStatus', containers?.[i]?.id));
    });
    const snapshot: CriSnapshot = {
      time,
      source: client.description,
      ...(version ? { runtime: { name: version.runtimeName, version: version.runtimeVersion, apiVersion: version.runtimeApiVersion } } : {}),
      ...(status ? { status: { conditions: status.conditions } } : {}),
      sandboxes: sandboxes ?? [],
      containers: containers ?? [],
      sandboxStatuses,
      containerStatuses,
      ...(stats ? { stats } : {}),
      timings,
      errors,
      findings: [],
      durationMs: Date.now() - started,
    };
    snapshot.findings = findingsOf(snapshot, deadlineMs);
    return snapshot;
  } finally {
    unsubscribe();
  }
}

/** Interprets the call outcomes (field guide §7, "Hung runtime vs hung shim"). */
export function findingsOf(snapshot: Pick<CriSnapshot, 'errors' | 'timings' | 'sandboxes' | 'sandboxStatuses'>, deadlineMs: number): SnapshotFinding[] {
  const findings: SnapshotFinding[] = [];
  const timedOut = (method: string): boolean => snapshot.errors.some((e) => e.method === method && e.code === GrpcCode.DEADLINE_EXCEEDED);
  const listsTimedOut = ['Version', 'ListPodSandbox', 'ListContainers'].filter(timedOut);
  if (listsTimedOut.length > 0) {
    findings.push({
      kind: 'runtimeUnresponsive',
      methods: listsTimedOut,
      message: `the runtime did not answer ${listsTimedOut.join(', ')} within ${deadlineMs} ms: the runtime daemon itself is hung or overloaded (this is what stalls the kubelet's PLEG relist)`,
    });
    return findings;
  }
  const listErrors = snapshot.errors.filter((e) => ['Version', 'ListPodSandbox', 'ListContainers'].includes(e.method));
  if (listErrors.length > 0) {
    // Refused, reset or unauthorized: the runtime is down or the path to it is broken, not slow.
    const first = listErrors[0] as SnapshotError;
    findings.push({
      kind: 'runtimeUnreachable',
      methods: listErrors.map((e) => e.method),
      message: `the runtime could not be asked (${first.codeName}: ${first.message}): it is not running, or the transport to its socket failed`,
    });
    return findings;
  }
  // List* answered from the runtime's memory, but the shim-backed verbose status did not: a hung shim.
  for (const error of snapshot.errors) {
    if (error.method !== 'PodSandboxStatus' || error.code !== GrpcCode.DEADLINE_EXCEEDED || error.id === undefined) continue;
    const sandbox = snapshot.sandboxes.find((s) => s.id === error.id);
    findings.push({
      kind: 'hungShim',
      sandboxId: error.id,
      podName: sandbox?.metadata.name ?? '',
      podNamespace: sandbox?.metadata.namespace ?? '',
      message: `PodSandboxStatus for ${sandbox ? `${sandbox.metadata.namespace}/${sandbox.metadata.name}` : error.id} timed out after ${deadlineMs} ms while the list calls answered: its containerd-shim is likely hung`,
    });
  }
  for (const status of snapshot.sandboxStatuses) {
    if (status.info['processStatus'] === 'unknown' && !findings.some((f) => f.kind === 'hungShim' && f.sandboxId === status.id)) {
      findings.push({
        kind: 'hungShim',
        sandboxId: status.id,
        podName: status.metadata.name,
        podNamespace: status.metadata.namespace,
        message: `the runtime reports processStatus "unknown" for ${status.metadata.namespace}/${status.metadata.name}: its shim did not answer the runtime in time`,
      });
    }
  }
  const slow = [...new Set(snapshot.timings.filter((t) => t.ok && t.ms >= SLOW_CALL_MS).map((t) => t.method))];
  if (slow.length > 0) findings.push({ kind: 'slowCalls', methods: slow, message: `calls slower than ${SLOW_CALL_MS} ms: ${slow.join(', ')}` });
  return findings;
}

const CONTAINER_STATE: Record<CriContainer['state'], ContainerState> = {
  CONTAINER_CREATED: 'created',
  CONTAINER_RUNNING: 'running',
  CONTAINER_EXITED: 'exited',
  CONTAINER_UNKNOWN: 'unknown',
};

/**
 * The snapshot as the PLEG model sees a relist: pods keyed by UID, sandboxes as containers (running when
 * SANDBOX_READY, exited otherwise, as the kubelet's runtime manager converts them). statusTimestampMs is
 * left unset: containerd 1.6 does not fill PodSandboxStatusResponse.timestamp (EventedPLEG needs ≥ 1.7).
 */
export function snapshotToRuntimePods(snapshot: Pick<CriSnapshot, 'sandboxes' | 'containers' | 'sandboxStatuses'>): RuntimePod[] {
  const pods = new Map<string, RuntimePod>();
  const sandboxPod = new Map<string, RuntimePod>();
  for (const sandbox of snapshot.sandboxes) {
    const uid = sandbox.metadata.uid;
    let pod = pods.get(uid);
    if (!pod) {
      pod = { uid, name: sandbox.metadata.name, namespace: sandbox.metadata.namespace, sandboxes: [], containers: [] };
      pods.set(uid, pod);
    }
    const state: RuntimeContainer['state'] = sandbox.state === 'SANDBOX_READY' ? 'running' : 'exited';
    pod.sandboxes.push({ id: sandbox.id, state });
    sandboxPod.set(sandbox.id, pod);
    const status = snapshot.sandboxStatuses.find((s) => s.id === sandbox.id);
    if (status && sandbox.state === 'SANDBOX_READY') {
      const ips = [status.ip, ...status.additionalIps].filter((ip) => ip !== '');
      if (ips.length > 0) pod.ips = ips;
    }
  }
  for (const container of snapshot.containers) {
    // Containers whose sandbox is gone still belong to their pod (kubelet groups by the pod UID label).
    let pod = sandboxPod.get(container.podSandboxId);
    if (!pod) {
      const uid = container.labels['io.kubernetes.pod.uid'] ?? `sandbox:${container.podSandboxId}`;
      pod = pods.get(uid) ?? { uid, name: container.labels['io.kubernetes.pod.name'] ?? '', namespace: container.labels['io.kubernetes.pod.namespace'] ?? '', sandboxes: [], containers: [] };
      pods.set(uid, pod);
    }
    pod.containers.push({ id: container.id, state: CONTAINER_STATE[container.state] });
  }
  return [...pods.values()];
}

export function describeError(error: SnapshotError): string {
  return `${error.method}${error.id ? ` ${error.id.slice(0, 13)}` : ''}: ${grpcCodeName(error.code)}: ${error.message}`;
}
