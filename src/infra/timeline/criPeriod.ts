// The CRI calls of one live period, made the way the kubelet's relist makes them and timed one by one:
// GetPods (ListPodSandbox, then ListContainers) and, for each pod the model asks about, GetPodStatus
// (ListPodSandbox filtered by the pod UID → PodSandboxStatus per sandbox → ListContainers filtered by the
// pod UID → ContainerStatus per container, stopping at the first failure). Every call has the runtime
// request timeout as its deadline and the caller's signal; a failure is data (a CallSample with the
// kubelet's error text), only the caller's abort rejects.

import { performance } from 'node:perf_hooks';
import type { CriRpc } from '../../core/pleg/cost/criCall';
import { DEADLINE_EXCEEDED_TEXT } from '../../core/pleg/cost/criCall';
import type { PodStatus, RuntimeContainer, SandboxStatus } from '../../core/pleg/types';
import type { CriContainer, CriPodSandbox } from '../../core/parse/criTypes';
import { parseContainersList, parsePodsList } from '../../core/parse/criJson';
import type { CallOutcome } from '../../core/timeline/runtimeStall';
import type { CallSample, CriListing, ListedContainer, ListedSandbox, PodStatusFetch } from '../../core/timeline/criListing';
import { CriError } from '../cri/criError';
import { GrpcCriClient } from '../cri/criClient';
import type { CriReader } from '../cri/reader';
import { containerStateOfCri } from '../../core/pleg/criContainerState';
import { errorText } from '../../core/util/errorText';

const POD_UID_LABEL = 'io.kubernetes.pod.uid';

/** Told when each call starts and how it ended (the live feed's stall detector listens). */
export interface CallObserver {
  started(): void;
  ended(outcome: CallOutcome): void;
}

export interface PeriodCallOptions {
  /** Per-call deadline: the kubelet's runtimeRequestTimeout. */
  deadlineMs: number;
  signal: AbortSignal;
  observer?: CallObserver;
}

/** The caller aborted: the period is abandoned, not recorded. */
export class PeriodAbortedError extends Error {
  override readonly name = 'AbortError';
}

/** UPPER_SNAKE gRPC code names as Go prints them (DEADLINE_EXCEEDED → DeadlineExceeded). */
function goCodeName(codeName: string): string {
  return codeName
    .toLowerCase()
    .split('_')
    .map((w) => (w === '' ? w : w[0]?.toUpperCase() + w.slice(1)))
    .join('');
}

/** The error text the kubelet logs for a failed CRI call. */
export function kubeletErrorText(error: unknown): string {
  if (error instanceof CriError) {
    if (error.code === 4) return DEADLINE_EXCEEDED_TEXT;
    return `rpc error: code = ${goCodeName(error.codeName)} desc = ${error.detail}`;
  }
  return errorText(error);
}

/** How a failed call ended, for the stall detector: the deadline, refused (no runtime there), or an answer. */
export function callOutcomeOf(error: unknown): CallOutcome {
  if (error instanceof CriError) return error.code === 4 ? 'deadline' : error.code === 14 ? 'refused' : 'error';
  return 'refused';
}

/** Runs one call, timing it; a failure becomes the sample's error (the caller's abort rethrows). */
async function timed<T>(rpc: CriRpc, calls: CallSample[], options: PeriodCallOptions, run: () => Promise<T>): Promise<T | undefined> {
  const { signal, observer } = options;
  if (signal.aborted) throw new PeriodAbortedError('live feed stopped');
  const started = performance.now();
  observer?.started();
  try {
    const value = await run();
    calls.push({ rpc, latencyMs: round2(performance.now() - started) });
    observer?.ended('ok');
    return value;
  } catch (error) {
    if (signal.aborted) throw new PeriodAbortedError('live feed stopped');
    calls.push({ rpc, latencyMs: round2(performance.now() - started), error: kubeletErrorText(error) });
    observer?.ended(callOutcomeOf(error));
    return undefined;
  }
}

const round2 = (ms: number): number => Math.round(ms * 100) / 100;

function toListedSandbox(s: CriPodSandbox): ListedSandbox {
  return { id: s.id, uid: s.metadata.uid, name: s.metadata.name, namespace: s.metadata.namespace, ready: s.state === 'SANDBOX_READY' };
}

function toListedContainer(c: CriContainer, sandboxUid: ReadonlyMap<string, string>): ListedContainer {
  return { id: c.id, podUid: c.labels[POD_UID_LABEL] ?? sandboxUid.get(c.podSandboxId) ?? c.podSandboxId, state: containerStateOfCri(c.state) };
}

/** GetPods: ListPodSandbox, then ListContainers (not made when the first failed, as in the kubelet). */
export async function listRuntime(reader: CriReader, startMs: number, options: PeriodCallOptions): Promise<CriListing> {
  const calls: CallSample[] = [];
  const call = { deadlineMs: options.deadlineMs, signal: options.signal };
  const sandboxes = await timed('ListPodSandbox', calls, options, () => reader.listPodSandbox(call));
  if (sandboxes === undefined) return { startMs, calls };
  const containers = await timed('ListContainers', calls, options, () => reader.listContainers(call));
  if (containers === undefined) return { startMs, calls };
  const uidOf = new Map(sandboxes.map((s) => [s.id, s.metadata.uid]));
  return { startMs, calls, sandboxes: sandboxes.map(toListedSandbox), containers: containers.map((c) => toListedContainer(c, uidOf)) };
}

/** ListPodSandbox and ListContainers filtered by the pod UID label, as GetPodStatus asks (crictl: listed and filtered here). */
async function podSandboxes(reader: CriReader, uid: string, call: PeriodCallOptions): Promise<CriPodSandbox[]> {
  if (reader instanceof GrpcCriClient) {
    return parsePodsList(await reader.call('ListPodSandbox', { filter: { labelSelector: { [POD_UID_LABEL]: uid } } }, call));
  }
  return (await reader.listPodSandbox(call)).filter((s) => s.metadata.uid === uid);
}

async function podContainers(reader: CriReader, uid: string, call: PeriodCallOptions): Promise<CriContainer[]> {
  if (reader instanceof GrpcCriClient) {
    return parseContainersList(await reader.call('ListContainers', { filter: { labelSelector: { [POD_UID_LABEL]: uid } } }, call));
  }
  return (await reader.listContainers(call)).filter((c) => c.labels[POD_UID_LABEL] === uid);
}

/** GetPodStatus for one pod: the kubelet's call sequence, stopping at the first failure. */
export async function fetchPodStatus(reader: CriReader, uid: string, options: PeriodCallOptions): Promise<PodStatusFetch> {
  const calls: CallSample[] = [];
  const call = { deadlineMs: options.deadlineMs, signal: options.signal };
  const failed = (): PodStatusFetch => ({ uid, calls, error: calls.at(-1)?.error ?? 'GetPodStatus failed' });
  const sandboxes = await timed('ListPodSandbox', calls, options, () => podSandboxes(reader, uid, call));
  if (sandboxes === undefined) return failed();
  const sandboxStatuses: SandboxStatus[] = [];
  let ips: string[] = [];
  let name = '';
  let namespace = '';
  // Newest sandbox first, as the kubelet orders them; the IPs come from the newest ready one.
  const ordered = [...sandboxes].sort((a, b) => (BigInt(b.createdAtNs || '0') > BigInt(a.createdAtNs || '0') ? 1 : -1));
  for (const s of ordered) {
    const st = await timed('PodSandboxStatus', calls, options, () => reader.podSandboxStatus(s.id, call));
    if (st === undefined) return failed();
    sandboxStatuses.push({ id: st.id, ready: st.state === 'SANDBOX_READY' });
    if (name === '') {
      name = st.metadata.name;
      namespace = st.metadata.namespace;
    }
    if (ips.length === 0 && st.state === 'SANDBOX_READY' && st.ip !== '') ips = [st.ip, ...st.additionalIps];
  }
  const containers = await timed('ListContainers', calls, options, () => podContainers(reader, uid, call));
  if (containers === undefined) return failed();
  const containerStatuses: RuntimeContainer[] = [];
  for (const c of containers) {
    const st = await timed('ContainerStatus', calls, options, () => reader.containerStatus(c.id, call));
    if (st === undefined) return failed();
    containerStatuses.push({ id: st.id, state: containerStateOfCri(st.state) });
  }
  const status: PodStatus = { uid, name, namespace, ips, containers: containerStatuses, sandboxes: sandboxStatuses, timestamp: null };
  return { uid, calls, status };
}
