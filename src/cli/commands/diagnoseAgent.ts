// The node tier of `pleg-doctor diagnose` through the node's agent: the CRI snapshot its last diagnosis
// took (/v1/diagnosis → nodeSide), joined to the API tier the CLI collects itself. The report's node-side
// evidence names the way and the snapshot's age, so an old snapshot never reads as one taken now.

import type { NodeSideEvidence } from '../../core/diagnose/evidence';
import { snapshotAge } from '../../core/nodeAccess/agentReads';
import { AgentAccessError, type AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';

/** Rejects (the node side then reads "failed" with the reason) when the agent has no snapshot to give. */
export async function nodeSideFromAgent(connection: AgentConnection, signal: AbortSignal, say: (text: string) => void, nowMs: () => number = Date.now): Promise<NodeSideEvidence> {
  const doc = await connection.readDiagnosis(signal);
  const age = snapshotAge(doc.collectedAt, nowMs());
  if (doc.nodeSide.status !== 'ok') {
    throw new AgentAccessError(`the agent's last diagnosis (${age.text}) has no CRI snapshot: ${'message' in doc.nodeSide ? doc.nodeSide.message : doc.nodeSide.status}`);
  }
  say(`${age.text} (${doc.collectedAt}), ${connection.label}`);
  const side = doc.nodeSide.value;
  return { ...side, transport: { ...side.transport, reason: `${side.transport.reason}; ${age.text} (${doc.collectedAt}), ${connection.label}` } };
}
