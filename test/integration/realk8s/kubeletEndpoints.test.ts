// The real kubelet 1.26 through the real API server's node proxy, fetched by the product's gateway with
// deadlines and read by the product's parsers; node events (involvedObject field selector) and pod
// counts (spec.nodeName field selector) from the real server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHealthz } from '../../../src/core/parse/healthz';
import { isLogDirectoryListing, kubeletLogQueryPath } from '../../../src/core/parse/logReaderNodeQuery';
import { parseKubeletConfigz } from '../../../src/core/parse/kubeletConfigz';
import { summarizeGoroutineDump } from '../../../src/core/parse/goroutineDump';
import { summarizeKubeletMetrics } from '../../../src/core/parse/kubeletMetrics';
import { KUBELET_ENDPOINTS } from '../../../src/infra/diagnose/collectEvidence';
import { nodeLogQueryRefusal } from '../../../src/infra/diagnose/collectKubeletLog';
import { queryKubeletLog } from '../../../src/infra/kube/kubeletLogQuery';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';
import type { RealCluster } from './cluster';
import { kubectl, realCluster, script, until } from './cluster';

let cluster: RealCluster;
let gateway: KubeGateway;
let context: string;
const PODS = ['pleg-probe-a', 'pleg-probe-b'];
const ELSEWHERE = 'pleg-probe-elsewhere';
const UNSCHEDULED = 'pleg-probe-unscheduled';

/**
 * A pod bound to `nodeName`, or never bound: the kit runs a scheduler now, so an unbound pod names a
 * scheduler that does not exist and stays Pending.
 */
function podSpec(name: string, nodeName?: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { ...(nodeName ? { nodeName } : { schedulerName: 'pleg-doctor-no-such-scheduler' }), automountServiceAccountToken: false, containers: [{ name: 'main', image: 'localhost/busybox:static', imagePullPolicy: 'Never' }] },
  });
}

beforeAll(async () => {
  cluster = realCluster();
  for (const p of PODS) {
    const r = script('pod', [p]);
    if (r.status !== 0) throw new Error(`real-cluster.sh pod ${p}: ${r.stderr}`);
  }
  // Bound to a node without a kubelet, and not bound at all: never on ours.
  kubectl(cluster, ['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'pleg-extra-pods', labels: { 'pleg-doctor-test': 'extra' } } }));
  kubectl(cluster, ['create', '-f', '-'], podSpec(ELSEWHERE, 'pleg-extra-pods'));
  kubectl(cluster, ['create', '-f', '-'], podSpec(UNSCHEDULED));
  await until('the probe pods to run', () => {
    const phases = kubectl(cluster, ['get', 'pods', ...PODS, '-o', 'jsonpath={.items[*].status.phase}']).trim().split(/\s+/);
    return phases.length === PODS.length && phases.every((p) => p === 'Running') ? true : undefined;
  }, 60_000, 500);
  gateway = createKubeGateway({ kubeconfigPaths: [cluster.kubeconfig] });
  context = gateway.listContexts()[0]?.name ?? '';
});

afterAll(() => {
  gateway?.dispose();
  if (cluster) {
    kubectl(cluster, ['delete', 'pods', ...PODS, ELSEWHERE, UNSCHEDULED, '--ignore-not-found', '--grace-period=1', '--wait=false']);
    kubectl(cluster, ['delete', 'node', 'pleg-extra-pods', '--ignore-not-found', '--wait=false']);
  }
});

async function fetchOk(path: string): Promise<string> {
  const r = await gateway.nodeProxyGet(context, cluster.nodeName, path, { timeoutMs: 15_000 });
  if (r.kind !== 'ok') throw new Error(`${path}: ${JSON.stringify(r).slice(0, 500)}`);
  return r.body;
}

describe('the real kubelet through the node proxy', () => {
  it('/metrics: the PLEG relist histogram, the last-seen gauge, CRI operations and the running pods', async () => {
    const m = summarizeKubeletMetrics(await fetchOk(KUBELET_ENDPOINTS.metrics.path));
    expect(m.nodeName).toBe(cluster.nodeName);
    expect(m.legacyNames).toBe(false);
    expect(m.plegRelistDuration?.count ?? 0).toBeGreaterThan(0);
    expect(m.plegRelistInterval?.count ?? 0).toBeGreaterThan(0);
    // Relists run every second: the last one started moments ago.
    expect(Math.abs(Date.now() / 1000 - (m.plegLastSeenSeconds ?? 0))).toBeLessThan(30);
    expect(m.runtimeOperations['list_podsandbox']?.total ?? 0).toBeGreaterThan(0);
    expect(m.runtimeOperations['list_containers']?.duration?.count ?? 0).toBeGreaterThan(0);
    expect(m.runningPods).toBe(PODS.length);
    expect(m.runningContainers?.['running']).toBe(PODS.length);
  });

  it('/configz: the 30 s runtimeRequestTimeout and the handlers the diagnosis uses; no CRI endpoint on 1.26', async () => {
    const c = parseKubeletConfigz(await fetchOk(KUBELET_ENDPOINTS.configz.path));
    expect(c).toMatchObject({ runtimeRequestTimeoutMs: 30_000, runtimeRequestTimeoutDefaulted: false, cgroupDriver: 'cgroupfs', enableDebuggingHandlers: true, enableProfilingHandler: true });
    // 1.26 takes the CRI endpoint as a flag only (KubeletConfiguration has it from 1.27): configz lacks it.
    expect(c.containerRuntimeEndpoint).toBeUndefined();
    expect(c.maxPods).toBe(110);
  });

  it('/healthz?verbose: every check listed and passing', async () => {
    const h = parseHealthz(await fetchOk(KUBELET_ENDPOINTS.healthz.path), 200);
    expect(h.healthy).toBe(true);
    expect(h.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['ping', 'log', 'syncloop']));
    expect(h.checks.every((c) => c.ok)).toBe(true);
  });

  it('/debug/pprof/goroutine?debug=2: the relist goroutine, idle between relists', async () => {
    const g = summarizeGoroutineDump(await fetchOk(KUBELET_ENDPOINTS.goroutines.path));
    expect(g.total).toBeGreaterThan(50);
    expect(g.relist).toBeDefined();
    expect(g.relist?.blockedIn).toBe('idle');
  });

  it('/pods: the kubelet’s own pod list holds the pods bound to it, and only those', async () => {
    const list = JSON.parse(await fetchOk('/pods')) as { kind?: string; items?: { metadata?: { name?: string } }[] };
    expect(list.kind).toBe('PodList');
    const names = (list.items ?? []).map((p) => p.metadata?.name);
    expect(names).toEqual(expect.arrayContaining(PODS));
    expect(names).not.toContain(ELSEWHERE);
  });

  it('/logs/?query=kubelet without the NodeLogQuery gate: the /var/log listing, which the log command refuses to open as a journal', async () => {
    const body = await fetchOk(kubeletLogQueryPath(Date.now() - 15 * 60_000));
    expect(isLogDirectoryListing(body), body.slice(0, 300)).toBe(true);
  });

  it('the diagnosis reads the real configz as "serves no journal" and does not ask; asked anyway, the kubelet answers with its listing', async () => {
    const configz = parseKubeletConfigz(await fetchOk(KUBELET_ENDPOINTS.configz.path));
    expect(nodeLogQueryRefusal(configz)).toBe('the kubelet’s configuration has no enableSystemLogQuery: true (/configz), so it serves no journal');
    const r = await queryKubeletLog(gateway, context, cluster.nodeName, Date.now() - 15 * 60_000, { timeoutMs: 15_000, maxBytes: 16 * 1024 * 1024 });
    expect(r).toMatchObject({ kind: 'not-enabled', listing: true, httpStatus: 200 });
  });

  it('a deadline that passes is an outcome: a 5 s CPU profile asked with a 1 s deadline', async () => {
    const started = Date.now();
    const r = await gateway.nodeProxyGet(context, cluster.nodeName, '/debug/pprof/profile?seconds=5', { timeoutMs: 1_000 });
    expect(r.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('an abort rejects at once with an AbortError', async () => {
    const controller = new AbortController();
    // An execution trace, not a second CPU profile: the kubelet refuses a profile while one runs.
    const pending = gateway.nodeProxyGet(context, cluster.nodeName, '/debug/pprof/trace?seconds=5', { timeoutMs: 10_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user cancelled')), 300);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('field selectors on the real API server', () => {
  it('countPods counts the pods bound to the node (spec.nodeName), not the others', async () => {
    expect(await gateway.countPods(context, cluster.nodeName)).toBe(PODS.length);
    expect(await gateway.countPods(context, 'pleg-extra-pods')).toBe(1);
    expect(await gateway.countPods(context, 'no-such-node')).toBe(0);
  });

  it('listNodeEvents returns the kubelet’s events about the node, newest first', async () => {
    const events = await gateway.listNodeEvents(context, cluster.nodeName);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.involvedObject).toMatchObject({ kind: 'Node', name: cluster.nodeName });
    expect(events.map((e) => e.reason)).toEqual(expect.arrayContaining(['Starting', 'NodeReady']));
    // "Newest" as the gateway defines it: the latest of an event's stamps. A real event's creationTimestamp
    // can be a second after its lastTimestamp, so ordering by lastTimestamp alone failed once in CI.
    const stampMs = (t: unknown): number => (t === undefined || t === null ? Number.NEGATIVE_INFINITY : Date.parse(String(t instanceof Date ? t.toISOString() : t)));
    const times = events.map((e) => Math.max(stampMs(e.lastTimestamp), stampMs(e.eventTime), stampMs(e.firstTimestamp), stampMs(e.metadata?.creationTimestamp)));
    expect(times.every(Number.isFinite)).toBe(true);
    for (let i = 1; i < times.length; i++) expect(times[i - 1] ?? 0).toBeGreaterThanOrEqual(times[i] ?? 0);
    // Another name gets only its own events: the node lifecycle controller does write some about the
    // kubelet-less node (RegisteredNode, NodeNotReady), and a node that does not exist has none.
    for (const e of await gateway.listNodeEvents(context, 'pleg-extra-pods')) expect(e.involvedObject).toMatchObject({ kind: 'Node', name: 'pleg-extra-pods' });
    expect(await gateway.listNodeEvents(context, 'pleg-no-such-node')).toEqual([]);
  });
});
