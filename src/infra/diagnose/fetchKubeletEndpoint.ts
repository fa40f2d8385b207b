// One kubelet endpoint through the node proxy, turned into a Fetched: a 403 is an RBAC gap, a 502/503/404
// means the API server could not reach the kubelet (or the endpoint is off), a deadline is a finding, a
// body that does not parse names the endpoint and the parser's complaint. Only the caller's abort rejects.

import type { Fetched } from '../../core/diagnose/evidence';
import type { KubeGateway, NodeProxyResult } from '../kube/gateway';
import { proxyAbortError } from '../kube/nodeProxy';
import { nextTurn } from './cpuTurns';
import { errorText } from '../../core/util/errorText';

export interface KubeletEndpoint<T> {
  /** Path under /api/v1/nodes/{node}/proxy, with its query. */
  path: string;
  /**
   * Reads the body. `httpStatus` is 200 for ok answers; an endpoint may also accept a non-2xx status whose
   * body is meaningful (the kubelet's /healthz answers 500 when a check fails).
   */
  parse: (body: string, httpStatus: number) => T;
  acceptsStatus?: (httpStatus: number) => boolean;
}

export interface EndpointRequest {
  gateway: KubeGateway;
  context: string;
  node: string;
  timeoutMs: number;
  signal: AbortSignal;
}

function parsed<T>(endpoint: KubeletEndpoint<T>, body: string, httpStatus: number, ms: number): Fetched<T> {
  try {
    return { status: 'ok', value: endpoint.parse(body, httpStatus), ms };
  } catch (err) {
    return { status: 'failed', message: `${endpoint.path}: the kubelet's answer did not parse: ${errorText(err)}`, ms };
  }
}

export function toFetched<T>(endpoint: KubeletEndpoint<T>, result: NodeProxyResult, timeoutMs: number): Fetched<T> {
  switch (result.kind) {
    case 'ok':
      return parsed(endpoint, result.body, 200, result.ms);
    case 'timeout':
      return { status: 'timeout', ms: result.ms, deadlineMs: timeoutMs };
    case 'failed':
      return { status: 'failed', message: `${endpoint.path}: ${result.error.message}`, ms: result.ms };
    case 'httpError': {
      const status = result.httpStatus;
      if (endpoint.acceptsStatus?.(status) === true) return parsed(endpoint, result.body, status, result.ms);
      if (status === 403) return { status: 'forbidden', message: result.error.message, ms: result.ms };
      if (status === 404 || status === 502 || status === 503) {
        return { status: 'unavailable', message: `${endpoint.path}: ${result.error.message}`, ms: result.ms, httpStatus: status };
      }
      return { status: 'failed', message: `${endpoint.path}: ${result.error.message}`, ms: result.ms };
    }
  }
}

export async function fetchKubeletEndpoint<T>(endpoint: KubeletEndpoint<T>, request: EndpointRequest): Promise<Fetched<T>> {
  const started = performance.now();
  let result: NodeProxyResult;
  try {
    result = await request.gateway.nodeProxyGet(request.context, request.node, endpoint.path, { timeoutMs: request.timeoutMs, signal: request.signal });
  } catch (err) {
    if (request.signal.aborted) throw err;
    // A gateway that throws (a node name it refuses, say) still leaves a status for this source.
    return { status: 'failed', message: `${endpoint.path}: ${errorText(err)}`, ms: Math.round(performance.now() - started) };
  }
  // Parsing is the CPU-heavy part: wait for a turn so that many nodes' answers do not block the loop together.
  if (result.kind === 'ok' || result.kind === 'httpError') {
    await nextTurn();
    if (request.signal.aborted) throw proxyAbortError(request.signal.reason);
  }
  return toFetched(endpoint, result, request.timeoutMs);
}
