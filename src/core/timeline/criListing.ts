// What the live feed hands the model each period: one runtime listing (ListPodSandbox + ListContainers,
// each with its measured latency or error) and the pod statuses the model asked for. Plain data, so the
// same period can be recorded, replayed and fed to the model again in a test.

import type { CriRpc } from '../pleg/cost/criCall';
import type { ContainerState, PodStatus, RuntimePod } from '../pleg/types';

/** One real CRI call: how long it took and, when it failed, the runtime's error text. */
export interface CallSample {
  rpc: CriRpc;
  latencyMs: number;
  error?: string;
}

export interface ListedSandbox {
  id: string;
  uid: string;
  name: string;
  namespace: string;
  ready: boolean;
}

export interface ListedContainer {
  id: string;
  /** The pod UID (the io.kubernetes.pod.uid label; the sandbox's UID when the label is missing). */
  podUid: string;
  state: ContainerState;
}

/** GetPods: ListPodSandbox, then (only if that succeeded) ListContainers. */
export interface CriListing {
  /** When the relist started, ms on the session clock. */
  startMs: number;
  calls: CallSample[];
  /** Present when both calls succeeded. */
  sandboxes?: ListedSandbox[];
  containers?: ListedContainer[];
}

/** One GetPodStatus as the kubelet makes it: ListPodSandbox(uid) → PodSandboxStatus… → ListContainers(uid) → ContainerStatus…. */
export interface PodStatusFetch {
  uid: string;
  calls: CallSample[];
  /** Absent when a call failed (the error is the failing call's). */
  status?: PodStatus;
  error?: string;
}

/** True when every call of the listing succeeded and both lists are present. */
export function listingOk(listing: CriListing): listing is CriListing & { sandboxes: ListedSandbox[]; containers: ListedContainer[] } {
  return listing.sandboxes !== undefined && listing.containers !== undefined && listing.calls.every((c) => c.error === undefined);
}

/** The first failing call's error, as GetPods returns it. */
export function listingError(listing: CriListing): string {
  const failed = listing.calls.find((c) => c.error !== undefined);
  return failed?.error ?? 'the runtime listing is incomplete';
}

/**
 * GetPods: sandboxes and containers grouped by pod UID, in the order the runtime listed the sandboxes
 * (containers whose pod has no sandbox left still form a pod, as in the kubelet).
 */
export function podsFromListing(sandboxes: readonly ListedSandbox[], containers: readonly ListedContainer[]): RuntimePod[] {
  const pods = new Map<string, RuntimePod & { sandboxes: { id: string; state: ContainerState }[]; containers: { id: string; state: ContainerState }[] }>();
  const podFor = (uid: string, name: string, namespace: string) => {
    let pod = pods.get(uid);
    if (pod === undefined) {
      pod = { uid, name, namespace, sandboxes: [], containers: [] };
      pods.set(uid, pod);
    }
    return pod;
  };
  for (const s of sandboxes) podFor(s.uid, s.name, s.namespace).sandboxes.push({ id: s.id, state: s.ready ? 'running' : 'exited' });
  for (const c of containers) podFor(c.podUid, '', '').containers.push({ id: c.id, state: c.state });
  return [...pods.values()];
}

/** "namespace/name", or the UID when the runtime gave no name (containers without a sandbox). */
export function podLabel(pod: { uid: string; name: string; namespace: string }): string {
  return pod.name === '' ? pod.uid : `${pod.namespace}/${pod.name}`;
}
