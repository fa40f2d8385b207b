// How a runtime pod becomes the PodStatus PLEG caches (GetPodStatus, GeneratePodStatus).

import type { PodStatus, RuntimePod } from './types';

/** GeneratePodStatus for an event or a GetPodStatus answer: a sandbox is READY iff it is running. */
export function statusFromPod(pod: RuntimePod): PodStatus {
  return {
    uid: pod.uid,
    name: pod.name,
    namespace: pod.namespace,
    ips: pod.ips ?? [],
    containers: pod.containers,
    sandboxes: pod.sandboxes.map((s) => ({ id: s.id, ready: s.state === 'running' })),
    timestamp: pod.statusTimestampMs ?? null,
  };
}
