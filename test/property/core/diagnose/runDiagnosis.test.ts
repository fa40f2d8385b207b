// diagnose() is total and its output keeps its invariants whatever the evidence holds: well-formed
// evidence with random values, and outright junk where a collector bug could put it.

import { fc } from '@fast-check/vitest';
import { expect } from 'vitest';
import { CHECK_CATALOG } from '../../../../src/core/diagnose/catalog';
import type { Diagnosis } from '../../../../src/core/diagnose/diagnosis';
import type { Fetched, NodeEvidence } from '../../../../src/core/diagnose/evidence';
import { kubeletLogEvidence } from '../../../../src/core/diagnose/kubeletLog';
import { renderDiagnosisMarkdown } from '../../../../src/core/diagnose/report/renderMarkdown';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import type { HistogramSummary, KubeletMetricsSummary } from '../../../../src/core/parse/kubeletEndpointTypes';
import { NOW, NOW_S, configz, emptySnapshot, goroutines, healthz, nodeObject, probes } from '../../../support/diagnoseBuilders';
import { propWithLoops, type Tally } from '../../../support/loopTally';

const RANK = { problem: 0, warning: 1, info: 2 } as const;
const ORDERED_PAIRS_MIN = 30;

const num = fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, 179.9, 180, 180.1, 1e12, Number.NaN, Infinity, -1));

const histogram: fc.Arbitrary<HistogramSummary> = fc.array(fc.double({ min: 0, max: 600, noNaN: true }), { maxLength: 30 }).map((samples) => {
  const bounds = [0.005, 0.1, 1, 10, 120, Infinity];
  return { count: samples.length, sum: samples.reduce((a, b) => a + b, 0), buckets: bounds.map((le) => ({ le, count: samples.filter((s) => s <= le).length })) };
});

const opName = fc.constantFrom('list_podsandbox', 'list_containers', 'podsandbox_status', 'container_status', 'status', 'version', 'exec_sync');

const metrics: fc.Arbitrary<KubeletMetricsSummary> = fc.record(
  {
    plegLastSeenSeconds: fc.oneof(num, fc.double({ min: NOW_S - 600, max: NOW_S, noNaN: true })),
    plegRelistDuration: histogram,
    plegDiscardEvents: num,
    runningPods: num,
    runningContainers: fc.dictionary(fc.constantFrom('running', 'exited', 'created'), num),
    eventedPleg: fc.record({ connectionErrors: num, connectionSuccesses: num }),
    runtimeOperations: fc.dictionary(opName, fc.record({ total: num, errors: num, duration: histogram }, { requiredKeys: [] })),
    legacyNames: fc.boolean(),
    sampleCount: fc.nat(),
  },
  { requiredKeys: ['runtimeOperations', 'legacyNames', 'sampleCount'] },
);

function fetched<T>(value: fc.Arbitrary<T>): fc.Arbitrary<Fetched<T>> {
  return fc.oneof(
    value.map((v) => ({ status: 'ok' as const, value: v, ms: 5 })),
    fc.constant({ status: 'forbidden' as const, message: 'nodes/proxy forbidden', ms: 3 }),
    fc.constant({ status: 'timeout' as const, ms: 10_000, deadlineMs: 10_000 }),
    fc.constant({ status: 'unavailable' as const, message: 'no route', ms: 3, httpStatus: 503 }),
    fc.string().map((m) => ({ status: 'failed' as const, message: m, ms: 1 })),
    fc.string().map((r) => ({ status: 'skipped' as const, reason: r })),
  );
}

const readyMessage = fc.oneof(
  fc.constantFrom(
    'PLEG is not healthy: pleg was last seen active 3m0.1s ago; threshold is 3m0s',
    'PLEG is not healthy: pleg has yet to be successful',
    'container runtime is down',
    'EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with 1000 events',
    'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:cni',
    'kubelet is posting ready status',
  ),
  fc.string(),
);

const node = fc.oneof(
  fc.record({
    name: fc.string(),
    ready: fc.constantFrom('True', 'False', 'Unknown') as fc.Arbitrary<'True' | 'False' | 'Unknown'>,
    message: readyMessage,
    kubeletVersion: fc.constantFrom('v1.12.1', 'v1.13.0', 'v1.29.3', 'v1.32.10', 'garbage'),
    runtime: fc.constantFrom('containerd://1.4.4', 'docker://20.10.19', 'containerd://1.6.20', 'cri-o://1.30.0', ''),
    kernel: fc.constantFrom('5.4.0-132-generic', '3.10.0-1160.el7.x86_64', '6.1.0'),
    capacityPods: fc.constantFrom('110', '0', 'x', '100'),
  }).map((o) => nodeObject(o)),
  fc.anything() as fc.Arbitrary<never>,
);

/** Lines of the real kubelet logs the reader knows (test/fixtures/real-kubelet-1.32, k8s-current), in any order. */
const LOG_LINES = [
  'I1122 02:59:17.101010  123456 server.go:486] "Kubelet version" kubeletVersion="v1.32.10-kubeedge1"',
  'E1122 03:02:44.515342  123456 generic.go:241] "GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
  'E1122 03:02:45.101010  123456 kubelet.go:2433] "Skipping pod synchronization" err="container runtime is down"',
  'E1122 03:03:46.401010  123456 kubelet.go:2433] "Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"',
  'E1122 03:02:47.101010  123456 kubelet.go:3005] "Container runtime sanity check failed" err="rpc error: code = Unavailable desc = connection error"',
  'I1122 03:20:26.101010  999 kubelet_node_status.go:715] "Recording event message for node" node="n" event="NodeNotReady"',
  'I1122 03:23:17.101010  999 kubelet_node_status.go:715] "Recording event message for node" node="n" event="NodeReady"',
  'Nov 22 03:05:41.100000 node kubelet[777]: I1122 03:05:41.100000     777 server.go:486] "Kubelet version" kubeletVersion="v1.32.10"',
  'garbage line',
  '',
];

const wellFormed: fc.Arbitrary<NodeEvidence> = fc.record({
  context: fc.string(),
  nodeName: fc.string(),
  collectedAt: fc.constantFrom(NOW.toISOString(), 'not a date', ''),
  node,
  events: fetched(fc.array(fc.record({ reason: fc.constantFrom('NodeNotReady', 'NodeReady', 'Starting', 'FailedMount'), lastTimestamp: fc.constantFrom('2026-11-22T09:00:00Z', 'bad'), message: fc.string() }))),
  podCount: fetched(num),
  metrics: fetched(metrics),
  metricsLater: fetched(metrics),
  metricsIntervalMs: fc.constantFrom(0, 5000, -1, Number.NaN),
  configz: fetched(fc.record({ runtimeRequestTimeoutMs: num, featureGates: fc.dictionary(fc.constantFrom('EventedPLEG', 'X'), fc.boolean()), cgroupDriver: fc.constantFrom('systemd', 'cgroupfs') }).map((c) => configz(c))),
  healthz: fetched(fc.boolean().map(healthz)),
  goroutines: fetched(fc.tuple(fc.constantFrom('ListPodSandbox', 'PodSandboxStatus', 'chan send', 'idle', 'other'), fc.option(fc.nat(2000), { nil: undefined })).map(([b, w]) => goroutines(b, w))),
  nodeSide: fetched(
    fc.constant({
      host: 'h',
      transport: { kind: 'exec', endpoint: '/run/containerd/containerd.sock', reason: 'r' },
      connectMs: 1,
      snapshot: emptySnapshot({ findings: [{ kind: 'hungShim', sandboxId: 'abc', podName: 'p', podNamespace: 'n', message: 'm' }] }),
      probes: probes({ systemd: { status: 'ok', durationMs: 1, value: { version: 219, full: '219' } } }),
    }),
  ),
  kubeletLog: fetched(
    fc
      .tuple(fc.array(fc.constantFrom(...LOG_LINES), { maxLength: 40 }), fc.boolean(), fc.option(fc.constant('cut at the 16 MB cap'), { nil: undefined }))
      .map(([lines, contemporaneous, cut]) => kubeletLogEvidence(lines.join('\n'), { origin: 'ssh', window: 'w', contemporaneous, ...(cut !== undefined ? { cut } : {}) })),
  ),
});

const junk = fc.anything().map((v) => v as unknown as NodeEvidence);
const partlyJunk = fc.tuple(wellFormed, fc.constantFrom<keyof NodeEvidence>('metrics', 'metricsLater', 'configz', 'healthz', 'goroutines', 'nodeSide', 'events', 'node'), fc.anything()).map(
  ([e, key, value]) => ({ ...e, [key]: value }) as NodeEvidence,
);

function invariants(d: Diagnosis, tally: Tally<'checks' | 'orderedPairs'>): void {
  expect(d.checks.map((c) => c.checkId)).toEqual(CHECK_CATALOG.map((c) => c.id));
  for (const c of d.checks) {
    tally.hit('checks');
    expect(c.status === 'found').toBe(c.finding !== undefined);
    if (c.status !== 'found') expect(typeof c.note).toBe('string');
  }
  expect(d.findings.length).toBe(d.checks.filter((c) => c.status === 'found').length);
  for (let i = 1; i < d.findings.length; i++) {
    tally.hit('orderedPairs');
    expect(RANK[d.findings[i - 1]?.severity ?? 'info']).toBeLessThanOrEqual(RANK[d.findings[i]?.severity ?? 'problem']);
  }
  expect(typeof d.headline).toBe('string');
  const md = renderDiagnosisMarkdown(d);
  expect(md.startsWith('# PLEG Doctor report: ')).toBe(true);
  expect(md.split('\n')[0]).not.toContain('\n');
  if (d.findings.length === 0) expect(md).toContain('## Findings\n\nNo problem found.\n');
}

// Minimums over the 300 runs (see ../loopTally.ts): every run checks the whole catalog, and enough runs
// find two or more things for the severity order to be checked.
propWithLoops([wellFormed], { numRuns: 300 }, { checks: 300 * CHECK_CATALOG.length, orderedPairs: ORDERED_PAIRS_MIN })('well-formed evidence with random values', (e, tally) => {
  invariants(diagnose(e, { now: NOW }), tally);
});

propWithLoops([fc.oneof(junk, partlyJunk)], { numRuns: 300 }, { checks: 300 * CHECK_CATALOG.length, orderedPairs: ORDERED_PAIRS_MIN })('junk evidence never makes diagnose throw', (e, tally) => {
  invariants(diagnose(e, { now: NOW }), tally);
});
