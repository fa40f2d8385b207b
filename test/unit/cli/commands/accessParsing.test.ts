// --access on the three commands: parsed by the one shared module, refused where it cannot mean anything.

import { describe, expect, it } from 'vitest';
import { parseDiagnoseArgs } from '../../../../src/cli/commands/diagnose';
import { parseSnapshotArgs } from '../../../../src/cli/commands/snapshot';
import { snapshotFromAgent } from '../../../../src/cli/commands/snapshotAgent';
import { parseTimelineArgs } from '../../../../src/cli/commands/timeline';
import type { CliIo } from '../../../../src/cli/io';
import type { AgentConnection, AgentDiagnosisDocument } from '../../../../src/infra/nodeAccess/agent/agentConnection';

describe('--access on timeline, snapshot and diagnose', () => {
  it('each command takes the three ways and names a bad one', () => {
    expect(parseTimelineArgs(['--node', 'n', '--out', 'f', '--access', 'agent'])).toMatchObject({ access: { requested: 'agent', agentNamespace: 'pleg-doctor' } });
    expect(parseSnapshotArgs(['--node', 'n', '--access', 'debug-pod', '--agent-namespace', 'ops'])).toMatchObject({ node: 'n', access: { requested: 'debug-pod', agentNamespace: 'ops' } });
    expect(parseDiagnoseArgs(['--node', 'n', '--access', 'ssh', '--ssh'])).toMatchObject({ access: { requested: 'ssh' } });
    for (const parse of [() => parseTimelineArgs(['--node', 'n', '--out', 'f', '--access', 'shell']), () => parseSnapshotArgs(['--node', 'n', '--access', 'shell']), () => parseDiagnoseArgs(['--node', 'n', '--access', 'shell'])]) {
      expect(parse).toThrow(/--access must be one of agent, ssh, debug-pod, got "shell"/);
    }
  });
  it('--cri-socket (this machine) excludes --access; --evidence reaches nothing', () => {
    expect(() => parseTimelineArgs(['--node', 'n', '--out', 'f', '--cri-socket', '/s', '--access', 'agent'])).toThrow(/--cri-socket reads the runtime on this machine/);
    expect(() => parseDiagnoseArgs(['--node', 'n', '--cri-socket', '/s', '--access', 'agent'])).toThrow(/--cri-socket reads the runtime on this machine/);
    expect(() => parseDiagnoseArgs(['--evidence', 'd', '--access', 'agent'])).toThrow(/drop --access/);
  });
  it('snapshot: --host alone is SSH as before; a way other than SSH needs --node', () => {
    expect(parseSnapshotArgs(['--host', 'h'])).toMatchObject({ ssh: { host: 'h' }, kubeconfigs: [] });
    expect(() => parseSnapshotArgs([])).toThrow('snapshot: --host (SSH) or --node (through --access) is required');
    expect(() => parseSnapshotArgs(['--host', 'h', '--access', 'agent'])).toThrow('snapshot: --access agent needs --node');
    expect(() => parseSnapshotArgs(['--host', 'h', '--context', 'c'])).toThrow(/--context is for --node/);
  });
  it('timeline remembers the model options given, which the agent\u2019s session refuses', () => {
    expect(parseTimelineArgs(['--node', 'n', '--out', 'f', '--period', '2s', '--evented'])).toMatchObject({ modelOptions: ['--period', '--evented'] });
    expect(parseTimelineArgs(['--node', 'n', '--out', 'f'])).toMatchObject({ modelOptions: [] });
  });
});

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
