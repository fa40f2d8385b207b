// What a CRI snapshot document holds and where it lives: pure functions (no vscode), so the content, the
// URI parts and the summary message can be tested without an editor.

import type { Localize } from '../../core/tree/localize';
import type { NodeSnapshotReport } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import type { NodeTarget } from '../../infra/ssh/nodeTarget';

export const SNAPSHOT_SCHEME = 'pleg-doctor-snapshot';

export interface SnapshotDocumentInput {
  node: string;
  context: string;
  target: NodeTarget;
  takenAt: Date;
  report: NodeSnapshotReport;
}

/** The document's JSON: who and where first, then the report exactly as collectNodeSnapshot returned it. */
export function snapshotDocumentContent(input: SnapshotDocumentInput): string {
  const { target } = input;
  const document = {
    node: input.node,
    context: input.context,
    target: {
      host: target.host,
      addressSource: target.addressSource,
      ...(target.user !== undefined ? { user: target.user } : {}),
      ...(target.port !== undefined ? { port: target.port } : {}),
      ...(target.jumpHost !== undefined ? { jumpHost: target.jumpHost } : {}),
      sudo: target.sudo,
    },
    takenAt: input.takenAt.toISOString(),
    ...input.report,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * URI parts: `/{context}/{node}.cri-snapshot.json`, so the tab reads `{node}.cri-snapshot.json`; the query
 * makes each snapshot its own document. A context name may contain `/` (EKS ARNs): it then simply adds
 * path segments; the document is found by its whole URI, never by parsing the path back.
 */
export function snapshotUriParts(context: string, node: string, sequence: number, takenAt: Date): { scheme: string; path: string; query: string } {
  return {
    scheme: SNAPSHOT_SCHEME,
    path: `/${context}/${node}.cri-snapshot.json`,
    query: `n=${sequence}&taken=${takenAt.toISOString()}`,
  };
}

export type SnapshotSummary = { severity: 'info' | 'warning'; message: string };

/** The notification after a snapshot: a warning naming the first finding (or failed call) if there is one. */
export function snapshotSummary(node: string, report: NodeSnapshotReport, t: Localize): SnapshotSummary {
  const { snapshot } = report;
  const ms = Math.round(snapshot.durationMs);
  const base = t('CRI snapshot of {0}: {1} pod sandboxes, {2} containers via {3} ({4} ms)', node, snapshot.sandboxes.length, snapshot.containers.length, report.transport.kind, ms);
  const finding = snapshot.findings[0];
  const error = snapshot.errors[0];
  if (finding === undefined && error === undefined) return { severity: 'info', message: base };
  const first = finding !== undefined ? finding.message : error !== undefined ? `${error.method}${error.id !== undefined ? ` ${error.id.slice(0, 13)}` : ''}: ${error.codeName} ${error.message}` : '';
  return {
    severity: 'warning',
    message: t('{0}, with {1} findings and {2} failed calls. First: {3}', base, snapshot.findings.length, snapshot.errors.length, first),
  };
}
