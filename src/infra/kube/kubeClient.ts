// HTTP to one context's API server. @kubernetes/client-node supplies what is hard to get right (TLS
// material, tokens, exec and OIDC credential plugins, proxies) through KubeConfig.applyToHTTPSOptions;
// the requests themselves are ours, because client-node's Watch has no connect deadline (its timeout
// signal is overwritten) and drops the Status body of a refused watch, which we need to name the verb RBAC
// refused. client-node is imported on first use so that activation does not evaluate it.

import { request as httpRequest } from 'node:http';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
// Type-only: erased at build time, so it does not load client-node during activation.
import type * as ClientNodeTypes from '@kubernetes/client-node';
import type { ResolvedContext } from './kubeconfig';
import { KubeConfigError } from './kubeconfig';
import { KubeHttpError, KubeTimeoutError } from './errors';

type ClientNode = typeof ClientNodeTypes;

let clientNodeModule: Promise<ClientNode> | undefined;

/** Loads @kubernetes/client-node once, at the first request. */
export function loadClientNode(): Promise<ClientNode> {
  clientNodeModule ??= import('@kubernetes/client-node');
  return clientNodeModule;
}

export type Query = Record<string, string | number | boolean | undefined>;

export interface StreamOptions {
  signal: AbortSignal;
  /** Deadline for the response headers. */
  connectTimeoutMs: number;
  /** Deadline for the whole stream (the server's timeoutSeconds plus a margin). */
  totalTimeoutMs: number;
  /** Called once the server answered 200 and the stream is open. */
  onOpen?: () => void;
}

export interface KubeClient {
  readonly server: string;
  getJson(path: string, query: Query, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** Streams newline-delimited JSON; resolves when the server ends the stream cleanly. */
  streamLines(path: string, query: Query, onLine: (line: string) => void, options: StreamOptions): Promise<void>;
}

function buildUrl(server: string, path: string, query: Query): URL {
  const url = new URL(server.replace(/\/+$/, '') + path);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  return url;
}

/** Combines the caller's signal with a deadline; the deadline's abort reason is a KubeTimeoutError. */
function withDeadline(url: URL, ms: number, signal?: AbortSignal): { signal: AbortSignal; clear: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new KubeTimeoutError(`${url.origin}${url.pathname}`, ms)), ms);
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

async function readBody(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

class HttpKubeClient implements KubeClient {
  constructor(
    readonly server: string,
    private readonly prepare: () => Promise<RequestOptions>,
  ) {}

  private async open(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const base = await this.prepare();
    if (signal.aborted) throw abortError(signal);
    const headers = { ...(base.headers as Record<string, string> | undefined), Accept: 'application/json', 'User-Agent': 'pleg-doctor/0.1' };
    const options: RequestOptions = { ...base, method: 'GET', headers, signal };
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, options, resolve);
      req.on('error', (err) => reject(signal.aborted ? abortError(signal) : err));
      req.end();
    });
  }

  async getJson(path: string, query: Query, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    const url = buildUrl(this.server, path, query);
    const deadline = withDeadline(url, options.timeoutMs, options.signal);
    try {
      const res = await this.open(url, deadline.signal);
      const body = await readBody(res).catch((err: unknown) => {
        throw deadline.signal.aborted ? abortError(deadline.signal) : err;
      });
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) throw new KubeHttpError(status, body, `${url.origin}${url.pathname}`);
      try {
        return JSON.parse(body) as unknown;
      } catch {
        throw new KubeHttpError(502, `malformed JSON answer: ${body.slice(0, 200)}`, `${url.origin}${url.pathname}`);
      }
    } finally {
      deadline.clear();
    }
  }

  async streamLines(path: string, query: Query, onLine: (line: string) => void, options: StreamOptions): Promise<void> {
    const url = buildUrl(this.server, path, query);
    const deadline = withDeadline(url, options.totalTimeoutMs, options.signal);
    const connect = withDeadline(url, options.connectTimeoutMs, deadline.signal);
    try {
      const res = await this.open(url, connect.signal);
      connect.clear();
      const status = res.statusCode ?? 0;
      if (status !== 200) throw new KubeHttpError(status, await readBody(res), `${url.origin}${url.pathname}`);
      options.onOpen?.();
      // The connect signal no longer guards the socket once headers arrived; the total deadline does.
      const onAbort = (): void => {
        res.destroy(deadline.signal.reason instanceof Error ? deadline.signal.reason : new Error('aborted'));
      };
      deadline.signal.addEventListener('abort', onAbort, { once: true });
      let pending = '';
      try {
        res.setEncoding('utf8');
        for await (const chunk of res) {
          pending += chunk as string;
          let nl = pending.indexOf('\n');
          while (nl >= 0) {
            const line = pending.slice(0, nl).trim();
            pending = pending.slice(nl + 1);
            if (line !== '') onLine(line);
            nl = pending.indexOf('\n');
          }
        }
      } catch (err) {
        throw deadline.signal.aborted ? abortError(deadline.signal) : err;
      } finally {
        deadline.signal.removeEventListener('abort', onAbort);
      }
      if (!res.complete) throw Object.assign(new Error('watch stream closed before its end (premature close)'), { code: 'ECONNRESET' });
      if (pending.trim() !== '') throw Object.assign(new Error('watch stream ended in the middle of an event'), { code: 'ECONNRESET' });
    } finally {
      connect.clear();
      deadline.clear();
    }
  }
}

/** The kubeconfig for exactly one context, in the form client-node loads. */
function singleContextConfig(ctx: ResolvedContext): string {
  const cluster: Record<string, unknown> = { ...ctx.cluster };
  // Plain http has no TLS to verify; client-node refuses http unless this flag is set, kubectl does not.
  if (typeof cluster['server'] === 'string' && cluster['server'].startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  const userName = ctx.info.user || 'anonymous';
  const context: Record<string, unknown> = { cluster: ctx.info.cluster, user: userName };
  if (ctx.info.namespace !== undefined) context['namespace'] = ctx.info.namespace;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: ctx.info.cluster, cluster }],
    users: [{ name: userName, user: ctx.user ?? {} }],
    contexts: [{ name: ctx.info.name, context }],
    'current-context': ctx.info.name,
  });
}

export async function createKubeClient(ctx: ResolvedContext): Promise<KubeClient> {
  if (ctx.problem) throw new KubeConfigError(ctx.info.source ?? 'kubeconfig', ctx.problem.detail ?? ctx.problem.message);
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  try {
    kc.loadFromString(singleContextConfig(ctx));
  } catch (err) {
    throw new KubeConfigError(ctx.info.source ?? 'kubeconfig', `context "${ctx.info.name}": ${(err as Error).message}`);
  }
  const prepare = async (): Promise<RequestOptions> => {
    const opts: RequestOptions = {};
    try {
      await kc.applyToHTTPSOptions(opts);
    } catch (err) {
      throw new KubeConfigError(ctx.info.source ?? 'kubeconfig', `context "${ctx.info.name}": cannot prepare credentials: ${(err as Error).message}`);
    }
    return opts;
  };
  return new HttpKubeClient(ctx.info.server, prepare);
}
