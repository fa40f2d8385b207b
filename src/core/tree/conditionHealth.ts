// Whether a node condition's status is the good one: Ready wants True, the pressure and
// NetworkUnavailable conditions want False. Unknown types are neutral.

export type ConditionHealth = 'good' | 'bad' | 'unknown' | 'neutral';

const WANTS_FALSE = new Set(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable']);

export function conditionHealth(type: string | undefined, status: string | undefined): ConditionHealth {
  if (status === 'Unknown') return 'unknown';
  if (type === 'Ready') return status === 'True' ? 'good' : 'bad';
  if (type !== undefined && WANTS_FALSE.has(type)) return status === 'False' ? 'good' : 'bad';
  return 'neutral';
}

/**
 * The conditions as a node's children show them: Ready first (what the node's verdict is about; the
 * kubelet writes it last, after the pressures), the others in the kubelet's order.
 */
export function readyFirst<C extends { type?: string }>(conditions: readonly C[]): C[] {
  return [...conditions.filter((c) => c.type === 'Ready'), ...conditions.filter((c) => c.type !== 'Ready')];
}
