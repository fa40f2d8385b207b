// Where a diagnosis report document lives: pure, so the URI parts can be tested without an editor.

export const REPORT_SCHEME = 'pleg-doctor-report';
/**
 * Reports kept in memory; an older report's tab then says it is gone instead of showing stale text. Enough
 * for a fleet report's links to stay good over a Diagnose All of a few hundred nodes (a report is a few KB).
 */
export const MAX_REPORTS = 250;

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

/** `/fleet/diagnose-all-{n}.pleg-report.md`: a fleet report of Diagnose All NotReady Nodes, one per run. */
export function fleetReportUriParts(sequence: number, startedAt: string): { scheme: string; path: string; query: string } {
  return { scheme: REPORT_SCHEME, path: `/fleet/diagnose-all-${sequence}.pleg-report.md`, query: `started=${startedAt}` };
}
