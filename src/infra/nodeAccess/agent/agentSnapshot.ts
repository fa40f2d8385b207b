// The CRI snapshot of a node through its agent: the one the agent's last diagnosis took (/v1/diagnosis →
// nodeSide, written by src/infra/agent/agentServer.ts), with how old it is. One implementation for the CLI
// (`snapshot --node`, `diagnose`'s node tier) and the editor (Take CRI Snapshot, Diagnose Node): each
// presents it as "via agent pod NS/NAME, taken 1m10s ago", never as a snapshot taken now.

import type { NodeSideEvidence } from '../../../core/diagnose/evidence';
import { snapshotAge, type SnapshotAge } from '../../../core/nodeAccess/agentReads';
import { AgentAccessError, type AgentConnection } from './agentConnection';

export interface AgentSnapshot {
  /** When the agent took it (its diagnosis' collectedAt, ISO 8601, the node's clock). */
  collectedAt: string;
  age: SnapshotAge;
  /** "via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago": what every surface shows. */
  label: string;
  /** The node side exactly as the agent sent it. */
  side: NodeSideEvidence;
}

/** Rejects with AgentAccessError (naming the age and the agent's reason) when the last diagnosis has no snapshot. */
export async function readAgentSnapshot(connection: AgentConnection, signal: AbortSignal, nowMs: () => number = Date.now): Promise<AgentSnapshot> {
  const doc = await connection.readDiagnosis(signal);
  const age = snapshotAge(doc.collectedAt, nowMs());
  if (doc.nodeSide.status !== 'ok') {
    const why = 'message' in doc.nodeSide ? doc.nodeSide.message : doc.nodeSide.status;
    throw new AgentAccessError(`the agent's last diagnosis (${age.text}) has no CRI snapshot: ${why}`);
  }
  return { collectedAt: doc.collectedAt, age, label: `${connection.label}, ${age.ago}`, side: doc.nodeSide.value };
}

/** The node side a diagnosis judges: the agent's, its transport reason and `reachedBy` naming the way and the age. */
export function agentNodeSideEvidence(snapshot: AgentSnapshot, connection: AgentConnection): NodeSideEvidence {
  const { side, age, collectedAt } = snapshot;
  return { ...side, transport: { ...side.transport, reason: `${side.transport.reason}; ${age.text} (${collectedAt}), ${connection.label}` }, reachedBy: snapshot.label };
}
