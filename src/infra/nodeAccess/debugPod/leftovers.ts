// The leftover sweep: debug pods of DEBUG_POD_SELECTOR in a namespace past their deadline, listed so they
// can be named (core/nodeAccess/debugPodLeftovers.ts). Nothing is deleted here.

import { debugPodLeftovers } from '../../../core/nodeAccess/debugPodLeftovers';
import type { DebugPodLeftover } from '../../../core/nodeAccess/debugPodLeftovers';
import { DEBUG_POD_SELECTOR } from '../../../core/nodeAccess/debugPodSpec';
import type { PodsApi } from '../../kube/podsApi';

export async function findDebugPodLeftovers(api: PodsApi, namespace: string, nowMs: number, signal?: AbortSignal): Promise<DebugPodLeftover[]> {
  const pods = await api.listPods(namespace, DEBUG_POD_SELECTOR, signal);
  return debugPodLeftovers(
    pods.map((p) => ({
      name: p.name,
      namespace: p.namespace,
      ...(p.node !== undefined ? { node: p.node } : {}),
      ...(p.created !== undefined ? { created: p.created } : {}),
      ...(p.activeDeadlineSeconds !== undefined ? { activeDeadlineSeconds: p.activeDeadlineSeconds } : {}),
      ...(p.phase !== undefined ? { phase: p.phase } : {}),
    })),
    nowMs,
  );
}
