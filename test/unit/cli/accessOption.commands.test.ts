// --access on the three commands: parsed by the one shared module, refused where it cannot mean anything.

import { describe, expect, it } from 'vitest';
import { parseDiagnoseArgs } from '../../../src/cli/commands/diagnose';
import { parseSnapshotArgs } from '../../../src/cli/commands/snapshot';
import { parseTimelineArgs } from '../../../src/cli/commands/timeline';

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
