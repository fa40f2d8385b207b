// Which way "Open Kubelet Log from Node…" fetches the journal: SSH first when node access is configured
// for the node's context, the API server's NodeLogQuery otherwise and as the fallback when SSH fails.
// No vscode import: the order and the fallback are unit-tested; the command supplies the two fetchers.

/** 'debug-pod' is not in the order below: it is offered only after both failed (it needs a confirmation). */
export type LogSource = 'ssh' | 'nodelogquery' | 'debug-pod';

export type Fetched = { kind: 'log'; text: string; source: LogSource; note?: string } | { kind: 'failed'; message: string } | { kind: 'cancelled' };

export interface SourcedLog {
  fetched: Fetched;
  /** Why SSH gave nothing, when it was tried and the NodeLogQuery was asked next. */
  sshFailure?: string;
}

export function logSources(sshConfigured: boolean): LogSource[] {
  return sshConfigured ? ['ssh', 'nodelogquery'] : ['nodelogquery'];
}

/** Tries the sources in order; a cancellation stops at once, a failure moves on to the next source. */
export async function fetchFromSources(sources: readonly LogSource[], fetch: (source: LogSource) => Promise<Fetched>): Promise<SourcedLog> {
  let sshFailure: string | undefined;
  let last: Fetched = { kind: 'failed', message: 'no source to fetch the kubelet log from' };
  for (const source of sources) {
    last = await fetch(source);
    if (last.kind !== 'failed') break;
    if (source === 'ssh') sshFailure = last.message;
  }
  return sshFailure !== undefined ? { fetched: last, sshFailure } : { fetched: last };
}

/** The read-only document's path: context, node and the source it came from, so the user sees which. */
export function nodeLogDocumentPath(context: string, node: string, source: LogSource, at: Date): string {
  return `/${context}/${node}-kubelet-${source}-${at.toISOString().replace(/[:.]/gu, '-')}.log`;
}

/** The fetched text as the document shows it: the note that says where the fetch stopped, last. */
export function nodeLogDocumentText(fetched: Extract<Fetched, { kind: 'log' }>): string {
  return fetched.note !== undefined ? `${fetched.text}${fetched.note}\n` : fetched.text;
}
