// The node tier of `pleg-doctor diagnose` through the node's agent: the CRI snapshot its last diagnosis
// took (readAgentSnapshot, shared with the editor), joined to the API tier the CLI collects itself. The
// report's node-side evidence names the way and the snapshot's age, so an old snapshot never reads as new.

import type { NodeSideEvidence } from '../../core/diagnose/evidence';
import type { AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import { agentNodeSideEvidence, readAgentSnapshot } from '../../infra/nodeAccess/agent/agentSnapshot';

/** Rejects (the node side then reads "failed" with the reason) when the agent has no snapshot to give. */
export async function nodeSideFromAgent(connection: AgentConnection, signal: AbortSignal, say: (text: string) => void, nowMs: () => number = Date.now): Promise<NodeSideEvidence> {
  const taken = await readAgentSnapshot(connection, signal, nowMs);
  say(`${taken.age.text} (${taken.collectedAt}), ${connection.label}`);
  return agentNodeSideEvidence(taken, connection);
}
