// The three ways PLEG Doctor reaches a node's side (its CRI socket, the kubelet's files, the journal), and
// the rule that picks one. Every surface that shows node-side data names the way it came by (`wayLabel`),
// so a reader can tell an agent's two-minute-old snapshot from one taken just now over SSH.
// - agent: the `pleg-doctor-agent` DaemonSet pod on that node, read through the API server's pods proxy
//   (a namespaced grant, never nodes/proxy);
// - ssh: today's SSH connection to the node, then its CRI socket;
// - debug-pod: a one-shot pod created on the node for the request and deleted after. It mutates the
//   cluster, so it is never picked unless asked for by name (a flag, a setting, or a confirmed prompt).

export const ACCESS_WAYS = ['agent', 'ssh', 'debug-pod'] as const;
export type AccessWay = (typeof ACCESS_WAYS)[number];

export function isAccessWay(value: string): value is AccessWay {
  return (ACCESS_WAYS as readonly string[]).includes(value);
}

/** What is known about a node when a way is chosen. */
export interface AccessFacts {
  /** The way the user asked for (`--access`, a setting); undefined: choose. */
  requested?: AccessWay;
  /** The ways the user allows (the setting); default all three. */
  allowed?: readonly AccessWay[];
  /** `namespace/name` of a Running agent pod on the node, if one was found. */
  agentPod?: string;
  /** Whether SSH to the node is configured (CLI: --ssh given; editor: a node access entry). */
  sshConfigured: boolean;
}

export type AccessChoice =
  | { ok: true; way: AccessWay; why: string }
  | { ok: false; error: string };

/**
 * The agent when one runs on the node, else SSH when configured. A debug pod only when requested by name:
 * creating it is a mutation the caller confirms. A requested way that is not allowed, or an agent asked for
 * where none runs, is an error that says so (no silent fallback to another way).
 */
export function chooseAccessWay(facts: AccessFacts): AccessChoice {
  const allowed = facts.allowed ?? ACCESS_WAYS;
  if (facts.requested !== undefined) {
    if (!allowed.includes(facts.requested)) {
      return { ok: false, error: `node access "${facts.requested}" is not among the allowed ways (${allowed.join(', ') || 'none'})` };
    }
    if (facts.requested === 'agent' && facts.agentPod === undefined) {
      return { ok: false, error: 'node access "agent" was asked for, but no running pleg-doctor-agent pod was found on the node' };
    }
    if (facts.requested === 'ssh' && !facts.sshConfigured) {
      return { ok: false, error: 'node access "ssh" was asked for, but SSH to the node is not configured' };
    }
    return { ok: true, way: facts.requested, why: 'asked for' };
  }
  if (facts.agentPod !== undefined && allowed.includes('agent')) {
    return { ok: true, way: 'agent', why: `agent pod ${facts.agentPod} runs on the node` };
  }
  if (facts.sshConfigured && allowed.includes('ssh')) {
    return { ok: true, way: 'ssh', why: 'SSH to the node is configured' };
  }
  const options = [
    allowed.includes('agent') ? 'install the agent (kubectl apply -k deploy/kubernetes)' : undefined,
    allowed.includes('ssh') ? 'configure SSH to the node' : undefined,
    allowed.includes('debug-pod') ? 'ask for a debug pod (--access debug-pod)' : undefined,
  ].filter((s): s is string => s !== undefined);
  return { ok: false, error: `no way to reach the node's side: no agent pod runs on it and SSH is not configured${options.length > 0 ? `; ${options.join(', or ')}` : ''}` };
}

/** How a surface names the way its node-side data came by, e.g. "via agent pod pleg-doctor/pleg-doctor-agent-x7k2". */
export function wayLabel(way: AccessWay, detail: string): string {
  switch (way) {
    case 'agent':
      return `via agent pod ${detail}`;
    case 'ssh':
      return `via SSH ${detail}`;
    case 'debug-pod':
      return `via debug pod ${detail}`;
  }
}
