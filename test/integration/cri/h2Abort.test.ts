// Opening the HTTP/2 byte stream over SSH honours the caller's cancellation, not only the channel's own
// connect timer: cancelling a CRI call while the SSH connection to the node is still being set up (here: a
// peer that accepts TCP and never speaks SSH) ends the call at once AND tears the connection attempt down,
// instead of leaving it running until the 10 s timer.

import { createServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { SshConnection } from '../../../src/infra/ssh/connection';

const dir = mkdtempSync(join(tmpdir(), 'pleg-h2abort-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CRI over SSH: cancelling while the stream opens', () => {
  it('ends the call and the SSH connection attempt as soon as the caller aborts', async () => {
    const peers: { socket: Socket; closedAt?: number }[] = [];
    const server = createServer((socket) => {
      const peer: { socket: Socket; closedAt?: number } = { socket };
      peers.push(peer);
      socket.resume();
      socket.on('close', () => (peer.closedAt = performance.now()));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const ssh = new SshConnection({
      hop: { alias: 'silent', host: '127.0.0.1', port, user: 'root', identityFiles: [] },
      knownHosts: { readOnly: [], own: join(dir, 'known_hosts') },
      confirmUnknownHost: () => Promise.reject(new Error('no host key question expected')),
      auth: {},
      connectTimeoutMs: 10_000,
    });
    const client = unixSocketClient(ssh, '/run/containerd/containerd.sock', { defaultDeadlineMs: 20_000 });
    try {
      const controller = new AbortController();
      const call = client.version({ signal: controller.signal });
      const errorOf = call.catch((e: unknown) => e);
      for (let i = 0; i < 100 && peers.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(peers).toHaveLength(1);
      const abortedAt = performance.now();
      controller.abort(new Error('cancelled by the user'));
      const error = await errorOf;
      expect(error).toMatchObject({ codeName: 'CANCELLED' });
      expect(performance.now() - abortedAt).toBeLessThan(500);
      // The half-open SSH connection is closed too, well before its 10 s connect timer.
      for (let i = 0; i < 100 && peers[0]?.closedAt === undefined; i++) await new Promise((r) => setTimeout(r, 10));
      expect(peers[0]?.closedAt).toBeDefined();
      expect((peers[0]?.closedAt ?? Infinity) - abortedAt).toBeLessThan(1_000);
      expect(ssh.connected).toBe(false);
    } finally {
      client.close();
      ssh.close();
      for (const p of peers) p.socket.destroy();
      server.close();
    }
  });
});
