// The kubelet's NodeLogQuery endpoint (`/logs/?query=kubelet`, feature gate NodeLogQuery, β 1.30, off by
// default, plus `enableSystemLogQuery` in the kubelet config): the request path for a time window and
// what each way of failing means, for the "Open Kubelet Log from Node…" command.

/** Windows offered to the user, in minutes. */
export const LOG_WINDOWS_MINUTES: readonly number[] = [15, 60, 360, 1440];

/** The path under `/api/v1/nodes/{node}/proxy`: the kubelet unit's journal since `sinceEpochMs`. */
export function kubeletLogQueryPath(sinceEpochMs: number): string {
  const since = new Date(Math.floor(sinceEpochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return `/logs/?query=kubelet&sinceTime=${encodeURIComponent(since)}`;
}

export type LogQueryFailure = 'not-enabled' | 'forbidden' | 'unreachable' | 'other';

/** What an HTTP status from the node proxy means for a log query. */
export function classifyLogQueryStatus(status: number): LogQueryFailure {
  // With the gate off the kubelet usually answers 200 with its /var/log listing (isLogDirectoryListing);
  // 404 comes when enableDebuggingHandlers or enableSystemLogHandler is off, 400/405 for a query it does
  // not accept.
  if (status === 404 || status === 400 || status === 405) return 'not-enabled';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 502 || status === 503 || status === 504) return 'unreachable';
  return 'other';
}

/**
 * True when the body is the HTML listing of the node's /var/log rather than a journal. A kubelet whose
 * NodeLogQuery gate (or enableSystemLogQuery) is off ignores `?query=` and answers 200 with the listing
 * that Go's file server writes (`<pre>` and one `<a href>` per file, behind a doctype in newer Go), so the
 * status alone does not tell the two apart.
 */
export function isLogDirectoryListing(body: string): boolean {
  const head = body.slice(0, 512).trimStart().toLowerCase();
  const startsAsListing = head.startsWith('<pre>') || (head.startsWith('<!doctype html>') && head.includes('<pre>'));
  return startsAsListing && head.includes('<a href="');
}
