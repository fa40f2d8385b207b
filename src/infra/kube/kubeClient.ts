// HTTP to one context's API server. @kubernetes/client-node supplies what is hard to get right (TLS
// material, tokens, exec and OIDC credential plugins, proxies) through KubeConfig.applyToHTTPSOptions;
// the requests themselves are ours, because client-node's Watch has no connect deadline (its timeout
// signal is overwritten) and drops the Status body of a refused watch, which we need to name the verb RBAC
// refused. client-node is imported on first use so that activation does not evaluate it.

import { request as httpRequest } from 'node:http';
import type { IncomingMessage, RequestOptions } from 'node:http';
import { readFile } from 'node:fs/promises';
import { request as httpsRequest } from 'node:https';
// Type-only: erased at build time, so it does not load client-node during activation.
import type * as ClientNodeTypes from '@kubernetes/client-node';
import type { ResolvedContext } from './kubeconfig';
import { KubeConfigError } from './kubeconfig';
import { abortable } from '../../core/util/abortable';
import { KubeHttpError, KubeTimeoutError } from './errors';
import { ExecCredentialSource, readExecConfig } from './execCredential';

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

/** A GET whose body is read as text whatever its status: the node proxy's answers (metrics, healthz, …). */
export interface TextAnswer {
  status: number;
  body: string;
  contentType?: string;
}

export interface TextRequestOptions {
  signal?: AbortSignal;
  /** Covers the headers and the whole body: a server that stalls mid-body still times out. */
  timeoutMs: number;
  /** The body is cut off here and the request fails with BodyTooLargeError. */
  maxBytes: number;
  accept?: string;
}

/** The answer's body grew beyond the caller's cap. */
export class BodyTooLargeError extends Error {
  constructor(
    readonly url: string,
    readonly maxBytes: number,
  ) {
    super(`the answer of ${url} exceeded ${maxBytes} bytes and was cut off`);
    this.name = 'BodyTooLargeError';
  }
}

export interface KubeClient {
  readonly server: string;
  /** `pathAndQuery` is sent as given (already encoded), e.g. `/api/v1/nodes/n1/proxy/debug/pprof/goroutine?debug=2`. */
  getText(pathAndQuery: string, options: TextRequestOptions): Promise<TextAnswer>;
  getJson(path: string, query: Query, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** PATCH with a JSON body (`contentType` picks the patch kind); resolves with the answer's JSON, rejects with KubeHttpError. */
  patchJson?(path: string, body: string, contentType: string, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** Streams newline-delimited JSON; resolves when the server ends the stream cleanly. */
  streamLines(path: string, query: Query, onLine: (line: string) => void, options: StreamOptions): Promise<void>;
  /** POST a JSON body (create); resolves with the answer's JSON, rejects with KubeHttpError. */
  postJson?(path: string, body: string, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /** DELETE with an optional DeleteOptions body; resolves with the answer's JSON, rejects with KubeHttpError. */
  deleteJson?(path: string, body: string | undefined, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown>;
  /**
   * The TLS material and credential headers of this context (exec plugins run with `signal`), for a request
   * the caller sends itself: the WebSocket upgrade of a pod port-forward (../nodeAccess/agent/portForward.ts).
   */
  requestOptions?(signal: AbortSignal): Promise<RequestOptions>;
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

/** Reads at most `maxBytes`; the response is destroyed as soon as the deadline or the caller aborts. */
async function readCapped(res: IncomingMessage, signal: AbortSignal, maxBytes: number, url: string): Promise<string> {
  const onAbort = (): void => {
    res.destroy(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > maxBytes) {
        res.destroy();
        throw new BodyTooLargeError(url, maxBytes);
      }
      chunks.push(buf);
    }
  } catch (err) {
    throw signal.aborted ? abortError(signal) : err;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) throw abortError(signal);
  if (!res.complete) throw Object.assign(new Error(`the answer of ${url} ended before its end (premature close)`), { code: 'ECONNRESET' });
  return Buffer.concat(chunks).toString('utf8');
}

/** A request with a method other than GET; `body` undefined sends none. */
interface Payload {
  method: 'PATCH' | 'POST' | 'DELETE';
  body: string | undefined;
  contentType: string;
}

class HttpKubeClient implements KubeClient {
  constructor(
    readonly server: string,
    /** TLS material and credentials; exec plugins run here, so it gets the request's deadline signal. */
    private readonly prepare: (signal: AbortSignal) => Promise<RequestOptions>,
    /** The API server answered 401: a cached plugin credential must not be sent again. */
    private readonly onUnauthorized?: () => void,
  ) {}

  requestOptions(signal: AbortSignal): Promise<RequestOptions> {
    return this.prepare(signal);
  }

  private async open(url: URL, signal: AbortSignal, accept = 'application/json', payload?: Payload): Promise<IncomingMessage> {
    // Credential plugins (exec, OIDC refresh) run here: prepare() races them against this signal.
    const base = await this.prepare(signal);
    const headers: Record<string, string> = { ...(base.headers as Record<string, string> | undefined), Accept: accept, 'User-Agent': 'pleg-doctor/0.1' };
    if (payload?.body !== undefined) headers['Content-Type'] = payload.contentType;
    const options: RequestOptions = { ...base, method: payload?.method ?? 'GET', headers, signal };
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, options, resolve);
      req.on('error', (err) => reject(signal.aborted ? abortError(signal) : err));
      req.end(payload?.body);
    });
    if (res.statusCode === 401) this.onUnauthorized?.();
    return res;
  }

  async getText(pathAndQuery: string, options: TextRequestOptions): Promise<TextAnswer> {
    const url = new URL(this.server.replace(/\/+$/, '') + pathAndQuery);
    const where = `${url.origin}${url.pathname}`;
    const deadline = withDeadline(url, options.timeoutMs, options.signal);
    try {
      const res = await this.open(url, deadline.signal, options.accept ?? '*/*');
      const body = await readCapped(res, deadline.signal, options.maxBytes, where);
      const answer: TextAnswer = { status: res.statusCode ?? 0, body };
      const type = res.headers['content-type'];
      if (type !== undefined) answer.contentType = type;
      return answer;
    } finally {
      deadline.clear();
    }
  }

  async getJson(path: string, query: Query, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    return this.requestJson(buildUrl(this.server, path, query), options);
  }

  async patchJson(path: string, body: string, contentType: string, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    return this.requestJson(buildUrl(this.server, path, {}), options, { method: 'PATCH', body, contentType });
  }

  async postJson(path: string, body: string, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    return this.requestJson(buildUrl(this.server, path, {}), options, { method: 'POST', body, contentType: 'application/json' });
  }

  async deleteJson(path: string, body: string | undefined, options: { signal?: AbortSignal; timeoutMs: number }): Promise<unknown> {
    return this.requestJson(buildUrl(this.server, path, {}), options, { method: 'DELETE', body, contentType: 'application/json' });
  }

  private async requestJson(url: URL, options: { signal?: AbortSignal; timeoutMs: number }, payload?: Payload): Promise<unknown> {
    const deadline = withDeadline(url, options.timeoutMs, options.signal);
    try {
      const res = await this.open(url, deadline.signal, 'application/json', payload);
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
  // An exec plugin is run by us, with a deadline (execCredential.ts); client-node sees the user without it.
  const exec = readExecConfig(ctx.user, ctx.info.source);
  const plugin = exec !== undefined ? new ExecCredentialSource(exec, { file: ctx.info.source ?? 'kubeconfig', context: ctx.info.name }) : undefined;
  const forClientNode = plugin !== undefined ? { ...ctx, user: Object.fromEntries(Object.entries(ctx.user ?? {}).filter(([key]) => key !== 'exec')) } : ctx;
  const { KubeConfig } = await loadClientNode();
  const kc = new KubeConfig();
  try {
    kc.loadFromString(singleContextConfig(forClientNode));
  } catch (err) {
    throw new KubeConfigError(ctx.info.source ?? 'kubeconfig', `context "${ctx.info.name}": ${(err as Error).message}`);
  }
  const prepare = async (signal: AbortSignal): Promise<RequestOptions> => {
    const opts: RequestOptions & { cert?: string; key?: string } = {};
    try {
      // client-node's own credential work (OIDC refresh, token files) with the request's deadline and abort.
      await abortable(kc.applyToHTTPSOptions(opts), signal, () => {
        const reason = abortError(signal);
        return reason instanceof Error ? reason : new Error(String(reason));
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new KubeConfigError(ctx.info.source ?? 'kubeconfig', `context "${ctx.info.name}": cannot prepare credentials: ${(err as Error).message}`);
    }
    if (plugin !== undefined) {
      const credential = await plugin.get(signal);
      if (credential.token !== undefined) opts.headers = { ...(opts.headers as Record<string, string> | undefined), Authorization: `Bearer ${credential.token}` };
      if (credential.clientCertificateData !== undefined && credential.clientKeyData !== undefined) {
        opts.cert = credential.clientCertificateData;
        opts.key = credential.clientKeyData;
      }
    }
    return opts;
  };
  return new HttpKubeClient(ctx.info.server, prepare, plugin !== undefined ? () => plugin.invalidate() : undefined);
}

/**
 * The API server as a pod's service account reaches it (the node agent), without client-node: the bearer
 * token re-read from its file before every request (the kubelet rotates a projected token in place) and the
 * cluster CA from the mounted ca.crt. Nothing else of a kubeconfig (exec, OIDC, proxies) is needed there,
 * and leaving client-node out keeps the agent's memory within its budget (bench/agent.ts).
 */
export function serviceAccountKubeClient(server: string, files: { tokenFile: string; caFile: string }): KubeClient {
  const prepare = async (): Promise<RequestOptions> => {
    let token: string;
    let ca: Buffer;
    try {
      [token, ca] = await Promise.all([readFile(files.tokenFile, 'utf8'), readFile(files.caFile)]);
    } catch (err) {
      throw new KubeConfigError('in-cluster config', `cannot read the service-account token or CA: ${(err as Error).message}`);
    }
    return { ca, headers: { Authorization: `Bearer ${token.trim()}` } } as RequestOptions;
  };
  return new HttpKubeClient(server, prepare);
}
