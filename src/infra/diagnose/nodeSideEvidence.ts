// The node side of a diagnosis is the same snapshot the "Take CRI Snapshot" command takes
// (collectNodeSnapshot); this keeps what the checks read and drops the transport's attempt log.

import type { NodeSideEvidence } from '../../core/diagnose/evidence';
import type { NodeSnapshotReport } from '../nodeSnapshot/collectNodeSnapshot';

/** `reachedBy`: the way, as wayLabel names it, for the report's evidence table. */
export function nodeSideEvidence(report: Omit<NodeSnapshotReport, 'via'>, reachedBy?: string): NodeSideEvidence {
  const evidence: NodeSideEvidence = {
    host: report.host,
    transport: { kind: report.transport.kind, endpoint: report.transport.endpoint, reason: report.transport.reason },
    connectMs: report.connectMs,
    snapshot: report.snapshot,
  };
  if (report.probes !== undefined) evidence.probes = report.probes;
  if (reachedBy !== undefined) evidence.reachedBy = reachedBy;
  return evidence;
}
