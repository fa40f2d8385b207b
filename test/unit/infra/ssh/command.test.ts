import { describe, expect, it } from 'vitest';
import { probeCommands } from '../../../../src/infra/ssh/command';
import { UnsafeArgumentError } from '../../../../src/infra/ssh/shellQuote';
import { parseSnapshotArgs } from '../../../../src/cli/commands/snapshot';

describe('probe command allow-list', () => {
  it('builds fixed argv and validates the variable parts', () => {
    expect(probeCommands.processState([12, 345])).toEqual(['ps', '-o', 'pid=,stat=,wchan=,comm=', '-p', '12,345']);
    expect(() => probeCommands.processState([0])).toThrow(UnsafeArgumentError);
    expect(() => probeCommands.processState([1.5])).toThrow(UnsafeArgumentError);
    expect(probeCommands.socketExists('/run/containerd/containerd.sock')).toEqual(['test', '-S', '/run/containerd/containerd.sock']);
    expect(() => probeCommands.socketListing('-la /')).toThrow(/absolute/);
  });
});

describe('snapshot options', () => {
  it('parses every option', () => {
    expect(
      parseSnapshotArgs([
        '--host', 'n1', '--port', '2222', '--user', 'ops', '--identity', '/k1', '--identity', '/k2', '--jump', 'b', '--socket', '/s',
        '--transport', 'exec', '--sudo', '--probes', '--known-hosts', '/kh', '--accept-host-key', `SHA256:${'a'.repeat(43)}`, '--timeout', '3000',
      ]),
    ).toEqual({
      ssh: {
        host: 'n1', port: 2222, user: 'ops', identities: ['/k1', '/k2'], jump: 'b', socket: '/s', transport: 'exec', sudo: true, probes: true,
        knownHosts: '/kh', acceptHostKeys: [`SHA256:${'a'.repeat(43)}`], timeoutMs: 3000,
      },
      kubeconfigs: [],
      access: { agentNamespace: 'pleg-doctor' },
    });
    expect(parseSnapshotArgs(['--help'])).toBe('help');
  });
  it('names the bad option', () => {
    expect(() => parseSnapshotArgs(['--host', 'n', '--port', '0'])).toThrow(/--port must be an integer/);
    expect(() => parseSnapshotArgs(['--host'])).toThrow(/--host needs a value/);
    expect(() => parseSnapshotArgs(['--bogus'])).toThrow(/unknown option "--bogus"/);
  });
});
