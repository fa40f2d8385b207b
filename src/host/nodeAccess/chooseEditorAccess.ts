// Which way the editor reaches one node's side for one feature (Take CRI Snapshot, Diagnose Node's node
// tier, the live timeline, Open Kubelet Log from Node), by the rule of src/core/nodeAccess/accessWay.ts:
// the node's agent pod when one runs there, else SSH when it is configured for the node's context; a debug
// pod is never taken here, only offered (`way: 'debug-pod'`): the caller asks the user in a modal
// (editorNodeAccess.ts: a modal, refused in an untrusted workspace) before anything is created. No vscode
// here: the settings come in as values, so the
// unit tests and every feature share this one choice. In dist/kube.js: AgentAccessError and the gateway's
// errors are told apart with instanceof.

import { chooseAccessWay, type AccessWay } from '../../core/nodeAccess/accessWay';
import type { AccessWaySettings } from '../../core/nodeAccess/accessWaySettings';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../../infra/kube/gateway';
import { AgentAccessError, AgentConnection, findAgentPod } from '../../infra/nodeAccess/agent/agentConnection';

export interface EditorAccessRequest {
  gateway: KubeGateway;
  context: string;
  node: string;
  ways: AccessWaySettings;
  /** SSH to this node: configured for its context with no blocking settings problem, else why not. */
  ssh: { configured: true } | { configured: false; why: string };
  /** The ways this feature can use; the choice never names one it cannot. */
  supports: readonly AccessWay[];
  signal: AbortSignal;
  logger: Logger;
}

export type EditorAccess =
  | { way: 'agent'; connection: AgentConnection; why: string }
  | { way: 'ssh'; why: string }
  /** Neither agent nor SSH; a debug pod is allowed and supported: offer it (the caller confirms first). */
  | { way: 'debug-pod'; why: string }
  /** No way: `why` says what is missing and what would give one. */
  | { way: 'none'; why: string };

/** Looks for the agent pod (when the agent is allowed and supported), then chooses. Rejects only when cancelled. */
export async function chooseEditorAccess(req: EditorAccessRequest): Promise<EditorAccess> {
  const { gateway, context, node, ways, signal, logger } = req;
  const usable = ways.allowed.filter((w) => req.supports.includes(w));
  let agent: AgentConnection | undefined;
  let noAgent: string | undefined;
  if (usable.includes('agent')) {
    try {
      const pick = await findAgentPod(gateway, context, node, ways.agentNamespace, signal);
      if (pick.found) agent = new AgentConnection(gateway, context, pick.pod);
      else noAgent = pick.why;
    } catch (err) {
      if (signal.aborted) throw err;
      // A refused list (no grant in the agent's namespace) or an API error: said, and the next way is tried.
      noAgent = err instanceof AgentAccessError ? err.message : `the agent could not be looked for: ${errorText(err)}`;
    }
  } else {
    noAgent = ways.allowed.includes('agent') ? 'this feature cannot use the agent' : 'the agent is not among plegDoctor.nodeAccess.ways';
  }
  if (noAgent !== undefined) logger.info(`node ${node} (context ${context}): no agent: ${noAgent}`);

  const choice = chooseAccessWay({
    ...(agent !== undefined ? { agentPod: `${agent.pod.namespace}/${agent.pod.name}` } : {}),
    sshConfigured: req.ssh.configured,
    // The debug pod is offered below, never chosen here.
    allowed: usable.filter((w) => w !== 'debug-pod'),
  });
  if (choice.ok) {
    if (choice.way === 'agent' && agent !== undefined) return { way: 'agent', connection: agent, why: choice.why };
    if (choice.way === 'ssh') return { way: 'ssh', why: choice.why };
  }
  const missing = [
    `no agent (${noAgent ?? 'not found'})`,
    req.ssh.configured ? (usable.includes('ssh') ? undefined : 'SSH is not among plegDoctor.nodeAccess.ways') : `no SSH (${req.ssh.why})`,
  ].filter((s): s is string => s !== undefined);
  const why = missing.join('; ');
  if (usable.includes('debug-pod')) return { way: 'debug-pod', why };
  const options = [
    ways.allowed.includes('agent') ? 'install the agent (kubectl apply -k deploy/kubernetes)' : undefined,
    ways.allowed.includes('ssh') ? 'configure SSH to the node (PLEG Doctor: Configure Node Access)' : undefined,
  ].filter((s): s is string => s !== undefined);
  return { way: 'none', why: `${why}${options.length > 0 ? `; ${options.join(', or ')}` : ''}` };
}
