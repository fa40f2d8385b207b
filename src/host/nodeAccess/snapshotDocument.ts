// What a CRI snapshot document holds and where it lives: pure functions (no vscode), so the content, the
// URI parts and the summary message can be tested without an editor.

import type { NodeSideEvidence } from '../../core/diagnose/evidence';
import type { Localize } from '../../core/tree/localize';
import type { NodeTarget } from '../../infra/ssh/nodeTarget';

export const SNAPSHOT_SCHEME = 'pleg-doctor-snapshot';

export interface SnapshotDocumentInput {
  node: string;
  context: string;
  /** The way it came by, as wayLabel names it: "via SSH …", "via agent pod NS/NAME, taken 1m10s ago", "via debug pod …". */
  access: string;
  /** The SSH target, when the way was SSH. */
  target?: NodeTarget;
  /** When the snapshot was taken: now over SSH or a debug pod; the agent's last diagnosis for the agent. */
  takenAt: Date;
  /** How old the snapshot was when shown (the agent's); absent for one taken just now. */
  ageSeconds?: number;
  /** The report as collected (collectNodeSnapshot, the debug pod's, or the agent's node side). */
  report: NodeSideEvidence;
}

/** The document's JSON: who, how and when first, then the report exactly as it was collected. */
export function snapshotDocumentContent(input: SnapshotDocumentInput): string {
  const { target } = input;
  const document = {
    node: input.node,
    context: input.context,
    access: input.access,
    ...(target !== undefined
      ? {
          target: {
            host: target.host,
            addressSource: target.addressSource,
            ...(target.user !== undefined ? { user: target.user } : {}),
            ...(target.port !== undefined ? { port: target.port } : {}),
            ...(target.jumpHost !== undefined ? { jumpHost: target.jumpHost } : {}),
            sudo: target.sudo,
          },
        }
      : {}),
    takenAt: input.takenAt.toISOString(),
    ...(input.ageSeconds !== undefined ? { ageSeconds: input.ageSeconds } : {}),
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

/** The notification after a snapshot: the way it came by, then a warning naming the first finding (or failed call) if there is one. */
export function snapshotSummary(node: string, access: string, report: NodeSideEvidence, t: Localize): SnapshotSummary {
  const { snapshot } = report;
  const ms = Math.round(snapshot.durationMs);
  const base = t('CRI snapshot of {0} ({1}): {2} pod sandboxes, {3} containers over {4} ({5} ms)', node, access, snapshot.sandboxes.length, snapshot.containers.length, report.transport.kind, ms);
  const finding = snapshot.findings[0];
  const error = snapshot.errors[0];
  if (finding === undefined && error === undefined) return { severity: 'info', message: base };
  const first = finding !== undefined ? finding.message : error !== undefined ? `${error.method}${error.id !== undefined ? ` ${error.id.slice(0, 13)}` : ''}: ${error.codeName} ${error.message}` : '';
  return {
    severity: 'warning',
    message: t('{0}, with {1} findings and {2} failed calls. First: {3}', base, snapshot.findings.length, snapshot.errors.length, first),
  };
}
