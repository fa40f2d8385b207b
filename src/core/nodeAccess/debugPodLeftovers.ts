// Debug pods left behind (a client killed with SIGKILL, a deletion the API server never got): the ones of
// DEBUG_POD_SELECTOR whose activeDeadlineSeconds has passed since creation. They are named to the user,
// never deleted without being asked: the user may be reading one.

export interface DebugPodListing {
  name: string;
  namespace: string;
  node?: string;
  /** metadata.creationTimestamp (RFC 3339). */
  created?: string;
  activeDeadlineSeconds?: number;
  phase?: string;
}

export interface DebugPodLeftover extends DebugPodListing {
  /** Seconds past creation + deadline. */
  overdueSeconds: number;
}

export function debugPodLeftovers(pods: readonly DebugPodListing[], nowMs: number): DebugPodLeftover[] {
  const out: DebugPodLeftover[] = [];
  for (const pod of pods) {
    const created = pod.created !== undefined ? Date.parse(pod.created) : NaN;
    if (Number.isNaN(created)) continue;
    const overdue = (nowMs - created) / 1000 - (pod.activeDeadlineSeconds ?? 0);
    if (overdue > 0) out.push({ ...pod, overdueSeconds: Math.round(overdue) });
  }
  return out;
}

/** One line naming them and the command that removes them. */
export function describeLeftovers(leftovers: readonly DebugPodLeftover[]): string | undefined {
  if (leftovers.length === 0) return undefined;
  const names = leftovers.map((p) => `${p.namespace}/${p.name}${p.node !== undefined ? ` (node ${p.node}, ${p.phase ?? 'phase unknown'})` : ''}`);
  const namespaces = [...new Set(leftovers.map((p) => p.namespace))];
  const commands = namespaces.map((ns) => `kubectl delete pod -n ${ns} ${leftovers.filter((p) => p.namespace === ns).map((p) => p.name).join(' ')}`);
  return `debug pods past their deadline were left behind: ${names.join(', ')}; remove them with: ${commands.join('; ')}`;
}
