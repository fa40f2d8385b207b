// Everything a diagnosis is made from, collected by src/infra/diagnose/collectEvidence.ts (API side and,
// when allowed, node side) and judged by the pure checks in this folder. Each source records how it was
// obtained, because a source that hangs or is refused is itself evidence (a /metrics that never answers
// while /healthz does is how a hung shim shows up; a 403 on nodes/proxy is an RBAC gap to report).

import type { KubeEvent, KubeNode } from '../kube/objects';
import type { CriSnapshot, NodeProbeReport } from '../node/nodeSnapshotTypes';
import type { GoroutineSummary, HealthzReport, KubeletConfigz, KubeletMetricsSummary } from '../parse/kubeletEndpointTypes';
import type { EvidenceClock } from './clock/clockTypes';
import type { KubeletLogEvidence } from './kubeletLog';

export type Fetched<T> =
  | { status: 'ok'; value: T; ms: number }
  /**
   * 403: RBAC refused. `message` names the verb and resource; `grant` is the RBAC resource that would allow
   * it when the reader knows it (the agent reading its own kubelet: `nodes/metrics`); a kubelet endpoint
   * without it was read through the node proxy (`nodes/proxy`).
   */
  | { status: 'forbidden'; message: string; ms: number; grant?: string }
  /** No answer within the deadline. For the kubelet endpoints this is a finding, not a tool error. */
  | { status: 'timeout'; ms: number; deadlineMs: number }
  /** The API server could not reach the kubelet (502/503), or the endpoint is absent (404). */
  | { status: 'unavailable'; message: string; ms: number; httpStatus?: number }
  /** Anything else, e.g. a body that did not parse; `message` names the cause. */
  | { status: 'failed'; message: string; ms: number }
  /** Not attempted; `reason` says why (a setting, no node access configured, …). */
  | { status: 'skipped'; reason: string };

export interface NodeSideEvidence {
  host: string;
  transport: { kind: string; endpoint: string; reason: string };
  /** The way it came by, as wayLabel names it ("via agent pod NS/NAME, taken 1m10s ago"); absent in older evidence. */
  reachedBy?: string;
  connectMs: number;
  snapshot: CriSnapshot;
  probes?: NodeProbeReport;
}

export interface NodeEvidence {
  context: string;
  nodeName: string;
  /** ISO time collection started. */
  collectedAt: string;
  /** The Node object as read at collection time. */
  node: KubeNode;
  /** Events about the node (newest first). */
  events: Fetched<KubeEvent[]>;
  /** Pods scheduled on the node (all namespaces). */
  podCount: Fetched<number>;
  /** First scrape of /metrics. */
  metrics: Fetched<KubeletMetricsSummary>;
  /** Second scrape, `metricsIntervalMs` after the first, so counters can be read as rates; skipped when the interval is 0. */
  metricsLater: Fetched<KubeletMetricsSummary>;
  metricsIntervalMs: number;
  configz: Fetched<KubeletConfigz>;
  healthz: Fetched<HealthzReport>;
  goroutines: Fetched<GoroutineSummary>;
  /** SSH + CRI + probes (src/infra/nodeSnapshot); skipped unless node access is allowed for the node. */
  nodeSide: Fetched<NodeSideEvidence>;
  /**
   * Evidence read from a folder without the collector's clock (no bundle.json): when each file was
   * captured, as the files themselves tell (clock/captureClock.ts). Absent: ages use the collector's clock.
   */
  captureClock?: EvidenceClock;
  /** The kubelet's journal (over SSH, or the kubelet's NodeLogQuery) or a bundle's kubelet.log, as the log reader sees it. */
  kubeletLog: Fetched<KubeletLogEvidence>;
}

/** The evidence sources by name, in the order the report lists them. */
export const EVIDENCE_SOURCES = ['events', 'podCount', 'metrics', 'metricsLater', 'configz', 'healthz', 'goroutines', 'nodeSide', 'kubeletLog'] as const;
export type EvidenceSource = (typeof EVIDENCE_SOURCES)[number];
