// The product path end to end: CRI through the real sshd of the node stack, with the SSH layer's
// RemoteHost (src/infra/ssh). Root gets the direct stream-local forward; the non-root user cannot open
// the root-only socket, so selection falls back to `sudo -n socat` through an exec channel.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SshConnection } from '../../../src/infra/ssh/connection';
import { selectTransport } from '../../../src/infra/cri/transports/select';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { ctrContainerIds, stack } from './kit';

describe('CRI over SSH (real sshd)', () => {
  const env = stack();
  const connections: SshConnection[] = [];
  const connect = (user: string): SshConnection => {
    const connection = new SshConnection({
      hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user, identityFiles: [env.sshKey] },
      knownHosts: { readOnly: [env.sshKnownHosts], own: join(mkdtempSync(join(tmpdir(), 'pleg-cri-ssh-')), 'known_hosts') },
      confirmUnknownHost: () => Promise.reject(new Error('the node stack host key must already be known')),
      auth: {},
      connectTimeoutMs: 10_000,
    });
    connections.push(connection);
    return connection;
  };
  afterAll(() => {
    for (const c of connections) c.close();
  });

  it('as root: stream-local forward to the socket, full snapshot equal to containerd state', async () => {
    const selection = await selectTransport(connect(env.sshRootUser), { endpoint: env.criSocket, probeTimeoutMs: 10_000 });
    try {
      expect(selection.kind).toBe('unixSocket');
      const snapshot = await takeSnapshot(selection.client);
      expect(snapshot.errors).toEqual([]);
      expect(new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)])).toEqual(ctrContainerIds(env));
      expect(snapshot.source).toBe(`CRI gRPC unix://${env.criSocket} on root@${env.sshHost}:${env.sshPort}`);
    } finally {
      selection.client.close();
    }
  });

  it('as the non-root user: permission is diagnosed and the sudo socat relay is used', async () => {
    const selection = await selectTransport(connect(env.sshUser), { endpoint: env.criSocket, probeTimeoutMs: 10_000 });
    try {
      expect(selection.kind).toBe('execRelay');
      expect(selection.diagnosis?.problem).toBe('permissionDenied');
      expect(selection.attempts[0]).toMatchObject({ kind: 'unixSocket', ok: false });
      const snapshot = await takeSnapshot(selection.client);
      expect(snapshot.errors).toEqual([]);
      expect(new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)])).toEqual(ctrContainerIds(env));
    } finally {
      selection.client.close();
    }
  });

  it('as the non-root user, a missing socket is reported as missing, not as permission', async () => {
    const error = await selectTransport(connect(env.sshUser), { endpoint: `${env.dir}/gone/containerd.sock`, probeTimeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'TransportSelectionError', diagnosis: { problem: 'missing' } });
    expect((error as Error).message).toMatch(/^CRI socket missing: .*gone\/containerd\.sock on plegtest@127\.0\.0\.1:\d+ does not exist/);
  });
});
