// `pleg-doctor snapshot --node N` through the agent: the CRI snapshot of the agent's last diagnosis
// (/v1/diagnosis → nodeSide), printed with when it was taken and how long ago, never as if taken now.

import { snapshotAge } from '../../core/nodeAccess/agentReads';
import type { AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import type { CliIo } from '../io';

export async function snapshotFromAgent(connection: AgentConnection, io: CliIo, nowMs: () => number = Date.now): Promise<number> {
  const doc = await connection.readDiagnosis(io.signal);
  const age = snapshotAge(doc.collectedAt, nowMs());
  if (doc.nodeSide.status !== 'ok') {
    const why = 'message' in doc.nodeSide ? doc.nodeSide.message : doc.nodeSide.status;
    io.stderr.write(`pleg-doctor: snapshot: the agent's last diagnosis (${age.text}) has no CRI snapshot: ${why}\n`);
    return 1;
  }
  const side = doc.nodeSide.value;
  io.stdout.write(`${JSON.stringify({ via: connection.label, takenAt: doc.collectedAt, ageSeconds: Math.floor(age.ageMs / 1000), ...side }, null, 2)}\n`);
  io.stderr.write(`pleg-doctor: snapshot: ${age.text} (its last diagnosis, ${doc.collectedAt}), ${connection.label}\n`);
  return side.snapshot.errors.length === 0 ? 0 : 1;
}
