// Small builders for hand-made evidence: a Node with a given Ready condition, metric summaries with
// histograms built from sample lists (bucket layouts as the kubelet exposes them), and a NodeEvidence
// whose sources default to "skipped" so each test states exactly what it collected.

import type { KubeEvent, KubeNode } from '../../src/core/kube/objects';
import type { CriSnapshot, NodeProbeReport } from '../../src/core/node/nodeSnapshotTypes';
import type {
  GoroutineSummary,
  HealthzReport,
  HistogramSummary,
  KubeletConfigz,
  KubeletMetricsSummary,
  RuntimeOperationMetrics,
} from '../../src/core/parse/kubeletEndpointTypes';
import type { Fetched, NodeEvidence, NodeSideEvidence } from '../../src/core/diagnose/evidence';
import type { KubeletLogEvidence } from '../../src/core/diagnose/kubeletLog';

export const NOW = new Date('2026-11-22T10:00:00.000Z');
export const NOW_S = NOW.getTime() / 1000;

/** prometheus.DefBuckets: the relist duration/interval histograms. */
export const DEF_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** kubelet_runtime_operations_duration_seconds: exponential from 5 ms, ×2.5, 14 buckets. */
export const RUNTIME_BUCKETS = Array.from({ length: 14 }, (_, i) => Math.round(0.005 * 2.5 ** i * 1e9) / 1e9);

export function hist(samples: number[], bounds: number[] = DEF_BUCKETS): HistogramSummary {
  const buckets = [...bounds, Infinity].map((le) => ({ le, count: samples.filter((s) => s <= le).length }));
  return { count: samples.length, sum: samples.reduce((a, b) => a + b, 0), buckets };
}

export function repeat(value: number, n: number): number[] {
  return Array.from({ length: n }, () => value);
}

export function op(samples: number[], errors = 0, total = samples.length): RuntimeOperationMetrics {
  return { total, errors, duration: hist(samples, RUNTIME_BUCKETS) };
}

export function metricsSummary(over: Partial<KubeletMetricsSummary> = {}): KubeletMetricsSummary {
  return { runtimeOperations: {}, legacyNames: false, sampleCount: 500, ...over };
}

export interface NodeOptions {
  name?: string;
  ready?: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  since?: string;
  heartbeat?: string;
  kubeletVersion?: string;
  runtime?: string;
  kernel?: string;
  osImage?: string;
  capacityPods?: string;
  networkUnavailable?: boolean;
}

export const PLEG_MESSAGE = 'PLEG is not healthy: pleg was last seen active 3m46.752815514s ago; threshold is 3m0s';
export const READY_MESSAGE = 'kubelet is posting ready status';

export function nodeObject(o: NodeOptions = {}): KubeNode {
  const ready = o.ready ?? 'True';
  const conditions = [
    {
      type: 'Ready',
      status: ready,
      reason: o.reason ?? (ready === 'True' ? 'KubeletReady' : ready === 'False' ? 'KubeletNotReady' : 'NodeStatusUnknown'),
      message: o.message ?? (ready === 'True' ? READY_MESSAGE : ready === 'False' ? PLEG_MESSAGE : 'Kubelet stopped posting node status.'),
      lastHeartbeatTime: o.heartbeat ?? '2026-11-22T09:59:55Z',
      lastTransitionTime: o.since ?? '2026-11-22T09:50:00Z',
    },
  ];
  if (o.networkUnavailable === true) conditions.push({ type: 'NetworkUnavailable', status: 'True', reason: 'NoRouteCreated', message: 'no route', lastHeartbeatTime: '2026-11-22T09:59:55Z', lastTransitionTime: '2026-11-22T09:50:00Z' });
  return {
    kind: 'Node',
    metadata: { name: o.name ?? 'node-a' },
    status: {
      conditions,
      nodeInfo: {
        kubeletVersion: o.kubeletVersion ?? 'v1.32.10',
        containerRuntimeVersion: o.runtime ?? 'containerd://1.7.27',
        kernelVersion: o.kernel ?? '6.1.0-28-amd64',
        osImage: o.osImage ?? 'Debian GNU/Linux 12 (bookworm)',
      },
      capacity: { pods: o.capacityPods ?? '110' },
      allocatable: { pods: o.capacityPods ?? '110' },
    },
  };
}

export function ok<T>(value: T, ms = 12): Fetched<T> {
  return { status: 'ok', value, ms };
}

export const FORBIDDEN: Fetched<never> = { status: 'forbidden', message: 'nodes "node-a" is forbidden: cannot get resource "nodes/proxy"', ms: 8 };
export const TIMEOUT: Fetched<never> = { status: 'timeout', ms: 10_000, deadlineMs: 10_000 };
export const NODE_SIDE_OFF: Fetched<never> = { status: 'skipped', reason: 'node access is not configured for this cluster' };

export function configz(over: Partial<KubeletConfigz> = {}): KubeletConfigz {
  return { runtimeRequestTimeoutMs: 120_000, runtimeRequestTimeoutDefaulted: false, featureGates: {}, maxPods: 110, cgroupDriver: 'systemd', ...over };
}

export function healthz(syncloopOk = true): HealthzReport {
  return {
    healthy: syncloopOk,
    checks: [
      { name: 'ping', ok: true },
      { name: 'log', ok: true },
      syncloopOk ? { name: 'syncloop', ok: true } : { name: 'syncloop', ok: false, detail: 'reason withheld' },
    ],
  };
}

export function goroutines(blockedIn: string, waitMinutes?: number, state = 'select'): GoroutineSummary {
  const relist: NonNullable<GoroutineSummary['relist']> = { id: 321, state, blockedIn };
  if (waitMinutes !== undefined) relist.waitMinutes = waitMinutes;
  return { total: 200, relist, criBlocked: [] };
}

export function emptySnapshot(over: Partial<CriSnapshot> = {}): CriSnapshot {
  return {
    time: '2026-11-22T09:59:59Z',
    source: 'cri-grpc',
    sandboxes: [],
    containers: [],
    sandboxStatuses: [],
    containerStatuses: [],
    timings: [],
    errors: [],
    findings: [],
    durationMs: 40,
    ...over,
  };
}

export function probes(over: Partial<NodeProbeReport> = {}): NodeProbeReport {
  const absent = { status: 'absent', durationMs: 1 } as const;
  return {
    host: 'node-a',
    runtimeProcesses: absent,
    load: absent,
    dStateProcesses: absent,
    systemd: absent,
    uptimeSeconds: absent,
    kernel: absent,
    kubeletVersion: absent,
    containerdVersion: absent,
    ...over,
  };
}

export function nodeSide(snapshot: CriSnapshot = emptySnapshot(), p?: NodeProbeReport): Fetched<NodeSideEvidence> {
  const value: NodeSideEvidence = { host: 'node-a', transport: { kind: 'grpc-forward', endpoint: '/run/containerd/containerd.sock', reason: 'default' }, connectMs: 90, snapshot };
  if (p !== undefined) value.probes = p;
  return ok(value, 300);
}

export interface EvidenceOptions {
  node?: KubeNode;
  collectedAt?: string;
  events?: Fetched<KubeEvent[]>;
  podCount?: Fetched<number>;
  metrics?: Fetched<KubeletMetricsSummary>;
  metricsLater?: Fetched<KubeletMetricsSummary>;
  metricsIntervalMs?: number;
  configz?: Fetched<KubeletConfigz>;
  healthz?: Fetched<HealthzReport>;
  goroutines?: Fetched<GoroutineSummary>;
  nodeSide?: Fetched<NodeSideEvidence>;
  kubeletLog?: Fetched<KubeletLogEvidence>;
}

/** Evidence with only the Node read (plus events and pod count); everything else skipped unless given. */
export function evidence(o: EvidenceOptions = {}): NodeEvidence {
  const skip = (reason: string): Fetched<never> => ({ status: 'skipped', reason });
  const node = o.node ?? nodeObject();
  return {
    context: 'prod-eu',
    nodeName: node.metadata?.name ?? 'node-a',
    collectedAt: o.collectedAt ?? NOW.toISOString(),
    node,
    events: o.events ?? ok([]),
    podCount: o.podCount ?? ok(20),
    metrics: o.metrics ?? skip('plegDoctor.diagnostics.useNodeProxy is off'),
    metricsLater: o.metricsLater ?? skip('plegDoctor.diagnostics.useNodeProxy is off'),
    metricsIntervalMs: o.metricsIntervalMs ?? 5000,
    configz: o.configz ?? skip('plegDoctor.diagnostics.useNodeProxy is off'),
    healthz: o.healthz ?? skip('plegDoctor.diagnostics.useNodeProxy is off'),
    goroutines: o.goroutines ?? skip('plegDoctor.diagnostics.useNodeProxy is off'),
    nodeSide: o.nodeSide ?? NODE_SIDE_OFF,
    kubeletLog: o.kubeletLog ?? skip('no way to read it was given (node access or the node proxy)'),
  };
}

/** Two scrapes: `earlier` then `later`, 5 s apart. */
export function scrapes(earlier: KubeletMetricsSummary, later: KubeletMetricsSummary): Pick<EvidenceOptions, 'metrics' | 'metricsLater' | 'metricsIntervalMs'> {
  return { metrics: ok(earlier, 40), metricsLater: ok(later, 38), metricsIntervalMs: 5000 };
}

/** Healthy kubelet metrics: fast relists, fast list calls, last relist 1 s ago. */
export function healthyMetrics(over: Partial<KubeletMetricsSummary> = {}): KubeletMetricsSummary {
  return metricsSummary({
    plegLastSeenSeconds: NOW_S - 1,
    plegRelistDuration: hist(repeat(0.004, 500)),
    plegDiscardEvents: 0,
    runningPods: 20,
    runningContainers: { running: 25, exited: 3 },
    runtimeOperations: {
      list_podsandbox: op(repeat(0.002, 600)),
      list_containers: op(repeat(0.003, 600)),
      podsandbox_status: op(repeat(0.002, 40)),
      container_status: op(repeat(0.002, 50)),
      status: op(repeat(0.001, 120)),
      version: op(repeat(0.001, 10)),
    },
    ...over,
  });
}

export function check<T extends { checks: { checkId: string }[] }>(d: T, id: string): T['checks'][number] {
  const c = d.checks.find((x) => x.checkId === id);
  if (c === undefined) throw new Error(`no check ${id}`);
  return c;
}
