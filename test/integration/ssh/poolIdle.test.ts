// The pool closes SSH connections nobody has used for a while (real sshd of the node stack): never one with
// a channel still open, jump hosts only after the connections through them are gone, and a closed node is
// simply reconnected on its next use.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SshPool } from '../../../src/infra/ssh/pool';
import type { ConnectionPlan } from '../../../src/infra/ssh/sshConfig';
import { neverAsked, removeScratch, scratchDir, stack, waitFor } from './kit';

const env = stack();
const pools: SshPool[] = [];
afterAll(() => {
  for (const pool of pools) pool.dispose();
  removeScratch();
});

function newPool(idleTimeoutMs?: number): SshPool {
  const pool = new SshPool({
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratchDir(), 'own') },
    confirmUnknownHost: neverAsked,
    auth: {},
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
  });
  pools.push(pool);
  return pool;
}

const hop = (user: string) => ({ alias: env.sshHost, host: env.sshHost, port: env.sshPort, user, identityFiles: [env.sshKey] });
const direct = (user: string): ConnectionPlan => ({ target: hop(user), jumps: [], userKnownHostsFiles: [], warnings: [] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('idle SSH connections', () => {
  it('closes a connection once it has had no channel open for the idle timeout, and reconnects on next use', async () => {
    const pool = newPool(400);
    const first = pool.get(direct(env.sshUser));
    await first.exec(['true'], { timeoutMs: 10_000 });
    expect(first.idleMs()).toBeGreaterThanOrEqual(0);
    await sleep(900);
    expect(first.connected).toBe(false);
    expect(pool.size).toBe(0);
    const second = pool.get(direct(env.sshUser));
    expect(second).not.toBe(first);
    expect((await second.exec(['id', '-un'], { timeoutMs: 10_000 })).stdout.trim()).toBe(env.sshUser);
  });

  it('keeps a connection whose channel stays open longer than the idle timeout', async () => {
    const pool = newPool(300);
    const ssh = pool.get(direct(env.sshUser));
    const running = ssh.exec(['sleep', '1.2'], { timeoutMs: 10_000 });
    await sleep(900);
    expect(ssh.idleMs()).toBeUndefined();
    expect(pool.size).toBe(1);
    expect((await running).exitCode).toBe(0);
    expect(ssh.connected).toBe(true);
  });

  it('closes the target first and its jump host on a later sweep', async () => {
    const pool = newPool(60_000);
    const target = pool.get({ target: hop(env.sshUser), jumps: [hop(env.sshRootUser)], userKnownHostsFiles: [], warnings: [] });
    await target.exec(['true'], { timeoutMs: 15_000 });
    expect(pool.size).toBe(2);
    // The jump host carries the target's direct-tcpip channel: busy until the target closes.
    const later = performance.now() + 120_000;
    expect(pool.closeIdle(60_000, later)).toBe(1);
    expect(target.connected).toBe(false);
    // The jump host also runs one `true` of its own (connection.ts, primeNoDelay): busy until that ends.
    const jump = pool.get({ target: hop(env.sshRootUser), jumps: [], userKnownHostsFiles: [], warnings: [] });
    await waitFor(() => jump.stats.noDelayPrimers === 1, "the jump host's `true`");
    await sleep(300);
    expect(pool.closeIdle(60_000, performance.now() + 120_000)).toBe(1);
    expect(pool.size).toBe(0);
  });

  it('keeps connections forever without an idle timeout', async () => {
    const pool = newPool();
    const ssh = pool.get(direct(env.sshUser));
    await ssh.exec(['true'], { timeoutMs: 10_000 });
    await sleep(300);
    expect(ssh.connected).toBe(true);
    expect(pool.size).toBe(1);
  });
});
