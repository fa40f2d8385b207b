// The node snapshot flow's report, as the diagnosis reads it (NodeSideEvidence): the same facts, without
// the transport attempts and jump list that only the snapshot document and the log need.

import type { NodeSideEvidence } from '../../core/diagnose/evidence';
import type { NodeSnapshotReport } from '../../infra/nodeSnapshot/collectNodeSnapshot';

export function toNodeSideEvidence(report: NodeSnapshotReport): NodeSideEvidence {
  const { kind, endpoint, reason } = report.transport;
  return {
    host: report.host,
    transport: { kind, endpoint, reason },
    connectMs: report.connectMs,
    snapshot: report.snapshot,
    ...(report.probes !== undefined ? { probes: report.probes } : {}),
  };
}
