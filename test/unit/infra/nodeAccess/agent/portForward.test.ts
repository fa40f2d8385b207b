// openPodPortForward against a stand-in API server speaking what the kubelet's websocket.go does: a 101
// with v4.channel.k8s.io, then per channel the port number (little endian) first; data on channel 0, the
// kubelet's error text on channel 1; and a refusal as a Status body with no upgrade.

import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { KubeHttpError } from '../../../../../src/infra/kube/errors';
import type { KubeClient } from '../../../../../src/infra/kube/kubeClient';
import { agentGet } from '../../../../../src/infra/nodeAccess/agent/agentHttp';
import { openPodPortForward, portForwardPath } from '../../../../../src/infra/nodeAccess/agent/portForward';
import { acceptFor } from '../../../../../src/infra/nodeAccess/agent/wsFrames';

let server: Server | undefined;
/** Upgraded sockets are the test's, not the server's: closeAllConnections does not reach them. */
const upgraded = new Set<Socket>();
afterEach(
  () =>
    new Promise<void>((r) => {
      for (const s of upgraded) s.destroy();
      upgraded.clear();
      if (server === undefined) return r();
      server.closeAllConnections();
      server.close(() => r());
      server = undefined;
    }),
);

/** The client's frames as the server reads them: masked (RFC 6455 5.3); payloads of binary frames. */
function clientFrames(): (chunk: Buffer) => Buffer[] {
  let buf = Buffer.alloc(0);
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    const out: Buffer[] = [];
    for (;;) {
      if (buf.length < 2) return out;
      expect((buf[1] as number) & 0x80).toBe(0x80);
      let len = (buf[1] as number) & 0x7f;
      let off = 2;
      if (len === 126) {
        len = buf.readUInt16BE(2);
        off = 4;
      }
      if (buf.length < off + 4 + len) return out;
      const mask = buf.subarray(off, off + 4);
      const payload = Buffer.from(buf.subarray(off + 4, off + 4 + len).map((b, i) => b ^ (mask[i % 4] as number)));
      if (((buf[0] as number) & 0x0f) === 0x2) out.push(payload);
      buf = buf.subarray(off + 4 + len);
    }
  };
}

const frame = (channel: number, data: Buffer): Buffer => {
  const payload = Buffer.concat([Buffer.from([channel]), data]);
  const len = payload.length;
  return Buffer.concat([len < 126 ? Buffer.from([0x82, len]) : Buffer.from([0x82, 126, len >> 8, len & 0xff]), payload]);
};
const PORT_LE = Buffer.from([9787 & 0xff, 9787 >> 8]);

async function standIn(onStream: (socket: Socket, received: (cb: (data: Buffer) => void) => void) => void, refuse?: { status: number; body: string }): Promise<KubeClient> {
  server = createServer((req, res) => {
    res.writeHead(refuse?.status ?? 400, { 'Content-Type': 'application/json' });
    res.end(refuse?.body ?? '');
  });
  server.on('upgrade', (req, socket: Socket) => {
    upgraded.add(socket);
    expect(req.url).toBe('/api/v1/namespaces/pleg-doctor/pods/agent-1/portforward?ports=9787');
    expect(req.headers['sec-websocket-protocol']).toBe('v4.channel.k8s.io');
    if (refuse !== undefined) {
      socket.end(`HTTP/1.1 ${refuse.status} Forbidden\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(refuse.body)}\r\n\r\n${refuse.body}`);
      return;
    }
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${acceptFor(String(req.headers['sec-websocket-key']))}\r\nSec-WebSocket-Protocol: v4.channel.k8s.io\r\n\r\n`);
    socket.write(Buffer.concat([frame(0, PORT_LE), frame(1, PORT_LE)]));
    const read = clientFrames();
    onStream(socket, (cb) =>
      socket.on('data', (chunk: Buffer) => {
        for (const p of read(chunk)) if (p[0] === 0) cb(p.subarray(1));
      }),
    );
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return { server: `http://127.0.0.1:${port}`, requestOptions: async () => ({}) } as unknown as KubeClient;
}

const target = { namespace: 'pleg-doctor', pod: 'agent-1', port: 9787 };

describe('openPodPortForward', () => {
  it('an HTTP GET over the forward: the request reaches the port, the answer comes back without the port headers', async () => {
    const client = await standIn((socket, received) => {
      let request = '';
      received((data) => {
        request += data.toString('latin1');
        if (!request.endsWith('\r\n\r\n')) return;
        expect(request).toMatch(/^GET \/healthz HTTP\/1\.1\r\n/);
        const answer = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
        // Split across two frames, as a stream may be.
        socket.write(Buffer.concat([frame(0, answer.subarray(0, 20)), frame(0, answer.subarray(20))]));
      });
    });
    const answer = await agentGet((signal) => openPodPortForward(client, target, { signal, timeoutMs: 2_000 }), '/healthz', 'agent', { signal: new AbortController().signal, timeoutMs: 5_000, maxBytes: 1024 });
    expect(answer).toMatchObject({ status: 200, body: 'ok' });
  });

  it('the kubelet\u2019s error channel (nothing listens on the port) fails the request with its text', async () => {
    const client = await standIn((socket) => {
      socket.write(frame(1, Buffer.from('error forwarding port 9787 to pod 0c1d, uid : failed to execute portforward in network namespace "host": failed to connect to localhost:9787 inside namespace "0c1d", IPv4: dial tcp4 127.0.0.1:9787: connect: connection refused')));
      socket.end(Buffer.from([0x88, 0]));
    });
    await expect(agentGet((signal) => openPodPortForward(client, target, { signal, timeoutMs: 2_000 }), '/v1/session', 'agent', { signal: new AbortController().signal, timeoutMs: 5_000, maxBytes: 1024 })).rejects.toThrow(
      /port-forward to pod pleg-doctor\/agent-1 port 9787 failed: error forwarding port 9787 .*connection refused/,
    );
  });

  it('a refusal is a KubeHttpError with the Status body (403 is RBAC\u2019s)', async () => {
    const status = JSON.stringify({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: 'pods "agent-1" is forbidden: User "u" cannot get resource "pods/portforward" in API group "" in the namespace "pleg-doctor"' });
    const client = await standIn(() => {}, { status: 403, body: status });
    const err = await openPodPortForward(client, target, { signal: new AbortController().signal, timeoutMs: 2_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeHttpError);
    expect(err).toMatchObject({ status: 403, body: status });
  });

  it('a forward that never upgrades times out at its deadline', async () => {
    server = createServer();
    server.on('upgrade', (_req, socket: Socket) => {
      // never answers
      upgraded.add(socket);
    });
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
    const client = { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requestOptions: async () => ({}) } as unknown as KubeClient;
    const started = Date.now();
    await expect(openPodPortForward(client, target, { signal: new AbortController().signal, timeoutMs: 200 })).rejects.toThrow(/no answer from .* within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('the path encodes the names and refuses a port that is none', () => {
    expect(portForwardPath({ namespace: 'a b', pod: 'p/1', port: 1 })).toBe('/api/v1/namespaces/a%20b/pods/p%2F1/portforward?ports=1');
    expect(() => portForwardPath({ namespace: 'a', pod: 'p', port: 70000 })).toThrow(/not a TCP port/);
  });
});
