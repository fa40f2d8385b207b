// One consistent look at the runtime, the way the kubelet looks at it: Version, Status, ListPodSandbox,
// ListContainers, then PodSandboxStatus per sandbox, ContainerStatus per container and (when asked) the
// stats of each running container, bounded parallel. Every call has a deadline and is timed, and the whole
// snapshot has a budget: a node with hundreds of containers behind a slow runtime must not take
// minutes. A failing call becomes an entry in `errors`, never an exception: a hung runtime yields a
// snapshot full of DEADLINE_EXCEEDED, which is the finding; calls the budget cut are listed as not read.

import { setMaxListeners } from 'node:events';
import type {
  CriContainer,
  CriContainerStats,
  CriContainerStatus,
  CriPodSandboxStatus,
} from '../../core/parse/criTypes';
import { parseStatsList } from '../../core/parse/criJson';
import type { CriSnapshot, SnapshotBudget, SnapshotError, SnapshotFinding } from '../../core/node/nodeSnapshotTypes';
import type { RuntimeContainer, RuntimePod, ContainerState } from '../../core/pleg/types';
import { boundedMap, type Settled } from './boundedMap';
import { GrpcCriClient } from './criClient';
import { CriError } from './criError';
import { GrpcCode } from './grpc/status';
import type { CriCallOptions, CriCallTiming, CriReader } from './reader';
import { DEFAULT_CRI_DEADLINE_MS } from './reader';
import { errorText } from '../../core/util/errorText';

export interface SnapshotOptions {
  /** Per-call deadline (default 5 s). */
  deadlineMs?: number;
  /** Max concurrent per-pod / per-container status calls (default 8). */
  concurrency?: number;
  /** Verbose PodSandboxStatus asks the shim for the sandbox process state: how a hung shim shows up. */
  verboseSandboxStatus?: boolean;
  /** Also call ListContainerStats once for every container (served by the shims; hangs with a hung shim). */
  includeStats?: boolean;
  /**
   * Ask for the stats of each running container on its own (ListContainerStats filtered to one id, which
   * containerd answers by asking that container's shim). A hung shim then times out on its own call, so
   * the snapshot names its container and pod; the List* calls never reach a shim and cannot show it.
   */
  perContainerStats?: boolean;
  /** Total time for the whole snapshot (default 30 s); what is not answered by then is listed as not read. */
  budgetMs?: number;
  signal?: AbortSignal;
  /** Injectable clock for tests. */
  now?: () => Date;
}

export const DEFAULT_SNAPSHOT_BUDGET_MS = 30_000;

export type { CriSnapshot, SnapshotError, SnapshotFinding } from '../../core/node/nodeSnapshotTypes';

/** Calls slower than this are reported (the kubelet's relist budget is 1 s per period; 3 min is the threshold). */
const SLOW_CALL_MS = 1_000;

/** Methods whose answer comes from the runtime daemon itself (not a shim). */
const RUNTIME_LIST_METHODS = ['Version', 'ListPodSandbox', 'ListContainers'];

function toSnapshotError(error: unknown, method: string, id: string | undefined): SnapshotError {
  const e =
    error instanceof CriError ? error : new CriError(GrpcCode.UNKNOWN, errorText(error), method, 0);
  return { method: e.method || method, ...(id !== undefined ? { id } : {}), code: e.code, codeName: e.codeName, message: e.detail, ms: e.durationMs };
}

/** Thrown instead of starting a call once the budget is spent. */
class NotStarted extends Error {}

/** One running container's stats, from its shim. Only the gRPC client can filter by id; others get the whole list. */
async function oneContainerStats(client: GrpcCriClient, id: string, call: CriCallOptions): Promise<CriContainerStats[]> {
  return parseStatsList(await client.call('ListContainerStats', { filter: { id } }, call, id));
}

export async function takeSnapshot(client: CriReader, options: SnapshotOptions = {}): Promise<CriSnapshot> {
  const started = Date.now();
  const time = (options.now?.() ?? new Date(started)).toISOString();
  const deadlineMs = options.deadlineMs ?? DEFAULT_CRI_DEADLINE_MS;
  const concurrency = options.concurrency ?? 8;
  const budgetMs = options.budgetMs ?? DEFAULT_SNAPSHOT_BUDGET_MS;
  if (!(budgetMs > 0)) throw new RangeError(`snapshot budget must be positive, got ${budgetMs} ms`);

  // One controller for every call: the caller's cancellation and the budget both abort it.
  const controller = new AbortController();
  // Every call in flight listens on this one signal: up to three bounded maps plus the four list calls.
  setMaxListeners(3 * concurrency + 8, controller.signal);
  let exhausted = false;
  const outer = options.signal;
  const onOuterAbort = (): void => controller.abort(outer?.reason);
  if (outer?.aborted === true) controller.abort(outer.reason);
  else outer?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => {
    exhausted = true;
    controller.abort(new Error(`the snapshot budget of ${budgetMs} ms ran out`));
  }, budgetMs);

  const call = { deadlineMs, signal: controller.signal };
  const timings: CriCallTiming[] = [];
  const errors: SnapshotError[] = [];
  const notRead = new Map<string, string[]>();
  const markNotRead = (method: string, id: string | undefined): void => {
    const ids = notRead.get(method) ?? [];
    if (id !== undefined) ids.push(id);
    notRead.set(method, ids);
  };
  /** A failure the budget caused is "not read"; anything else (a deadline, a refusal) is evidence. */
  const record = (error: unknown, method: string, id: string | undefined): void => {
    const byBudget = error instanceof NotStarted || (exhausted && outer?.aborted !== true && error instanceof CriError && error.code === GrpcCode.CANCELLED);
    if (byBudget) markNotRead(method, id);
    else errors.push(toSnapshotError(error, method, id));
  };
  const unsubscribe = client.onCall((t) => timings.push(t));
  const attempt = async <T>(method: string, fn: () => Promise<T>, id?: string): Promise<T | undefined> => {
    try {
      if (exhausted) throw new NotStarted();
      return await fn();
    } catch (error) {
      record(error, method, id);
      return undefined;
    }
  };
  const each = <T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<Settled<R>[]> =>
    boundedMap(items, concurrency, (item) => {
      if (exhausted) return Promise.reject(new NotStarted());
      return fn(item);
    });
  const collect = <T, R>(results: Settled<R>[], items: readonly T[], method: string, idOf: (item: T) => string): R[] => {
    const values: R[] = [];
    results.forEach((r, i) => {
      const item = items[i] as T;
      if (r.ok) values.push(r.value);
      else record(r.error, method, idOf(item));
    });
    return values;
  };

  try {
    // The four top-level calls are independent; issuing them together keeps a hung runtime's
    // snapshot to one deadline instead of four.
    const [version, status, sandboxList, containerList] = await Promise.all([
      attempt('Version', () => client.version(call)),
      attempt('Status', () => client.status(call)),
      attempt('ListPodSandbox', () => client.listPodSandbox(call)),
      attempt('ListContainers', () => client.listContainers(call)),
    ]);
    const sandboxes = sandboxList ?? [];
    const containers = containerList ?? [];
    const verbose = options.verboseSandboxStatus ?? true;
    const running = options.perContainerStats === true ? containers.filter((c) => c.state === 'CONTAINER_RUNNING') : [];
    const perContainer = running.length > 0 && client instanceof GrpcCriClient ? client : undefined;
    // Without a gRPC client (crictl) the stats cannot be asked per container: one list call still shows a hang.
    const wholeList = options.includeStats === true || (running.length > 0 && perContainer === undefined);
    const [sandboxResults, containerResults, statsResults, stats] = await Promise.all([
      each(sandboxes, (s) => client.podSandboxStatus(s.id, { ...call, verbose })),
      each(containers, (c) => client.containerStatus(c.id, { ...call, verbose: false })),
      perContainer !== undefined ? each(running, (c) => oneContainerStats(perContainer, c.id, call)) : Promise.resolve([]),
      wholeList ? attempt('ListContainerStats', () => client.listContainerStats(call)) : Promise.resolve(undefined),
    ]);
    const sandboxStatuses: CriPodSandboxStatus[] = collect(sandboxResults, sandboxes, 'PodSandboxStatus', (s) => s.id);
    const containerStatuses: CriContainerStatus[] = collect(containerResults, containers, 'ContainerStatus', (c) => c.id);
    const statsByContainer = collect(statsResults, running, 'ListContainerStats', (c) => c.id).flat();
    const allStats = [...(stats ?? []), ...statsByContainer];
    const snapshot: CriSnapshot = {
      time,
      source: client.description,
      ...(version ? { runtime: { name: version.runtimeName, version: version.runtimeVersion, apiVersion: version.runtimeApiVersion } } : {}),
      ...(status ? { status: { conditions: status.conditions } } : {}),
      sandboxes,
      containers,
      sandboxStatuses,
      containerStatuses,
      ...(stats !== undefined || statsResults.length > 0 ? { stats: allStats } : {}),
      timings,
      errors,
      findings: [],
      durationMs: Date.now() - started,
    };
    const budget: SnapshotBudget = { ms: budgetMs, exhausted, notRead: [...notRead].map(([method, ids]) => ({ method, ids })) };
    snapshot.budget = budget;
    snapshot.findings = findingsOf(snapshot, deadlineMs);
    return snapshot;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
    unsubscribe();
  }
}

/** "ContainerStatus for 12 containers, ListContainerStats for 3 containers", or undefined when all was read. */
export function describeNotRead(budget: SnapshotBudget | undefined): string | undefined {
  if (budget === undefined || budget.notRead.length === 0) return undefined;
  return budget.notRead.map((n) => (n.ids.length > 0 ? `${n.method} for ${n.ids.length} ${n.ids.length === 1 ? 'item' : 'items'}` : n.method)).join(', ');
}

/** Interprets the call outcomes (docs/node-access.md, "A hung runtime against one hung shim"). */
export function findingsOf(
  snapshot: Pick<CriSnapshot, 'errors' | 'timings' | 'sandboxes' | 'sandboxStatuses'> & { containers?: CriSnapshot['containers'] },
  deadlineMs: number,
): SnapshotFinding[] {
  const findings: SnapshotFinding[] = [];
  const timedOut = (method: string): boolean => snapshot.errors.some((e) => e.method === method && e.code === GrpcCode.DEADLINE_EXCEEDED);
  const listsTimedOut = RUNTIME_LIST_METHODS.filter(timedOut);
  if (listsTimedOut.length > 0) {
    findings.push({
      kind: 'runtimeUnresponsive',
      methods: listsTimedOut,
      message: `the runtime did not answer ${listsTimedOut.join(', ')} within ${deadlineMs} ms: the runtime daemon itself is hung or overloaded (this is what stalls the kubelet's PLEG relist)`,
    });
    return findings;
  }
  const listErrors = snapshot.errors.filter((e) => RUNTIME_LIST_METHODS.includes(e.method));
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
  // One container's stats call timed out while the runtime answered the lists: its pod's shim is hung.
  for (const error of snapshot.errors) {
    if (error.method !== 'ListContainerStats' || error.code !== GrpcCode.DEADLINE_EXCEEDED || error.id === undefined) continue;
    const container = snapshot.containers?.find((c) => c.id === error.id);
    const sandboxId = container?.podSandboxId ?? '';
    if (sandboxId !== '' && findings.some((f) => f.kind === 'hungShim' && f.sandboxId === sandboxId)) continue;
    const sandbox = snapshot.sandboxes.find((s) => s.id === sandboxId);
    const podNamespace = sandbox?.metadata.namespace ?? container?.labels['io.kubernetes.pod.namespace'] ?? '';
    const podName = sandbox?.metadata.name ?? container?.labels['io.kubernetes.pod.name'] ?? '';
    const containerName = container?.metadata.name ?? error.id;
    findings.push({
      kind: 'hungShim',
      sandboxId,
      podName,
      podNamespace,
      message: `the stats of container ${containerName}${podName !== '' ? ` in ${podNamespace}/${podName}` : ''} timed out after ${deadlineMs} ms while the list calls answered: its containerd-shim is likely hung`,
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
