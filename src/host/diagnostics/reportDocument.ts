// Where a diagnosis report document lives: pure, so the URI parts can be tested without an editor.

export const REPORT_SCHEME = 'pleg-doctor-report';
/** Reports kept in memory; an older report's tab then says it is gone instead of showing stale text. */
export const MAX_REPORTS = 20;

/**
 * `/{context}/{node}.pleg-report.md`, so the tab reads `{node}.pleg-report.md` and the Markdown preview
 * treats it as Markdown; the query makes each report its own document. A context name containing `/`
 * (EKS ARNs) only adds path segments: a report is found by its whole URI, never by parsing the path back.
 */
export function reportUriParts(context: string, node: string, sequence: number, collectedAt: string): { scheme: string; path: string; query: string } {
  return { scheme: REPORT_SCHEME, path: `/${context}/${node}.pleg-report.md`, query: `n=${sequence}&collected=${collectedAt}` };
}

export function reportFileLabel(node: string): string {
  return `${node}.pleg-report.md`;
}
