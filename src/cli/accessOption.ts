// `--access agent|ssh|debug-pod` and `--agent-namespace NS`, shared by `timeline`, `snapshot` and
// `diagnose`, and the choice of the way for one node (chooseAccessWay: the agent when one runs on the
// node, else SSH when SSH options were given; a debug pod only by name). The chosen way is said on stderr.

import { chooseAccessWay, isAccessWay, ACCESS_WAYS, type AccessWay } from '../core/nodeAccess/accessWay';
import { DEFAULT_AGENT_NAMESPACE } from '../core/nodeAccess/agentPod';
import { errorText } from '../core/util/errorText';
import type { Logger } from '../core/util/logger';
import type { KubeGateway } from '../infra/kube/gateway';
import { AgentAccessError, AgentConnection, findAgentPod } from '../infra/nodeAccess/agent/agentConnection';
import { CliUsageError, type CliIo } from './io';

export const ACCESS_OPTIONS = {
  access: { type: 'string' },
  'agent-namespace': { type: 'string' },
} as const;

export const ACCESS_OPTIONS_HELP = `  --access WAY             how to reach the node's side: agent (its pleg-doctor-agent pod, through the
                           API server's pod port-forward), ssh, or debug-pod (default: the agent when one
                           runs on the node, else SSH when SSH options are given)
  --agent-namespace NS     the agent's namespace (default ${DEFAULT_AGENT_NAMESPACE})
`;

export const DEBUG_POD_NOT_YET = 'debug-pod access is not available for this command yet';

export interface AccessArgs {
  requested?: AccessWay;
  agentNamespace: string;
}

export function accessArgsFrom(command: string, values: { access?: string; 'agent-namespace'?: string }): AccessArgs {
  const args: AccessArgs = { agentNamespace: values['agent-namespace'] ?? DEFAULT_AGENT_NAMESPACE };
  if (values.access !== undefined) {
    if (!isAccessWay(values.access)) throw new CliUsageError(`${command}: --access must be one of ${ACCESS_WAYS.join(', ')}, got ${JSON.stringify(values.access)}`);
    args.requested = values.access;
  }
  if (!/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/u.test(args.agentNamespace)) throw new CliUsageError(`${command}: --agent-namespace ${JSON.stringify(args.agentNamespace)} is not a namespace name`);
  return args;
}

export type NodeAccess =
  | { way: 'agent'; connection: AgentConnection; why: string }
  | { way: 'ssh'; why: string }
  | { way: 'debug-pod'; why: string }
  /** No way was asked for and none is available: the command goes on without the node's side. */
  | { way: 'none'; why: string };

/** A way was asked for by name and cannot be used; the message says why (exit 1). */
export class NodeAccessUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAccessUnavailableError';
  }
}

export interface AccessLookup {
  access: AccessArgs;
  node: string;
  sshConfigured: boolean;
  /** The ways this command can use (default all): a choice never suggests one it cannot. */
  supports?: readonly AccessWay[];
  /** The cluster to look for the agent in; absent (SSH to a host alone): no agent is looked for. */
  cluster?: { gateway: KubeGateway; context: string };
}

/**
 * Looks for the node's agent pod unless another way was asked for, then chooses. A refused pod list is
 * an error when the agent was asked for, and otherwise a note (SSH, if configured, is then used).
 */
export async function chooseNodeAccess(command: string, lookup: AccessLookup, io: CliIo, logger: Logger): Promise<NodeAccess> {
  const { access, node, cluster } = lookup;
  let agent: AgentConnection | undefined;
  let noAgent = cluster === undefined ? 'no cluster context to look for the agent in' : undefined;
  if (cluster !== undefined && (access.requested === undefined || access.requested === 'agent')) {
    try {
      const pick = await findAgentPod(cluster.gateway, cluster.context, node, access.agentNamespace, io.signal);
      if (pick.found) agent = new AgentConnection(cluster.gateway, cluster.context, pick.pod);
      else noAgent = pick.why;
    } catch (err) {
      if (io.signal.aborted || access.requested === 'agent' || !(err instanceof AgentAccessError)) throw err;
      noAgent = errorText(err);
    }
  }
  if (noAgent !== undefined) logger.info(`no agent: ${noAgent}`);
  const choice = chooseAccessWay({
    ...(access.requested !== undefined ? { requested: access.requested } : {}),
    ...(agent !== undefined ? { agentPod: `${agent.pod.namespace}/${agent.pod.name}` } : {}),
    sshConfigured: lookup.sshConfigured,
    // When choosing (not asked by name), only among the command's ways, so the "no way" message offers no other.
    ...(access.requested === undefined && lookup.supports !== undefined ? { allowed: lookup.supports } : {}),
  });
  if (!choice.ok) {
    if (access.requested === 'ssh') throw new CliUsageError(`${command}: --access ssh needs the SSH options (--ssh, and --host unless the node's InternalIP is reachable)`);
    const detail = access.requested === 'agent' && noAgent !== undefined ? ` (${noAgent})` : '';
    if (access.requested !== undefined) throw new NodeAccessUnavailableError(`${choice.error}${detail}`);
    return { way: 'none', why: choice.error };
  }
  if (choice.way === 'agent') {
    if (agent === undefined) throw new Error('the agent way was chosen without an agent pod');
    // SSH options given beside a running agent are not used: said, so that nobody wonders why.
    const unused = lookup.sshConfigured ? '; the SSH options are not used: --access ssh uses them' : '';
    io.stderr.write(`pleg-doctor: ${command}: node access ${agent.label} (${choice.why}${unused})\n`);
    return { way: 'agent', connection: agent, why: choice.why };
  }
  if (choice.way === 'ssh') io.stderr.write(`pleg-doctor: ${command}: node access via SSH (${choice.why})\n`);
  return { way: choice.way, why: choice.why };
}
