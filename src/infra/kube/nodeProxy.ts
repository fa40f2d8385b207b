// `GET /api/v1/nodes/{node}/proxy{path}`: the kubelet's own endpoints through the API server. Every way
// it can end is an answer (ok, an HTTP error, a deadline, no answer), because a kubelet endpoint that
// hangs or is refused is evidence; only the caller's abort rejects.

import { KubeConfigError } from './kubeconfig';
import { BodyTooLargeError } from './kubeClient';
import type { KubeClient } from './kubeClient';
import { KubeHttpError, KubeTimeoutError, toClusterError } from './errors';
import type { NodeProxyOptions, NodeProxyResult } from './gateway';

export const DEFAULT_PROXY_MAX_BYTES = 16 * 1024 * 1024;

const PROXY_WHAT = { verb: 'get', resource: 'nodes/proxy' } as const;

/** An Error named 'AbortError' (what callers test for), keeping the abort reason as its cause. */
export function proxyAbortError(reason: unknown): Error {
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const why = reason instanceof Error ? reason.message : reason === undefined ? 'aborted' : String(reason);
  const err = new Error(`node proxy request aborted: ${why}`, { cause: reason });
  err.name = 'AbortError';
  return err;
}

/** The URL path of a proxy request: the node name is one encoded path segment; `path` must start with '/'. */
export function nodeProxyPath(node: string, path: string): string {
  if (!path.startsWith('/')) throw new Error(`node proxy path "${path}" must start with "/"`);
  if (/[\s#]/.test(path)) throw new Error(`node proxy path "${path}" contains a space or '#'`);
  return `/api/v1/nodes/${encodeURIComponent(node)}/proxy${path}`;
}

export async function nodeProxyGet(
  client: () => Promise<KubeClient>,
  server: string,
  node: string,
  path: string,
  options: NodeProxyOptions,
  lifetime: AbortSignal,
): Promise<NodeProxyResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  const pathAndQuery = nodeProxyPath(node, path);
  const signal = options.signal ? AbortSignal.any([options.signal, lifetime]) : lifetime;
  if (signal.aborted) throw proxyAbortError(signal.reason);
  try {
    const c = await client();
    const answer = await c.getText(pathAndQuery, { signal, timeoutMs: options.timeoutMs, maxBytes: options.maxBytes ?? DEFAULT_PROXY_MAX_BYTES });
    if (answer.status >= 200 && answer.status < 300) {
      const ok: NodeProxyResult = { kind: 'ok', body: answer.body, ms: ms() };
      if (answer.contentType !== undefined) ok.contentType = answer.contentType;
      return ok;
    }
    const error = toClusterError(new KubeHttpError(answer.status, answer.body, `${server}${pathAndQuery}`), { server, ...PROXY_WHAT });
    if (answer.status === 403) {
      // The node proxy is one RBAC grant, whatever path is asked for: say which, not what the Status guessed.
      error.verb = 'get';
      error.resource = 'nodes/proxy';
      error.message = '403 Forbidden: cannot get nodes/proxy';
    }
    return { kind: 'httpError', httpStatus: answer.status, error, body: answer.body, ms: ms() };
  } catch (err) {
    if (signal.aborted) throw proxyAbortError(signal.reason);
    if (err instanceof KubeTimeoutError) return { kind: 'timeout', ms: ms() };
    if (err instanceof BodyTooLargeError) return { kind: 'failed', error: { kind: 'other', message: err.message }, ms: ms() };
    if (err instanceof KubeConfigError) return { kind: 'failed', error: err.clusterError, ms: ms() };
    return { kind: 'failed', error: toClusterError(err, { server, ...PROXY_WHAT }), ms: ms() };
  }
}
