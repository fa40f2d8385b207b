// RemoteHost over a real OpenSSH sshd: exec, reuse, deadlines, cancellation, forwards, reconnects.
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { ChannelOpenError, SshAbortedError, SshAuthError, SshUnreachableError } from '../../../src/infra/ssh/errors';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { SshPool } from '../../../src/infra/ssh/pool';
import { connect, neverAsked, remoteProcesses, removeScratch, scratchDir, stack, waitFor } from './kit';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const env = stack();
const open: SshConnection[] = [];
function track(connection: SshConnection): SshConnection {
  open.push(connection);
  return connection;
}
afterAll(() => {
  for (const connection of open) connection.close();
  removeScratch();
});

describe('exec over one reused connection', () => {
  it('runs a command and returns its exit code, stdout and stderr', async () => {
    const ssh = track(connect(env));
    const ok = await ssh.exec(['sh', '-c', 'echo out; echo err >&2; exit 3'], { timeoutMs: 10_000 });
    expect(ok).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', truncated: false, timedOut: false });
    const id = await ssh.exec(['id', '-un'], { timeoutMs: 10_000 });
    expect(id.stdout.trim()).toBe(env.sshUser);
  });

  it('multiplexes many execs, in parallel and in sequence, over a single TCP connection', async () => {
    const ssh = track(connect(env));
    const parallel = await Promise.all(Array.from({ length: 20 }, () => ssh.exec(['printenv', 'SSH_CONNECTION'], { timeoutMs: 15_000 })));
    const sequential = [];
    for (let i = 0; i < 5; i++) sequential.push(await ssh.exec(['printenv', 'SSH_CONNECTION'], { timeoutMs: 15_000 }));
    const clientEnds = new Set([...parallel, ...sequential].map((r) => r.stdout.trim().split(' ').slice(0, 2).join(':')));
    // sshd sees the same client address and port for every command: one TCP connection.
    expect(clientEnds.size).toBe(1);
    expect(ssh.stats.connects).toBe(1);
    expect(ssh.stats.channelsOpened).toBe(25);
  });

  it('caps output and says so', async () => {
    const ssh = track(connect(env));
    const result = await ssh.exec(['head', '-c', '100000', '/dev/zero'], { timeoutMs: 10_000, maxOutputBytes: 1000 });
    expect(result.stdout.length).toBe(1000);
    expect(result.truncated).toBe(true);
    expect(result.exitCode).toBe(0);
  });

  it('passes stdin', async () => {
    const ssh = track(connect(env));
    expect((await ssh.exec(['cat'], { timeoutMs: 10_000, stdin: 'a\nb\n' })).stdout).toBe('a\nb\n');
  });

  it('reconnects on the next call after the connection dropped', async () => {
    const ssh = track(connect(env));
    await ssh.exec(['true'], { timeoutMs: 10_000 });
    // Kill this session's sshd process (the parent of the shell's replacement): the connection drops.
    await ssh.exec(['sh', '-c', 'kill "$PPID"'], { timeoutMs: 10_000 }).catch(() => undefined);
    for (let i = 0; i < 50 && ssh.connected; i++) await new Promise((r) => setTimeout(r, 50));
    expect(ssh.connected).toBe(false);
    const again = await ssh.exec(['echo', 'back'], { timeoutMs: 10_000 });
    expect(again.stdout).toBe('back\n');
    expect(ssh.stats.connects).toBe(2);
  });
});

describe('no injection through the real sshd', () => {
  it('passes node names full of shell metacharacters as inert data', async () => {
    const ssh = track(connect(env));
    const marker = join(scratchDir(), `pwned-${randomBytes(4).toString('hex')}`);
    const names = [`node-1; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``, `n' ; touch ${marker}; '`, `a\ntouch ${marker}`, `x && touch ${marker} || y`, '*'];
    for (const name of names) {
      const result = await ssh.exec(['printf', '%s', name], { timeoutMs: 10_000 });
      expect(result.stdout).toBe(name);
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe('deadlines and cancellation', () => {
  for (const who of ['plegtest', 'root'] as const) {
    it(`kills a hung command at its deadline and keeps the event loop responsive (${who})`, async () => {
      const ssh = track(connect(env, { user: who === 'root' ? env.sshRootUser : env.sshUser }));
      await ssh.exec(['true'], { timeoutMs: 15_000 });
      const tag = `30.${Math.floor(Math.random() * 1e6)}`;
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 20);
      const started = performance.now();
      const result = await ssh.exec(['sleep', tag], { timeoutMs: 1_500 });
      const elapsed = performance.now() - started;
      clearInterval(ticker);
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(elapsed).toBeGreaterThanOrEqual(1_450);
      expect(elapsed).toBeLessThan(2_500);
      // 1.5 s at one tick per 20 ms: the loop was never blocked for long.
      expect(ticks).toBeGreaterThan(30);
      let alive = true;
      for (let i = 0; i < 40 && alive; i++) {
        alive = (await remoteProcesses(ssh)).some((line) => line.trim() === `sleep ${tag}`);
        if (alive) await new Promise((r) => setTimeout(r, 250));
      }
      expect(alive).toBe(false);
    });
  }

  it('rejects with a cancellation error when the caller aborts', async () => {
    const ssh = track(connect(env));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    await expect(ssh.exec(['sleep', '20'], { timeoutMs: 10_000, signal: controller.signal })).rejects.toBeInstanceOf(SshAbortedError);
  });
});

describe('connection failures are distinct and name the cause', () => {
  it('auth failure lists the methods tried', async () => {
    const dir = scratchDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'stranger')]);
    const ssh = track(connect(env, { identityFiles: [join(dir, 'stranger')] }));
    const error = await ssh.exec(['true'], { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshAuthError);
    expect((error as SshAuthError).methodsTried).toEqual([`publickey ${join(dir, 'stranger')} (ssh-ed25519)`]);
    expect((error as Error).message).toMatch(/authentication to plegtest@127\.0\.0\.1:\d+ failed; tried: publickey .*stranger/);
  });

  it('a closed port is unreachable, naming host:port', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
      });
    });
    const ssh = track(connect(env, { port }));
    const error = await ssh.connect().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SshUnreachableError);
    expect((error as SshUnreachableError).code).toBe('ECONNREFUSED');
    expect((error as Error).message).toContain(`127.0.0.1:${port}`);
  });

  it('a silent peer times out the handshake, naming host:port', async () => {
    const server = createServer(() => undefined); // accepts, never speaks SSH
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    try {
      const ssh = track(connect(env, { port, connectTimeoutMs: 800 }));
      const started = performance.now();
      const error = await ssh.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SshUnreachableError);
      expect((error as SshUnreachableError).code).toBe('handshake-timeout');
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      server.close();
    }
  });
});

describe('stream-local forwarding to the CRI socket', () => {
  // HTTP/2 client preface; a gRPC server answers with a SETTINGS frame (type 4).
  const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
  const emptySettings = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);
  const firstChunk = (stream: Duplex, request: Buffer): Promise<Buffer> =>
    new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no answer from the runtime within 10 s')), 10_000);
      stream.once('data', (chunk: Buffer) => {
        clearTimeout(timer);
        resolve(chunk);
      });
      stream.once('error', reject);
      stream.write(request);
    });

  it('works as root: the runtime answers HTTP/2', async () => {
    const ssh = track(connect(env, { user: env.sshRootUser }));
    const stream = await ssh.openUnixSocket(env.criSocket);
    const frame = await firstChunk(stream, Buffer.concat([preface, emptySettings]));
    stream.destroy();
    expect(frame[3]).toBe(4);
  });

  it('is refused for the non-root user exactly like a missing socket, with the hint', async () => {
    const ssh = track(connect(env));
    const denied = await ssh.openUnixSocket(env.criSocket).catch((e: unknown) => e);
    const root = track(connect(env, { user: env.sshRootUser }));
    const missing = await root.openUnixSocket(`${env.criSocket}.absent`).catch((e: unknown) => e);
    for (const error of [denied, missing]) {
      expect(error).toBeInstanceOf(ChannelOpenError);
      expect((error as ChannelOpenError).failure).toBe('open-failed');
      expect((error as ChannelOpenError).reasonCode).toBe(2);
      expect((error as Error).message).toMatch(/does not exist or this user may not open it.*test -S/);
    }
  });

  it('opens an exec stream (the exec-relay path) through sudo -n socat', async () => {
    const ssh = track(connect(env));
    const stream = await ssh.openExecStream(['sudo', '-n', 'socat', 'STDIO', `UNIX-CONNECT:${env.criSocket}`]);
    const frame = await firstChunk(stream, Buffer.concat([preface, emptySettings]));
    stream.destroy();
    expect(frame[3]).toBe(4);
  });
});

describe('ProxyJump', () => {
  it('reaches the target through a direct-tcpip channel on the jump host, verifying both host keys', async () => {
    const pool = new SshPool({
      knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratchDir(), 'own') },
      confirmUnknownHost: neverAsked,
      auth: {},
    });
    try {
      const hop = (user: string) => ({ alias: env.sshHost, host: env.sshHost, port: env.sshPort, user, identityFiles: [env.sshKey] });
      const target = pool.get({ target: hop(env.sshUser), jumps: [hop(env.sshRootUser)], userKnownHostsFiles: [], warnings: [] });
      const result = await target.exec(['id', '-un'], { timeoutMs: 15_000 });
      expect(result.stdout.trim()).toBe(env.sshUser);
      expect(pool.size).toBe(2);
      // The jump host's connection is the one a direct plan to it gets: no new connection.
      const jump = pool.get({ target: hop(env.sshRootUser), jumps: [], userKnownHostsFiles: [], warnings: [] });
      expect(pool.size).toBe(2);
      expect(jump.stats.connects).toBe(1);
      // The forward to the target, and the jump host's one `true` (connection.ts, primeNoDelay).
      await waitFor(() => jump.stats.noDelayPrimers === 1, "the jump host's `true`");
      expect(jump.stats.channelsOpened).toBe(2);
      // A second target behind the same jump host adds one connection and reuses the jump.
      await pool.get({ target: hop(env.sshRootUser), jumps: [hop(env.sshRootUser)], userKnownHostsFiles: [], warnings: [] }).exec(['true'], { timeoutMs: 15_000 });
      expect(pool.size).toBe(3);
      expect(jump.stats.connects).toBe(1);
      expect(jump.stats.channelsOpened).toBe(3);
      expect(jump.stats.noDelayPrimers).toBe(1);
    } finally {
      pool.dispose();
    }
  });
});
