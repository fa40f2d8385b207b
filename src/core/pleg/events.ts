// The kubelet's per-container event table (generic.go generateEvents/computeEvents), applied to one pod.
// Sandboxes are diffed as if they were containers; `created` counts as `unknown`.

import type { ContainerState, PlegEvent, RuntimeContainer, RuntimePod } from './types';

/** PLEG's internal container state; `none` is "non-existent". */
export type PlegContainerState = 'running' | 'exited' | 'unknown' | 'none';

export function toPlegState(state: ContainerState): PlegContainerState {
  return state === 'created' ? 'unknown' : state;
}

/** The state of an ID in a pod: containers are searched before sandboxes, as in the kubelet. */
export function stateInPod(pod: RuntimePod | null, id: string): PlegContainerState {
  if (pod === null) return 'none';
  for (const c of pod.containers) if (c.id === id) return toPlegState(c.state);
  for (const s of pod.sandboxes) if (s.id === id) return toPlegState(s.state);
  return 'none';
}

/** Appends the events for one ID's transition to `out` (ContainerChanged included; the sender filters it). */
export function appendTransitionEvents(
  out: PlegEvent[],
  pod: string,
  id: string,
  oldState: PlegContainerState,
  newState: PlegContainerState,
): void {
  if (oldState === newState) return;
  switch (newState) {
    case 'running':
      out.push({ pod, type: 'ContainerStarted', data: id });
      return;
    case 'exited':
      out.push({ pod, type: 'ContainerDied', data: id });
      return;
    case 'unknown':
      out.push({ pod, type: 'ContainerChanged', data: id });
      return;
    case 'none':
      // An exited container already had its Died event.
      if (oldState !== 'exited') out.push({ pod, type: 'ContainerDied', data: id });
      out.push({ pod, type: 'ContainerRemoved', data: id });
      return;
  }
}

function sameList(a: readonly RuntimeContainer[], b: readonly RuntimeContainer[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as RuntimeContainer;
    const y = b[i] as RuntimeContainer;
    if (x === y) continue;
    if (x.id !== y.id) return false;
    if (x.state !== y.state && toPlegState(x.state) !== toPlegState(y.state)) return false;
  }
  return true;
}

// Scratch storage for the ID de-duplication: relists run one at a time, and reusing it keeps the
// unchanged-pod path free of allocations.
const seenIds: string[] = [];

function collect(list: readonly RuntimeContainer[]): void {
  outer: for (const c of list) {
    for (let i = 0; i < seenIds.length; i++) if (seenIds[i] === c.id) continue outer;
    seenIds.push(c.id);
  }
}

/**
 * Appends the pod's events in the kubelet's fixed order: old containers, old sandboxes, then new-only
 * containers and sandboxes, each ID once. Returns the number appended.
 */
export function appendPodEvents(out: PlegEvent[], uid: string, oldPod: RuntimePod | null, newPod: RuntimePod | null): number {
  if (oldPod === newPod) return 0;
  if (
    oldPod !== null &&
    newPod !== null &&
    sameList(oldPod.containers, newPod.containers) &&
    sameList(oldPod.sandboxes, newPod.sandboxes)
  ) {
    // Same IDs and states in the same order: no transition is possible (also with duplicate IDs).
    return 0;
  }
  const before = out.length;
  seenIds.length = 0;
  if (oldPod !== null) {
    collect(oldPod.containers);
    collect(oldPod.sandboxes);
  }
  if (newPod !== null) {
    collect(newPod.containers);
    collect(newPod.sandboxes);
  }
  for (const id of seenIds) appendTransitionEvents(out, uid, id, stateInPod(oldPod, id), stateInPod(newPod, id));
  seenIds.length = 0;
  return out.length - before;
}

/** The pod's events as a fresh array (convenience for tests and tools). */
export function computePodEvents(uid: string, oldPod: RuntimePod | null, newPod: RuntimePod | null): PlegEvent[] {
  const out: PlegEvent[] = [];
  appendPodEvents(out, uid, oldPod, newPod);
  return out;
}
