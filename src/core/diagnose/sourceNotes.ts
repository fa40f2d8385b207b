// How a source that did not answer is described: short for a check's note ("metrics: 403 — needs get on
// nodes/proxy"), and as a SourceReport row for the report's evidence table.

import type { SourceReport } from './diagnosis';
import { EVIDENCE_SOURCES, type EvidenceSource, type Fetched, type NodeEvidence, type NodeSideEvidence } from './evidence';
import { seconds } from './textFormat';

export const KUBELET_ENDPOINT_SOURCES: readonly EvidenceSource[] = ['metrics', 'metricsLater', 'configz', 'healthz', 'goroutines'];

export const ENDPOINT_PATHS: Readonly<Record<EvidenceSource, string>> = {
  events: 'events',
  podCount: 'pods on the node',
  metrics: '/metrics',
  metricsLater: '/metrics (second scrape)',
  configz: '/configz',
  healthz: '/healthz?verbose',
  goroutines: '/debug/pprof/goroutine?debug=2',
  nodeSide: 'node side (SSH + CRI)',
  kubeletLog: 'kubelet log',
};

function isFetched(v: unknown): v is Fetched<unknown> {
  return typeof v === 'object' && v !== null && typeof (v as { status?: unknown }).status === 'string';
}

export function fetchedOf(evidence: NodeEvidence, source: EvidenceSource): Fetched<unknown> | undefined {
  const value = (evidence as unknown as Record<string, unknown>)[source];
  return isFetched(value) ? value : undefined;
}

/** One short phrase for a source that is not ok, e.g. "metrics: 403 — needs get on nodes/proxy". */
export function missingNote(evidence: NodeEvidence, source: EvidenceSource): string {
  const f = fetchedOf(evidence, source);
  if (f === undefined) return `${source}: not collected`;
  const needsProxy = KUBELET_ENDPOINT_SOURCES.includes(source);
  switch (f.status) {
    case 'ok':
      return `${source}: ok`;
    case 'forbidden':
      return needsProxy ? `${source}: 403 — needs get on ${f.grant ?? 'nodes/proxy'}` : `${source}: 403 — ${String(f.message)}`;
    case 'timeout':
      return `${source}: no answer within ${seconds(f.deadlineMs / 1000)}`;
    case 'unavailable':
      return `${source}: ${f.httpStatus !== undefined ? `${f.httpStatus} — ` : ''}${String(f.message)}`;
    case 'failed':
      return `${source}: failed — ${String(f.message)}`;
    case 'skipped':
      return `${source}: skipped — ${String(f.reason)}`;
    default:
      return `${source}: unexpected status ${JSON.stringify((f as { status: unknown }).status)}`;
  }
}

/**
 * Why a check that needs the node probes has none: the node side's own note when it is not ok; when it is ok
 * but came by a way that runs no probes (the agent's snapshot, a debug pod without hostPID: only SSH runs
 * them), that way, so the report does not read "nodeSide: ok" as the reason.
 */
export function probesMissingNote(evidence: NodeEvidence): string {
  const f = fetchedOf(evidence, 'nodeSide');
  if (f?.status !== 'ok') return missingNote(evidence, 'nodeSide');
  const side = f.value as Partial<NodeSideEvidence>;
  if (side.probes !== undefined) return 'nodeSide: ok, without this probe';
  return `nodeSide came ${side.reachedBy ?? `by ${side.transport?.kind ?? 'a way'}`}, which runs no node probes (only SSH does)`;
}

/** Notes for several sources at once, for a check that needed any of them. */
export function missingNotes(evidence: NodeEvidence, sources: readonly EvidenceSource[]): string {
  return sources.map((s) => missingNote(evidence, s)).join('; ');
}

function finiteMs(ms: unknown): number | undefined {
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.round(ms) : undefined;
}

export function sourceReports(evidence: NodeEvidence): SourceReport[] {
  return EVIDENCE_SOURCES.map((source): SourceReport => {
    const f = fetchedOf(evidence, source);
    if (f === undefined) return { source, status: 'failed', detail: 'not collected (missing from the evidence)' };
    const known = ['ok', 'forbidden', 'timeout', 'unavailable', 'failed', 'skipped'] as const;
    if (!(known as readonly string[]).includes(f.status)) {
      return { source, status: 'failed', detail: `unexpected status ${JSON.stringify(f.status)}` };
    }
    const report: SourceReport = { source, status: f.status };
    const ms = 'ms' in f ? finiteMs(f.ms) : undefined;
    if (ms !== undefined) report.ms = ms;
    if (f.status !== 'ok') report.detail = missingNote(evidence, source).replace(/^[^:]+: /u, '');
    // The node side names the way it came by (an agent's snapshot says how old it is): never read as taken now.
    else if (source === 'nodeSide' && evidence.nodeSide.status === 'ok' && evidence.nodeSide.value.reachedBy !== undefined) report.detail = evidence.nodeSide.value.reachedBy;
    return report;
  });
}
