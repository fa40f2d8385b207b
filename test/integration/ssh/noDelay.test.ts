// A forwarded unix socket over the real sshd: replies larger than one SSH packet must not wait for the
// client's delayed acknowledgement. sshd keeps Nagle's algorithm on until the connection runs a command;
// SshConnection runs `true` once so that it does (connection.ts, primeNoDelay). Without that, most round
// trips below took 40–50 ms (Linux's minimum delayed-ACK time) instead of about one.

import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { SshPool } from '../../../src/infra/ssh/pool';
import { connect, neverAsked, removeScratch, scratchDir, stack, waitFor } from './kit';

const env = stack();
/** Larger than an SSH channel packet (32 KB): sshd forwards it in two writes, the second one small. */
const REPLY_BYTES = 48 * 1024;
const ROUND_TRIPS = 15;

const cleanup: Array<() => void> = [];
afterAll(() => {
  for (const step of cleanup.splice(0)) step();
  removeScratch();
});

function replyServer(path: string): Promise<Server> {
  const server = createServer((socket) => {
    // One request byte in, one reply out.
    socket.on('data', (chunk) => {
      for (let i = 0; i < chunk.length; i++) socket.write(Buffer.alloc(REPLY_BYTES, 0x61));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server));
  });
}

function roundTrip(stream: Duplex): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let received = 0;
    const timer = setTimeout(() => fail(new Error(`no full reply within 10 s (${received} of ${REPLY_BYTES} bytes)`)), 10_000);
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received < REPLY_BYTES) return;
      done();
      resolve(performance.now() - started);
    };
    const fail = (error: Error): void => {
      done();
      reject(error);
    };
    const done = (): void => {
      clearTimeout(timer);
      stream.off('data', onData);
      stream.off('error', fail);
    };
    stream.on('data', onData);
    stream.once('error', fail);
    stream.write(Buffer.from([1]));
  });
}

describe('a forwarded unix socket', () => {
  it('gets replies of two SSH packets without waiting for a delayed acknowledgement', async () => {
    const socketPath = join(scratchDir(), 'reply.sock');
    const server = await replyServer(socketPath);
    cleanup.push(() => server.close());
    const ssh: SshConnection = connect(env, { user: env.sshRootUser });
    cleanup.push(() => ssh.close());

    const stream = await ssh.openUnixSocket(socketPath);
    cleanup.push(() => stream.destroy());
    await waitFor(() => ssh.stats.noDelayPrimers === 1, 'the command that turns Nagle off to finish');
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) times.push(await roundTrip(stream));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? Infinity;
    // 40 ms is the kernel's minimum delayed-ACK time: a median under 25 ms means most replies did not wait for one.
    expect(median, `round trips (ms): ${times.map((t) => t.toFixed(1)).join(' ')}`).toBeLessThan(25);
    // One command per connection, however many sockets it forwards.
    const second = await ssh.openUnixSocket(socketPath);
    cleanup.push(() => second.destroy());
    await roundTrip(second);
    expect(ssh.stats.channelsOpened).toBe(3);
    expect(ssh.stats.noDelayPrimers).toBe(1);
  });

  it('through a ProxyJump host too: the jump host runs `true` as well', async () => {
    const socketPath = join(scratchDir(), 'reply.sock');
    const server = await replyServer(socketPath);
    cleanup.push(() => server.close());
    const pool = new SshPool({ knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratchDir(), 'own') }, confirmUnknownHost: neverAsked, auth: {} });
    cleanup.push(() => pool.dispose());
    const hop = { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] };
    const target = pool.get({ target: hop, jumps: [hop], userKnownHostsFiles: [], warnings: [] });
    const jump = pool.get({ target: hop, jumps: [], userKnownHostsFiles: [], warnings: [] });

    const stream = await target.openUnixSocket(socketPath);
    cleanup.push(() => stream.destroy());
    await waitFor(() => target.stats.noDelayPrimers === 1 && jump.stats.noDelayPrimers === 1, 'both hosts to run the command that turns Nagle off');
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) times.push(await roundTrip(stream));
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? Infinity;
    expect(median, `round trips (ms): ${times.map((t) => t.toFixed(1)).join(' ')}`).toBeLessThan(25);
  });
});
