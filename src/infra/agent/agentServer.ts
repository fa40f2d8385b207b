// The agent's HTTP port: /metrics (Prometheus text 0.0.4), /v1/session[?since=CURSOR], /v1/diagnosis and
// /healthz. Every answer is made from what the agent already holds (no handler waits on the runtime or the
// kubelet), and the server itself bounds every request (headers, body, idle socket), so a hung runtime
// shows in /metrics as the in-flight age instead of a scrape that hangs.

import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXPOSITION_CONTENT_TYPE } from '../../core/agent/exposition';
import type { SinceAnswer } from '../../core/agent/sessionLog';
import type { TimelineSession } from '../../core/timeline/session';
import { errorText } from '../../core/util/errorText';

/** Bound on one request from its first byte to the end of the answer. */
export const REQUEST_DEADLINE_MS = 10_000;

export interface AgentEndpoints {
  metrics(): string;
  session(): { cursor: string; session: TimelineSession };
  since(cursor: string): SinceAnswer;
  /** The last diagnosis (JSON-ready), or undefined before the first one finished. */
  diagnosis(): unknown;
  /** undefined when alive; otherwise what is not. */
  unhealthy(): string | undefined;
}

function send(res: http.ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', ...headers });
  res.end(body);
}

const json = (res: http.ServerResponse, status: number, value: unknown, headers?: Record<string, string>): void => send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(value)}\n`, headers);

export function handleAgentRequest(endpoints: AgentEndpoints, req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', `${req.method ?? '?'} is not allowed: the agent only answers GET\n`, { Allow: 'GET, HEAD' });
    return;
  }
  const url = new URL(req.url ?? '/', 'http://agent');
  try {
    switch (url.pathname) {
      case '/metrics':
        send(res, 200, EXPOSITION_CONTENT_TYPE, endpoints.metrics());
        return;
      case '/healthz': {
        const problem = endpoints.unhealthy();
        if (problem === undefined) send(res, 200, 'text/plain; charset=utf-8', 'ok');
        else send(res, 503, 'text/plain; charset=utf-8', `${problem}\n`);
        return;
      }
      case '/v1/session': {
        const since = url.searchParams.get('since');
        if (since === null) {
          const { cursor, session } = endpoints.session();
          // The body is the session exactly as the panel exports it; the cursor for increments rides in a header.
          json(res, 200, session, { 'X-Pleg-Doctor-Cursor': cursor });
          return;
        }
        const answer = endpoints.since(since);
        if (answer.kind === 'deltas') json(res, 200, { cursor: answer.cursor, deltas: answer.deltas }, { 'X-Pleg-Doctor-Cursor': answer.cursor });
        else json(res, answer.kind === 'gone' ? 410 : 400, { error: answer.reason });
        return;
      }
      case '/v1/diagnosis': {
        const diagnosis = endpoints.diagnosis();
        if (diagnosis === undefined) json(res, 503, { error: 'the first diagnosis has not finished yet' }, { 'Retry-After': '10' });
        else json(res, 200, diagnosis);
        return;
      }
      default:
        send(res, 404, 'text/plain; charset=utf-8', `no such endpoint ${url.pathname}: /metrics, /healthz, /v1/session[?since=CURSOR], /v1/diagnosis\n`);
    }
  } catch (err) {
    send(res, 500, 'text/plain; charset=utf-8', `${errorText(err)}\n`);
  }
}

export interface AgentServer {
  address: AddressInfo;
  close(): Promise<void>;
}

export async function startAgentServer(endpoints: AgentEndpoints, listen: { host: string; port: number }): Promise<AgentServer> {
  const server = http.createServer({ requestTimeout: REQUEST_DEADLINE_MS, headersTimeout: REQUEST_DEADLINE_MS, keepAliveTimeout: 5_000 }, (req, res) => handleAgentRequest(endpoints, req, res));
  // A client that stops reading an answer does not hold a socket past the deadline.
  server.setTimeout(REQUEST_DEADLINE_MS, (socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new Error(`cannot listen on ${listen.host}:${listen.port}: ${err.code ?? err.message}`, { cause: err })));
    server.listen(listen.port, listen.host, () => resolve());
  });
  return {
    address: server.address() as AddressInfo,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
