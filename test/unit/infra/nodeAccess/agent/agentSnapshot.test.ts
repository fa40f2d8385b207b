// The agent's snapshot as the CLI and the editor both read it: labelled with the pod and its age, never as fresh.

import { describe, expect, it } from 'vitest';
import type { NodeSideEvidence } from '../../../../../src/core/diagnose/evidence';
import { AgentAccessError, type AgentConnection, type AgentDiagnosisDocument } from '../../../../../src/infra/nodeAccess/agent/agentConnection';
import { agentNodeSideEvidence, readAgentSnapshot } from '../../../../../src/infra/nodeAccess/agent/agentSnapshot';

const side = {
  host: 'n1',
  transport: { kind: 'grpc', endpoint: 'unix:///run/containerd/containerd.sock', reason: 'the runtime socket on this node' },
  connectMs: 3,
  snapshot: { time: '2026-11-28T12:00:00.000Z', source: 'grpc', sandboxes: [], containers: [], sandboxStatuses: [], containerStatuses: [], timings: [], errors: [], findings: [], durationMs: 12 },
} as unknown as NodeSideEvidence;

function connection(doc: AgentDiagnosisDocument): AgentConnection {
  return { label: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2', readDiagnosis: async () => doc } as unknown as AgentConnection;
}
const now = (): number => Date.parse('2026-11-28T12:01:10.500Z');

describe('readAgentSnapshot', () => {
  it('labels the snapshot "via agent pod NS/NAME, taken 1m10s ago" and keeps the side as sent', async () => {
    const c = connection({ collectedAt: '2026-11-28T12:00:00.000Z', diagnosis: {}, nodeSide: { status: 'ok', ms: 20, value: side } });
    const taken = await readAgentSnapshot(c, new AbortController().signal, now);
    expect(taken.label).toBe('via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago');
    expect(taken.collectedAt).toBe('2026-11-28T12:00:00.000Z');
    expect(taken.age.ageMs).toBe(70_500);
    expect(taken.side).toBe(side);

    const evidence = agentNodeSideEvidence(taken, c);
    expect(evidence.reachedBy).toBe('via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago');
    expect(evidence.transport.reason).toBe('the runtime socket on this node; taken 1m10s ago by the agent (2026-11-28T12:00:00.000Z), via agent pod pleg-doctor/pleg-doctor-agent-x7k2');
    expect(evidence.snapshot).toBe(side.snapshot);
  });

  it("an agent whose last diagnosis has no snapshot: AgentAccessError with the age and the agent's reason", async () => {
    const c = connection({ collectedAt: '2026-11-28T12:00:00.000Z', diagnosis: {}, nodeSide: { status: 'failed', message: 'Version: DEADLINE_EXCEEDED', ms: 30_000 } });
    const read = readAgentSnapshot(c, new AbortController().signal, now);
    await expect(read).rejects.toThrow(AgentAccessError);
    await expect(read).rejects.toThrow("the agent's last diagnosis (taken 1m10s ago by the agent) has no CRI snapshot: Version: DEADLINE_EXCEEDED");
  });
});
