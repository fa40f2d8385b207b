// The transport decision tree, on a scripted node: a failed stream is diagnosed with execs, a missing
// socket stops, a root-only socket falls back to socat (absent here) and then to crictl.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExecOptions, ExecResult } from '../../../../../src/infra/remote';
import { CriError } from '../../../../../src/infra/cri/criError';
import { selectTransport, TransportSelectionError } from '../../../../../src/infra/cri/transports/select';
import { FakeHost, type Reply } from '../../../../support/fakeHost';

const SOCK = '/run/containerd/containerd.sock';
const version = fs.readFileSync(path.resolve(__dirname, '../../../../fixtures/crictl-containerd-1.6/version.txt'), 'utf8');

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
    // "Not there" carries what the node said, so a refused sudo is told apart from a missing binary.
    expect(message).toContain('execRelay (socat is not installed or `sudo -n socat` is not allowed (`sudo -n socat -V`: exit 1: sudo: socat: command not found))');
    expect(message).toContain('crictl (crictl is not installed or `sudo -n crictl` is not allowed (`sudo -n crictl --version`: exit 1: sudo: a password is required))');
  });

  it('honours an explicit transport and the CLI aliases', async () => {
    const error = await selectTransport(node({ socket: 'rootOnly', crictl: true }), { endpoint: SOCK, transport: 'forward' }).catch((e: unknown) => e);
    expect((error as TransportSelectionError).diagnosis?.problem).toBe('permissionDenied');
    const viaCrictl = await selectTransport(node({ socket: 'rootOnly', crictl: true }), { endpoint: SOCK, transport: 'crictl' });
    expect(viaCrictl.attempts.map((a) => a.kind)).toEqual(['crictl']);
  });
});

/** A FakeHost whose exec of one command rejects, the way an SSH exec does when the connection drops. */
class FailingExecHost extends FakeHost {
  constructor(
    answer: (argv: readonly string[]) => Reply | undefined,
    private readonly failing: string,
    private readonly failure: Error,
  ) {
    super(answer);
  }

  override exec(argv: readonly string[], options: ExecOptions): Promise<ExecResult> {
    if (argv.join(' ') === this.failing) {
      this.calls.push({ argv: [...argv], options });
      return Promise.reject(this.failure);
    }
    return super.exec(argv, options);
  }
}

/** A root login on a node whose socket root may open, but whose sshd refuses stream-local forwarding. */
function rootNode(tools: { socat: Reply; crictl: Reply }): (argv: readonly string[]) => Reply | undefined {
  return (argv) => {
    const cmd = argv.join(' ');
    if (cmd === `test -S ${SOCK}`) return {};
    if (cmd === `ls -ln ${SOCK}`) return { stdout: `srw-rw---- 1 0 0 0 Nov 22 03:30 ${SOCK}\n` };
    if (cmd === 'id -u') return { stdout: '0\n' };
    if (cmd === 'id -G') return { stdout: '0\n' };
    if (cmd === 'socat -V') return tools.socat;
    if (cmd === 'crictl --version') return tools.crictl;
    if (argv[0] === 'crictl' && argv.at(-1) === 'version') return { stdout: version };
    return undefined;
  };
}

describe('selectTransport: checking for socat and crictl', () => {
  it('a dropped connection while checking for socat is that error, not "socat is not installed"', async () => {
    const lost = new Error('SSH connection to root@node:22 was lost: connection closed while command "socat" was running');
    const host = new FailingExecHost(rootNode({ socat: {}, crictl: {} }), 'socat -V', lost);
    const error = await selectTransport(host, { endpoint: SOCK }).catch((e: unknown) => e);
    expect(error).toBe(lost);
    // Nothing after the failed check ran: no crictl probe on a connection known to be gone.
    expect(host.calls.map((c) => c.argv.join(' '))).not.toContain('crictl --version');
  });

  it('a check that timed out is "could not check", and selection goes on to crictl', async () => {
    const host = new FakeHost(rootNode({ socat: { timedOut: true }, crictl: { stdout: 'crictl version v1.29.0\n' } }));
    const selection = await selectTransport(host, { endpoint: SOCK, probeTimeoutMs: 1234 });
    expect(selection.kind).toBe('crictl');
    const relay = selection.attempts.find((a) => a.kind === 'execRelay');
    expect(relay).toEqual({ kind: 'execRelay', ok: false, detail: 'could not check for socat: `socat -V` did not finish within 1234 ms on fake-node' });
    expect(relay?.detail).not.toMatch(/not installed/);
  });

  it('exit status 127 is "not installed", any other failure carries its exit status and stderr', async () => {
    const absent = await selectTransport(new FakeHost(rootNode({ socat: { exitCode: 127, stderr: 'sh: socat: not found' }, crictl: {} })), { endpoint: SOCK });
    expect(absent.attempts.find((a) => a.kind === 'execRelay')?.detail).toBe('socat is not installed on the node');
    const broken = await selectTransport(new FakeHost(rootNode({ socat: { exitCode: 1, stderr: 'socat: error while loading shared libraries: libssl.so.3\n' }, crictl: {} })), { endpoint: SOCK });
    expect(broken.attempts.find((a) => a.kind === 'execRelay')?.detail).toBe(
      'socat is not installed on the node (`socat -V`: exit 1: socat: error while loading shared libraries: libssl.so.3)',
    );
  });
});

describe('selectTransport: a refused stream-local forward', () => {
  it('once another transport reaches the socket, the failed stream is named as refused forwarding', async () => {
    const selection = await selectTransport(new FakeHost(rootNode({ socat: { exitCode: 127 }, crictl: {} })), { endpoint: SOCK });
    expect(selection.kind).toBe('crictl');
    expect(selection.reason).toBe('the SSH server refused to forward the socket (stream-local forwarding disabled?), and no usable socat: using crictl on the node');
    const stream = selection.attempts[0];
    expect(stream?.kind).toBe('unixSocket');
    expect(stream?.detail).toMatch(/^the SSH server refused to forward the socket \(stream-local forwarding disabled\?\) \(the socket exists and is reachable through crictl\); the channel error was: .*open failed/);
  });

  it('forced, it is a TransportSelectionError that names the refusal and the way out', async () => {
    const error = await selectTransport(new FakeHost(rootNode({ socat: {}, crictl: {} })), { endpoint: SOCK, transport: 'forward' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportSelectionError);
    const message = (error as TransportSelectionError).message;
    expect(message).toMatch(/^cannot reach CRI at \/run\/containerd\/containerd\.sock through a stream-local forward: the socket exists and uid 0 may open it, so the SSH server refused to forward the socket \(stream-local forwarding disabled\?\), or nothing listens on it; check AllowStreamLocalForwarding \/ DisableForwarding/);
    expect(message).toContain('use the exec transport');
    expect((error as TransportSelectionError).diagnosis?.problem).toBe('accessible');
    expect((error as TransportSelectionError).attempts.map((a) => `${a.kind}:${a.ok}`)).toEqual(['unixSocket:false']);
  });

  it('an explicit exec relay does not blame a forward it never tried', async () => {
    const error = await selectTransport(new FakeHost(rootNode({ socat: { exitCode: 127 }, crictl: {} })), { endpoint: SOCK, transport: 'exec' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportSelectionError);
    expect((error as Error).message).toBe('no way to speak CRI on fake-node: the execRelay transport was asked for; tried execRelay (socat is not installed on the node)');
  });
});

describe('selectTransport: cancellation', () => {
  it('an aborted signal stops selection at once with the cancellation, not a fallback or a selection error', async () => {
    const controller = new AbortController();
    controller.abort();
    const host = new FakeHost(rootNode({ socat: {}, crictl: {} }));
    const error = await selectTransport(host, { endpoint: SOCK, signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CriError);
    expect(error).toMatchObject({ codeName: 'CANCELLED', method: 'Version' });
    expect(host.calls).toEqual([]);
  });
});
