// agentGet on a stream the caller opened, also where http.request is replaced as VS Code's extension host
// replaces it (@vscode/proxy-agent createHttpPatch: an agent of its own on every request without a
// socketPath): the GET must still go over the given stream, not to localhost:80.

import * as http from 'node:http';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { agentGet } from '../../../../../src/infra/nodeAccess/agent/agentHttp';

let server: http.Server | undefined;
/** The module object the extension host patches (the ESM namespace follows it after syncBuiltinESMExports). */
const httpModule = createRequire(__filename)('node:http') as { request: typeof http.request };
const original = httpModule.request;

afterEach(async () => {
  httpModule.request = original;
  syncBuiltinESMExports();
  await new Promise((r) => server?.close(r) ?? r(undefined));
  server = undefined;
});

async function agentOnLoopback(): Promise<number> {
  server = http.createServer((req, res) => {
    res.setHeader('x-pleg-doctor-cursor', '7');
    res.end(JSON.stringify({ path: req.url, host: req.headers.host }));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describe('agentGet', () => {
  it('goes over the stream it was given even when http.request puts an agent on every request (the extension host\u2019s proxy support)', async () => {
    const port = await agentOnLoopback();
    let patched = 0;
    // What the extension host's patch does to a request without socketPath: its own agent, which dials host:port itself.
    httpModule.request = ((options: http.RequestOptions, cb?: () => void) => {
      patched++;
      return original({ ...options, agent: new http.Agent() }, cb);
    }) as typeof http.request;
    syncBuiltinESMExports();
    const answer = await agentGet(
      () => new Promise((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => resolve(s));
        s.once('error', reject);
      }),
      '/v1/session?since=3',
      'agent pod pleg-doctor/x',
      { signal: new AbortController().signal, timeoutMs: 5_000, maxBytes: 1024 },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['x-pleg-doctor-cursor']).toBe('7');
    expect(JSON.parse(answer.body)).toEqual({ path: '/v1/session?since=3', host: 'pleg-doctor-agent' });
    // The replaced http.request was not in the way.
    expect(patched).toBe(0);
  });
});
