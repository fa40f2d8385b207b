// What a user reads when a node's SSH server cannot be reached, from real socket outcomes on loopback (no
// traffic leaves the machine): a closed port, a listener that never speaks SSH, one that hangs up at once,
// and a destination the kernel itself refuses to route a TCP connection to.

import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SshConnection } from '../../../../src/infra/ssh/connection';
import { SshUnreachableError, unreachableReason } from '../../../../src/infra/ssh/errors';
import { tempDirFactory } from '../../../support/sshTestKit';

const tempDir = tempDirFactory('pleg-unreach-');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function connection(host: string, port: number, connectTimeoutMs = 5_000): SshConnection {
  const ssh = new SshConnection({
    hop: { alias: host, host, port, user: 'root', identityFiles: [] },
    knownHosts: { readOnly: [], own: join(tempDir(), 'known_hosts') },
    confirmUnknownHost: () => Promise.reject(new Error('no host key question expected')),
    auth: {},
    connectTimeoutMs,
  });
  cleanups.push(() => ssh.close());
  return ssh;
}

async function listen(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  const address = server.address();
  return { server, sockets, port: typeof address === 'object' && address !== null ? address.port : 0 };
}

async function failure(ssh: SshConnection): Promise<SshUnreachableError> {
  const error = await ssh.connect().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SshUnreachableError);
  return error as SshUnreachableError;
}

describe('could not connect: the wording names what happened', () => {
  it('a closed loopback port: connection refused', async () => {
    const { server, port } = await listen(() => undefined);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await failure(connection('127.0.0.1', port));
    expect(error.code).toBe('ECONNREFUSED');
    expect(error.message).toBe(`could not connect to 127.0.0.1:${port}: connection refused (nothing listens on that port)`);
  });

  it('a listener that never answers: timed out after the connect timeout, and the socket is closed', async () => {
    let closed = false;
    const { port } = await listen((socket) => {
      socket.resume();
      socket.on('close', () => (closed = true));
    });
    const started = performance.now();
    const error = await failure(connection('127.0.0.1', port, 400));
    expect(performance.now() - started).toBeGreaterThanOrEqual(350);
    expect(error.code).toBe('handshake-timeout');
    expect(error.message).toBe(`could not connect to 127.0.0.1:${port}: timed out after 0.4 s: the TCP connection was accepted, but no SSH handshake followed`);
    for (let i = 0; i < 50 && !closed; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(true);
  });

  it('a listener that hangs up before greeting (what a proxy or a non-SSH port does): says so, not "connection lost"', async () => {
    const { port } = await listen((socket) => socket.end());
    const error = await failure(connection('127.0.0.1', port));
    expect(error.code).toBe('closed-before-greeting');
    expect(error.message).toBe(
      `could not connect to 127.0.0.1:${port}: the connection was accepted, then closed before the SSH server greeted (no SSH server on that port, or a firewall or proxy in between)`,
    );
  });

  it('a listener that resets the connection before greeting: the same', async () => {
    const { port } = await listen((socket) => socket.resetAndDestroy());
    const error = await failure(connection('127.0.0.1', port));
    expect(error.code).toBe('closed-before-greeting');
  });

  it('a destination the kernel will not route TCP to (a multicast address; nothing is sent): network unreachable', async () => {
    const error = await failure(connection('224.0.0.1', 22));
    expect(error.code).toBe('ENETUNREACH');
    expect(error.message).toBe('could not connect to 224.0.0.1:22: network unreachable (no route to that network)');
  });

  it('names every socket outcome in words', () => {
    expect(unreachableReason('EHOSTUNREACH')).toBe('no route to host');
    expect(unreachableReason('ETIMEDOUT', 10_000)).toBe('timed out after 10 s (no answer to the TCP connection: host down, or a firewall drops it)');
    expect(unreachableReason('connect-timeout', 2_500)).toMatch(/^timed out after 2\.5 s/);
    expect(unreachableReason('ENOTFOUND')).toBe('host name not found');
  });
});
