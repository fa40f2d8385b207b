// One HTTP/1.1 GET to the agent over a stream the caller opens (a pod port-forward): Node's HTTP client on
// that stream, `Connection: close`, so each request has its own stream and nothing lingers in the API
// server or the kubelet after it. The deadline covers opening the stream, the headers and the whole body.
// The request is a ClientRequest made here, not http.request(): VS Code's extension host replaces
// http.request (its proxy support, @vscode/proxy-agent createHttpPatch, on by default) with one that puts its
// own agent on every request without a socketPath, and an agent takes the place of `createConnection`: the
// GET went to localhost:80 instead of the port-forward (seen in code-server: connect ECONNREFUSED 127.0.0.1:80).

import type { IncomingHttpHeaders } from 'node:http';
import { ClientRequest } from 'node:http';
import type { Duplex } from 'node:stream';
import { KubeTimeoutError } from '../../kube/errors';
import { BodyTooLargeError } from '../../kube/kubeClient';

export interface AgentAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface AgentGetOptions {
  timeoutMs: number;
  signal: AbortSignal;
  maxBytes: number;
}

/** `path` starts with '/', may carry a query; `describe` names the target in errors (e.g. the pod). */
export async function agentGet(open: (signal: AbortSignal) => Promise<Duplex>, path: string, describe: string, options: AgentGetOptions): Promise<AgentAnswer> {
  if (!path.startsWith('/')) throw new Error(`agent path "${path}" must start with "/"`);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new KubeTimeoutError(`${describe}${path}`, options.timeoutMs)), options.timeoutMs);
  const signal = AbortSignal.any([options.signal, timeout.signal]);
  const reason = (): Error => (signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
  let stream: Duplex | undefined;
  try {
    stream = await open(signal);
    const opened = stream;
    return await new Promise<AgentAnswer>((resolve, reject) => {
      // Not the Host of the API server: the agent answers any Host; this names what is asked for in its log.
      const req = new ClientRequest({ createConnection: () => opened, path, method: 'GET', headers: { Host: 'pleg-doctor-agent', Accept: 'application/json, text/plain', Connection: 'close' } });
      const onAbort = (): void => {
        req.destroy(reason());
        opened.destroy();
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      const fail = (err: Error): void => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? reason() : err);
      };
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > options.maxBytes) {
            res.destroy();
            opened.destroy();
            fail(new BodyTooLargeError(`${describe}${path}`, options.maxBytes));
            return;
          }
          chunks.push(c);
        });
        res.on('error', fail);
        res.on('end', () => {
          signal.removeEventListener('abort', onAbort);
          if (!res.complete) {
            reject(new Error(`the answer of ${describe}${path} ended before its end`));
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      req.end();
    });
  } catch (err) {
    throw signal.aborted ? reason() : err;
  } finally {
    clearTimeout(timer);
    stream?.destroy();
  }
}
