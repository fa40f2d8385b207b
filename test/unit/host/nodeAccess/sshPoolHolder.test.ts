import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../src/core/util/logger';
import { SshPoolHolder } from '../../../../src/host/nodeAccess/sshPoolHolder';
import { SshDisconnectedError } from '../../../../src/infra/ssh/errors';
import { refuseUnknownHosts } from '../../../../src/infra/ssh/hostVerifier';
import { validateNodeAccessConfig } from '../../../../src/infra/ssh/nodeAccessSettings';
import { MemorySecretStore } from '../../../../src/infra/ssh/secrets';
import type { ConnectionPlan } from '../../../../src/infra/ssh/sshConfig';

const config = validateNodeAccessConfig({}).config;
const plan: ConnectionPlan = { target: { alias: 'n1', host: '127.0.0.1', port: 1, user: 'u', identityFiles: [] }, jumps: [], userKnownHostsFiles: [], warnings: [] };

function holder(): SshPoolHolder {
  return new SshPoolHolder({
    readOnlyKnownHosts: [],
    ownKnownHosts: '/nonexistent/known_hosts',
    confirmUnknownHost: refuseUnknownHosts,
    getPassphrase: () => Promise.resolve(undefined),
    secrets: new MemorySecretStore(),
    logger: silentLogger,
    agentSocket: () => undefined,
  });
}

/** A connection the pool closed refuses to connect again, without touching the network. */
async function isClosed(connection: { connect(): Promise<unknown> }): Promise<boolean> {
  try {
    await connection.connect();
    return false;
  } catch (error) {
    return error instanceof SshDisconnectedError && /closed by PLEG Doctor/.test(error.message);
  }
}

describe('SshPoolHolder', () => {
  it('creates one pool lazily and shares it', () => {
    const h = holder();
    expect(h.hasPool).toBe(false);
    const a = h.lease(config);
    const b = h.lease(config);
    expect(a.pool).toBe(b.pool);
    expect(a.pool.get(plan)).toBe(b.pool.get(plan));
    a.release();
    b.release();
  });

  it('after a settings change, the old pool closes when its last snapshot is done, and the next lease gets a new one', async () => {
    const h = holder();
    const running = h.lease(config);
    const connection = running.pool.get(plan);
    h.reset();
    const next = h.lease(config);
    expect(next.pool).not.toBe(running.pool);
    expect(running.pool.size).toBe(1); // still in use
    running.release();
    running.release(); // twice is harmless
    expect(running.pool.size).toBe(0);
    expect(await isClosed(connection)).toBe(true);
    next.release();
    expect(h.hasPool).toBe(true);
  });

  it('an idle pool closes at once on reset, and everything closes on dispose', async () => {
    const h = holder();
    const lease = h.lease(config);
    const connection = lease.pool.get(plan);
    lease.release();
    h.reset();
    expect(await isClosed(connection)).toBe(true);
    const again = h.lease(config);
    const second = again.pool.get(plan);
    h.dispose();
    expect(await isClosed(second)).toBe(true);
    expect(() => h.lease(config)).toThrow(/shutting down/);
  });
});
