// `pleg-doctor npd-plugin` in-process against a local HTTP server serving the agent contract's metrics
// (a stand-in for the agent), and against one that never answers: the deadline holds.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../../src/cli/dispatch';
import { COMMANDS } from '../../../../src/cli/registry';
import { memoryIo } from '../../../support/memoryIo';

let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers = [];
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['npd-plugin', ...argv], io, COMMANDS, '0.0.0');
  return { code, out: io.out(), err: io.err() };
}

describe('pleg-doctor npd-plugin', () => {
  it('reads URL/metrics and exits 1 with the prediction when NotReady is predicted', async () => {
    const paths: string[] = [];
    const url = await serve((req, res) => {
      paths.push(req.url ?? '');
      res.end('pleg_doctor_notready_predicted_seconds 95\npleg_doctor_finding{cause="runtime-hung"} 1\n');
    });
    const r = await run(['--agent-url', url]);
    expect(r).toEqual({ code: 1, out: 'NotReady predicted in 1m35s: runtime-hung\n', err: '' });
    expect(paths).toEqual(['/metrics']);
  });

  it('exits 0 when nothing is predicted', async () => {
    const url = await serve((_req, res) => res.end('pleg_doctor_notready_predicted_seconds +Inf\n'));
    expect(await run(['--agent-url', `${url}/`])).toEqual({ code: 0, out: 'no NotReady predicted\n', err: '' });
  });

  it('a NotReady predicted beyond --within (default 2m, the alert\'s bound) is not a problem yet', async () => {
    const url = await serve((_req, res) => res.end('pleg_doctor_notready_predicted_seconds 191\npleg_doctor_finding{cause="runtime-hung"} 1\n'));
    expect(await run(['--agent-url', url])).toEqual({ code: 0, out: 'NotReady predicted in 3m11s, beyond 2m0s\n', err: '' });
    expect((await run(['--agent-url', url, '--within', '4m'])).code).toBe(1);
    expect((await run(['--agent-url', url, '--within', '0s'])).code).toBe(2);
  });

  it('an agent that does not answer: unknown (3) at the --timeout, the cause on stdout within 80 bytes and on stderr', async () => {
    const url = await serve(() => undefined);
    const started = Date.now();
    const r = await run(['--agent-url', url, '--timeout', '300ms']);
    const took = Date.now() - started;
    expect(r.code).toBe(3);
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(3000);
    expect(r.out).toMatch(/^agent: GET http:\/\/127\.0\.0\.1:\d+\/metrics: The operation timed out after 300 ms\n$/);
    expect(Buffer.byteLength(r.out.trim())).toBeLessThanOrEqual(80);
    expect(r.err).toMatch(/^pleg-doctor: npd-plugin: GET .* timed out/);
  });

  it('an agent that is not there, or answers 500: unknown (3) naming it', async () => {
    const url = await serve((_req, res) => {
      res.statusCode = 500;
      res.end('boom');
    });
    expect(await run(['--agent-url', url])).toMatchObject({ code: 3, out: expect.stringMatching(/^agent: GET .*: HTTP 500 boom\n$/) });
    const closed = await serve(() => undefined);
    servers[servers.length - 1]?.close();
    expect((await run(['--agent-url', closed])).out).toMatch(/ECONNREFUSED/);
  });

  it('bad options exit 2', async () => {
    expect((await run(['--agent-url', 'ftp://x'])).code).toBe(2);
    expect((await run(['--timeout', '0s'])).code).toBe(2);
    expect((await run(['--timeout', 'soon'])).err).toMatch(/^pleg-doctor: npd-plugin: --timeout /);
  });
});
