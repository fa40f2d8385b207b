// `snapshot --node` through the agent: the snapshot of its last diagnosis, with its age, never as fresh.

import { describe, expect, it } from 'vitest';
import { snapshotFromAgent } from '../../../../src/cli/commands/snapshotAgent';
import type { CliIo } from '../../../../src/cli/io';
import type { AgentConnection, AgentDiagnosisDocument } from '../../../../src/infra/nodeAccess/agent/agentConnection';

describe('snapshot through the agent', () => {
  function run(doc: AgentDiagnosisDocument): Promise<{ code: number; out: string; err: string }> {
    let out = '';
    let err = '';
    const io = { stdout: { write: (c: string) => (out += c) }, stderr: { write: (c: string) => (err += c) }, readStdin: async () => '', signal: new AbortController().signal, env: {}, cwd: '/' } as CliIo;
    const connection = { label: 'via agent pod pleg-doctor/a-1', readDiagnosis: async () => doc } as unknown as AgentConnection;
    return snapshotFromAgent(connection, io, () => Date.parse('2026-11-28T12:01:10.500Z')).then((code) => ({ code, out, err }));
  }
  const side = { host: 'n1', transport: { kind: 'grpc', endpoint: 'unix:///run/containerd/containerd.sock', reason: 'the runtime socket on this node' }, connectMs: 3 };

  it('prints the snapshot with when it was taken and its age, never as fresh', async () => {
    const snapshot = { time: '2026-11-28T12:00:00.000Z', source: 'grpc', sandboxes: [], containers: [], sandboxStatuses: [], containerStatuses: [], timings: [], errors: [], findings: [], durationMs: 12 };
    const r = await run({ collectedAt: '2026-11-28T12:00:00.000Z', diagnosis: {}, nodeSide: { status: 'ok', ms: 20, value: { ...side, snapshot } as never } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ via: 'via agent pod pleg-doctor/a-1', takenAt: '2026-11-28T12:00:00.000Z', ageSeconds: 70, host: 'n1', snapshot: { durationMs: 12 } });
    expect(r.err).toBe('pleg-doctor: snapshot: taken 1m10s ago by the agent (its last diagnosis, 2026-11-28T12:00:00.000Z), via agent pod pleg-doctor/a-1\n');
  });
  it('no snapshot in the agent\u2019s last diagnosis: exit 1 with the agent\u2019s reason', async () => {
    const r = await run({ collectedAt: '2026-11-28T12:00:00.000Z', diagnosis: {}, nodeSide: { status: 'failed', message: 'Version: DEADLINE_EXCEEDED', ms: 30_000 } });
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toBe("pleg-doctor: snapshot: the agent's last diagnosis (taken 1m10s ago by the agent) has no CRI snapshot: Version: DEADLINE_EXCEEDED\n");
  });
});
