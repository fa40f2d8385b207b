// The transport decision tree, on a scripted node: a failed stream is diagnosed with execs, a missing
// socket stops, a root-only socket falls back to socat (absent here) and then to crictl.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectTransport, TransportSelectionError } from '../../../src/infra/cri/transports/select';
import { FakeHost, type Reply } from './fakeHost';

const SOCK = '/run/containerd/containerd.sock';
const version = fs.readFileSync(path.resolve(__dirname, '../../fixtures/crictl-containerd-1.6/version.txt'), 'utf8');

/** A node as seen by uid 1000: the socket is root-only, socat is missing, crictl may or may not be allowed. */
function node(options: { socket: 'missing' | 'rootOnly'; crictl: boolean }): FakeHost {
  return new FakeHost((argv): Reply | undefined => {
    const cmd = argv.join(' ');
    if (cmd === `test -S ${SOCK}`) return { exitCode: options.socket === 'missing' ? 1 : 0 };
    if (cmd === `ls -ln ${SOCK}`) {
      return options.socket === 'missing'
        ? { exitCode: 2, stderr: `ls: cannot access '${SOCK}': No such file or directory` }
        : { stdout: `srw-rw---- 1 0 0 0 Nov 22 03:30 ${SOCK}\n` };
    }
    if (cmd === 'id -u') return { stdout: '1000\n' };
    if (cmd === 'id -G') return { stdout: '1000 27\n' };
    if (cmd === 'sudo -n socat -V') return { exitCode: 1, stderr: 'sudo: socat: command not found' };
    if (cmd === 'sudo -n crictl --version') return options.crictl ? { stdout: 'crictl version v1.29.0\n' } : { exitCode: 1, stderr: 'sudo: a password is required' };
    if (options.crictl && argv[0] === 'sudo' && argv.includes('crictl') && argv.at(-1) === 'version') return { stdout: version };
    return undefined;
  });
}

describe('selectTransport', () => {
  it('stops at a missing socket with a message that says so', async () => {
    const host = node({ socket: 'missing', crictl: true });
    const error = await selectTransport(host, { endpoint: `unix://${SOCK}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportSelectionError);
    expect((error as TransportSelectionError).message).toBe(`CRI socket missing: ${SOCK} on fake-node does not exist (is the container runtime running, and is this the right endpoint?)`);
    expect((error as TransportSelectionError).attempts).toEqual([{ kind: 'unixSocket', ok: false, detail: expect.stringContaining('open failed') as unknown as string }]);
  });

  it('falls back from a root-only socket past a missing socat to sudo crictl', async () => {
    const host = node({ socket: 'rootOnly', crictl: true });
    const selection = await selectTransport(host, { endpoint: SOCK });
    expect(selection.kind).toBe('crictl');
    expect(selection.reason).toBe('the socket is root-only for this user, and no usable socat: using crictl on the node');
    expect(selection.attempts.map((a) => `${a.kind}:${a.ok}`)).toEqual(['unixSocket:false', 'execRelay:false', 'crictl:true']);
    expect(selection.diagnosis?.message).toMatch(/^permission denied: .* is srw-rw---- owned by uid 0 gid 0, and uid 1000 \(groups 1000,27\) may not open it/);
    expect(host.calls.at(-1)?.argv.slice(0, 3)).toEqual(['sudo', '-n', 'crictl']);
  });

  it('explains everything it tried when no transport is possible', async () => {
    const error = await selectTransport(node({ socket: 'rootOnly', crictl: false }), { endpoint: SOCK }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportSelectionError);
    const message = (error as Error).message;
    expect(message).toMatch(/^no way to speak CRI on fake-node: permission denied: /);
    expect(message).toContain('execRelay (socat is not installed or `sudo -n socat` is not allowed)');
    expect(message).toContain('crictl (crictl is not installed or `sudo -n crictl` is not allowed)');
  });

  it('honours an explicit transport and the CLI aliases', async () => {
    const error = await selectTransport(node({ socket: 'rootOnly', crictl: true }), { endpoint: SOCK, transport: 'forward' }).catch((e: unknown) => e);
    expect((error as TransportSelectionError).diagnosis?.problem).toBe('permissionDenied');
    const viaCrictl = await selectTransport(node({ socket: 'rootOnly', crictl: true }), { endpoint: SOCK, transport: 'crictl' });
    expect(viaCrictl.attempts.map((a) => a.kind)).toEqual(['crictl']);
  });
});
