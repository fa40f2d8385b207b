// The kubelet's journal through the API server's node proxy: GET /api/v1/nodes/{node}/proxy/logs/?query=kubelet
// (NodeLogQuery). The kubelet serves a journal there only with the NodeLogQuery feature gate and
// `enableSystemLogQuery: true` (kubelet.go, Kubelet.Run: otherwise its logServer is a plain file server
// over /var/log, which ignores `query` and answers with the directory listing); the journal it runs is
// `journalctl --utc --no-pager --output=short-precise --unit=kubelet` (kubelet_server_journal_linux.go,
// getLoggingCmd). Used by "Open Kubelet Log from Node…" and by the diagnosis; each caller words the
// failure its own way.

import { classifyLogQueryStatus, isLogDirectoryListing, kubeletLogQueryPath } from '../../core/parse/logReaderNodeQuery';
import type { KubeGateway } from './gateway';

export interface LogQueryOptions {
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export type LogQueryResult =
  | { kind: 'log'; text: string; ms: number }
  /** The kubelet does not serve its journal: `listing` when it answered with /var/log's listing, else the HTTP status. */
  | { kind: 'not-enabled'; httpStatus: number; listing: boolean; ms: number }
  | { kind: 'forbidden'; httpStatus: number; message: string; ms: number }
  | { kind: 'timeout'; ms: number }
  /** No answer (the API server could not reach the kubelet, the body passed maxBytes) or another status. */
  | { kind: 'failed'; message: string; httpStatus?: number; ms: number };

/** The kubelet unit's journal since `sinceEpochMs`. Only an abort of `signal` rejects. */
export async function queryKubeletLog(gateway: KubeGateway, context: string, node: string, sinceEpochMs: number, options: LogQueryOptions): Promise<LogQueryResult> {
  const path = kubeletLogQueryPath(sinceEpochMs);
  const result = await gateway.nodeProxyGet(context, node, path, {
    timeoutMs: options.timeoutMs,
    maxBytes: options.maxBytes,
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  });
  switch (result.kind) {
    case 'ok':
      return isLogDirectoryListing(result.body) ? { kind: 'not-enabled', httpStatus: 200, listing: true, ms: result.ms } : { kind: 'log', text: result.body, ms: result.ms };
    case 'timeout':
      return { kind: 'timeout', ms: result.ms };
    case 'failed':
      return { kind: 'failed', message: result.error.message, ms: result.ms };
    case 'httpError': {
      const cause = classifyLogQueryStatus(result.httpStatus);
      if (cause === 'not-enabled') return { kind: 'not-enabled', httpStatus: result.httpStatus, listing: false, ms: result.ms };
      if (cause === 'forbidden') return { kind: 'forbidden', httpStatus: result.httpStatus, message: result.error.message, ms: result.ms };
      return { kind: 'failed', message: result.error.message, httpStatus: result.httpStatus, ms: result.ms };
    }
  }
}
