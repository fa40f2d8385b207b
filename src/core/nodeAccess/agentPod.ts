// Which pod is the node's agent: deploy/kubernetes/daemonset.yaml labels its pods
// app.kubernetes.io/name=pleg-doctor-agent and serves the agent's HTTP API on containerPort 9787. The list
// is asked for with that label and the fieldSelector spec.nodeName=NODE; this picks the one that can answer.

export const DEFAULT_AGENT_NAMESPACE = 'pleg-doctor';
const AGENT_LABEL = { key: 'app.kubernetes.io/name', value: 'pleg-doctor-agent' } as const;
export const AGENT_POD_LABEL_SELECTOR = `${AGENT_LABEL.key}=${AGENT_LABEL.value}`;
export const AGENT_PORT = 9787;

export interface AgentPodRef {
  namespace: string;
  name: string;
}

export type AgentPodPick =
  | { found: true; pod: AgentPodRef }
  /** `why` says what was there instead (no pod, or pods that are not Running and ready). */
  | { found: false; why: string };

interface PodLike {
  metadata?: { name?: unknown; namespace?: unknown; deletionTimestamp?: unknown; labels?: Record<string, unknown> };
  spec?: { nodeName?: unknown };
  status?: { phase?: unknown; conditions?: unknown };
}

function ready(pod: PodLike): boolean {
  const conditions = Array.isArray(pod.status?.conditions) ? (pod.status.conditions as { type?: unknown; status?: unknown }[]) : [];
  return conditions.some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * The Running, ready, not terminating pod of `items` on `node` (the first by name when a rollout briefly
 * runs two). Pods of other nodes, or without the agent's label, are ignored even if the server returned
 * them (a server that ignored a selector must not make any pod the agent).
 */
export function pickAgentPod(items: readonly unknown[], node: string, namespace: string): AgentPodPick {
  const pods = items
    .filter((p): p is PodLike => typeof p === 'object' && p !== null)
    .filter((p) => p.spec?.nodeName === node && p.metadata?.labels?.[AGENT_LABEL.key] === AGENT_LABEL.value);
  const usable = pods
    .filter((p) => p.status?.phase === 'Running' && ready(p) && p.metadata?.deletionTimestamp == null && typeof p.metadata?.name === 'string')
    .map((p) => p.metadata?.name as string)
    .sort();
  const first = usable[0];
  if (first !== undefined) return { found: true, pod: { namespace, name: first } };
  if (pods.length === 0) return { found: false, why: `no pod labelled ${AGENT_POD_LABEL_SELECTOR} on node ${node} in namespace ${namespace}` };
  const states = pods.map((p) => `${String(p.metadata?.name)} (${String(p.status?.phase ?? 'no phase')}${ready(p) ? '' : ', not ready'}${p.metadata?.deletionTimestamp != null ? ', terminating' : ''})`);
  return { found: false, why: `the agent pod on node ${node} cannot answer: ${states.join(', ')}` };
}
