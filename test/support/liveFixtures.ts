// Builders for the live model's input: listings and pod statuses as the feed would hand them over.

import type { CallSample, CriListing, ListedContainer, ListedSandbox, PodStatusFetch } from '../../src/core/timeline/criListing';
import { podsFromListing } from '../../src/core/timeline/criListing';
import type { ContainerState } from '../../src/core/pleg/types';

export interface PodSpec {
  uid: string;
  containers: ContainerState[];
  ready?: boolean;
}

export function listed(pods: readonly PodSpec[]): { sandboxes: ListedSandbox[]; containers: ListedContainer[] } {
  const sandboxes: ListedSandbox[] = [];
  const containers: ListedContainer[] = [];
  for (const p of pods) {
    sandboxes.push({ id: `sb-${p.uid}`, uid: p.uid, name: `pod-${p.uid}`, namespace: 'default', ready: p.ready ?? true });
    p.containers.forEach((state, i) => containers.push({ id: `c-${p.uid}-${i}`, podUid: p.uid, state }));
  }
  return { sandboxes, containers };
}

export function okListing(startMs: number, pods: readonly PodSpec[], latencyMs = 3): CriListing {
  const calls: CallSample[] = [
    { rpc: 'ListPodSandbox', latencyMs },
    { rpc: 'ListContainers', latencyMs },
  ];
  return { startMs, calls, ...listed(pods) };
}

export function failedListing(startMs: number, latencyMs: number, error = 'rpc error: code = DeadlineExceeded desc = context deadline exceeded'): CriListing {
  return { startMs, calls: [{ rpc: 'ListPodSandbox', latencyMs, error }] };
}

/** The statuses a listing's pods would give, one per requested UID (in request order). */
export function statusesFor(listing: CriListing, uids: readonly string[], opts: { latencyMs?: number; failing?: ReadonlySet<string> } = {}): PodStatusFetch[] {
  const pods = podsFromListing(listing.sandboxes ?? [], listing.containers ?? []);
  const lat = opts.latencyMs ?? 2;
  return uids.map((uid) => {
    const pod = pods.find((p) => p.uid === uid);
    if (opts.failing?.has(uid) === true) {
      return { uid, calls: [{ rpc: 'ListPodSandbox', latencyMs: lat, error: 'rpc error: code = Unavailable desc = boom' }], error: 'rpc error: code = Unavailable desc = boom' };
    }
    const calls: CallSample[] = [{ rpc: 'ListPodSandbox', latencyMs: lat }];
    for (let i = 0; i < (pod?.sandboxes.length ?? 0); i++) calls.push({ rpc: 'PodSandboxStatus', latencyMs: lat });
    calls.push({ rpc: 'ListContainers', latencyMs: lat });
    for (let i = 0; i < (pod?.containers.length ?? 0); i++) calls.push({ rpc: 'ContainerStatus', latencyMs: lat });
    return {
      uid,
      calls,
      status: {
        uid,
        name: pod?.name ?? '',
        namespace: pod?.namespace ?? '',
        ips: [],
        containers: pod?.containers ?? [],
        sandboxes: (pod?.sandboxes ?? []).map((s) => ({ id: s.id, ready: s.state === 'running' })),
        timestamp: null,
      },
    };
  });
}
