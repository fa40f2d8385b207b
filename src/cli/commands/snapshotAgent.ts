// `pleg-doctor snapshot --node N` through the agent: the CRI snapshot of the agent's last diagnosis
// (readAgentSnapshot), printed with when it was taken and how long ago, never as if taken now.

import { AgentAccessError, type AgentConnection } from '../../infra/nodeAccess/agent/agentConnection';
import { readAgentSnapshot } from '../../infra/nodeAccess/agent/agentSnapshot';
import type { CliIo } from '../io';

export async function snapshotFromAgent(connection: AgentConnection, io: CliIo, nowMs: () => number = Date.now): Promise<number> {
  let taken;
  try {
    taken = await readAgentSnapshot(connection, io.signal, nowMs);
  } catch (err) {
    if (!(err instanceof AgentAccessError) || io.signal.aborted) throw err;
    io.stderr.write(`pleg-doctor: snapshot: ${err.message}\n`);
    return 1;
  }
  const { side, age, collectedAt } = taken;
  io.stdout.write(`${JSON.stringify({ via: connection.label, takenAt: collectedAt, ageSeconds: Math.floor(age.ageMs / 1000), ...side }, null, 2)}\n`);
  io.stderr.write(`pleg-doctor: snapshot: ${age.text} (its last diagnosis, ${collectedAt}), ${connection.label}\n`);
  return side.snapshot.errors.length === 0 ? 0 : 1;
}
