// Maps whatever a Kubernetes request threw (socket errors, TLS errors, deadlines, HTTP statuses with
// metav1.Status bodies) to a ClusterError whose message names the cause for the user.

import type { ClusterError } from './gateway';
import { KubeConfigError } from './kubeconfig';
import { errorText } from '../../core/util/errorText';

/** A non-2xx answer from the API server, with the raw body (usually a metav1.Status). */
export class KubeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly url: string,
  ) {
    super(`HTTP ${status} from ${url}`);
    this.name = 'KubeHttpError';
  }
}

/** The request outlived its deadline (ours, not the server's). */
export class KubeTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly ms: number,
  ) {
    super(`no answer from ${url} within ${ms} ms`);
    this.name = 'KubeTimeoutError';
  }
}

/** What was being attempted, so the message can say it. */
export interface RequestContext {
  server: string;
  verb: string;
  resource: string;
}

interface StatusLike {
  kind?: unknown;
  message?: unknown;
  reason?: unknown;
  code?: unknown;
  details?: { kind?: unknown; name?: unknown };
}

export function parseStatus(body: string): StatusLike | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null && (parsed as StatusLike).kind === 'Status') return parsed as StatusLike;
  } catch {
    // not JSON: the caller falls back to the HTTP status alone
  }
  return undefined;
}

/** `... cannot watch resource "nodes" in API group "" ...` → verb and resource. */
export function parseForbidden(message: string): { verb?: string; resource?: string } {
  const m = /cannot (\S+) resource "([^"]*)"/.exec(message);
  if (!m) return {};
  const out: { verb?: string; resource?: string } = {};
  if (m[1]) out.verb = m[1];
  if (m[2]) out.resource = m[2];
  return out;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EHOSTDOWN', 'ECONNRESET', 'EPIPE']);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

function errorCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function hostPort(server: string): string {
  try {
    const u = new URL(server);
    const port = u.port || (u.protocol === 'http:' ? '80' : '443');
    return `${u.hostname}:${port}`;
  } catch {
    return server;
  }
}

function text(err: unknown): string {
  return errorText(err);
}

export function toClusterError(err: unknown, ctx: RequestContext): ClusterError {
  if (err instanceof KubeConfigError) return err.clusterError;
  const target = hostPort(ctx.server);
  if (err instanceof KubeHttpError) return fromHttp(err, ctx, target);
  if (err instanceof KubeTimeoutError || (err instanceof Error && err.name === 'TimeoutError')) {
    return { kind: 'timeout', message: `The API server at ${target} did not answer "${ctx.verb} ${ctx.resource}" in time`, detail: text(err) };
  }
  const code = errorCode(err);
  if (code && UNREACHABLE_CODES.has(code)) {
    const why =
      code === 'ECONNREFUSED'
        ? 'connection refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'host name not found'
          : code === 'ECONNRESET' || code === 'EPIPE'
            ? 'connection reset'
            : 'host unreachable';
    return { kind: 'unreachable', message: `Cannot reach the API server at ${target}: ${why} (${code})`, detail: text(err) };
  }
  if (code && TIMEOUT_CODES.has(code)) {
    return { kind: 'timeout', message: `The API server at ${target} did not answer in time (${code})`, detail: text(err) };
  }
  if ((code && TLS_CODES.has(code)) || (code?.startsWith('ERR_TLS') ?? false) || (code?.startsWith('ERR_SSL') ?? false)) {
    return { kind: 'tls', message: `TLS failure talking to ${target}: ${text(err)} (${code ?? 'TLS'})`, detail: text(err) };
  }
  return { kind: 'other', message: `Request "${ctx.verb} ${ctx.resource}" to ${target} failed: ${text(err)}`, detail: text(err) };
}

function fromHttp(err: KubeHttpError, ctx: RequestContext, target: string): ClusterError {
  const status = parseStatus(err.body);
  const statusMessage = typeof status?.message === 'string' ? status.message : undefined;
  const detail = statusMessage ?? (err.body.slice(0, 500) || err.message);
  if (err.status === 401) {
    return { kind: 'unauthorized', httpStatus: 401, message: `401 Unauthorized: the API server at ${target} rejected the credentials of this context`, detail };
  }
  if (err.status === 403) {
    const parsed = statusMessage ? parseForbidden(statusMessage) : {};
    const detailsKind = typeof status?.details?.kind === 'string' ? status.details.kind : undefined;
    const verb = parsed.verb ?? ctx.verb;
    const resource = parsed.resource ?? detailsKind ?? ctx.resource;
    return { kind: 'forbidden', httpStatus: 403, verb, resource, message: `403 Forbidden: cannot ${verb} ${resource}`, detail };
  }
  if (err.status >= 500) {
    return { kind: 'server', httpStatus: err.status, message: `The API server at ${target} failed (HTTP ${err.status}): ${statusMessage ?? 'no details'}`, detail };
  }
  return { kind: 'other', httpStatus: err.status, message: `HTTP ${err.status} for "${ctx.verb} ${ctx.resource}": ${statusMessage ?? 'no details'}`, detail };
}
