// The demo's kubelets: for the flapper while NotReady, the crash-looping runtime while down and a healthy
// node, the generated endpoint bodies parse with the real parsers and say what the node's Ready
// condition says (the flapper's last_seen matches its "last seen active … ago").

import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../src/core/kube/objects';
import { summarizeGoroutineDump } from '../../../src/core/parse/goroutineDump';
import { parseHealthz } from '../../../src/core/parse/healthz';
import { parseKubeletConfigz } from '../../../src/core/parse/kubeletConfigz';
import { histogramQuantile, summarizeKubeletMetrics } from '../../../src/core/parse/kubeletMetrics';
import { parseGoDurationSeconds } from '../../../src/core/util/goDuration';
import type { NodeProxyAnswer } from '../../../src/demo/apiServer/server';
import { DEMO_CONTEXTS, demoNodeAt, nodeMomentAt } from '../../../src/demo/demoCluster';
import type { DemoNodeSpec } from '../../../src/demo/demoCluster';
import { formatPrometheusFloat as goFloat } from '../../../src/core/parse/prometheusFormat';
import { RUNTIME_OPERATION_BUCKETS } from '../../../src/demo/kubelet/promWriter';
import { demoKubeletProxy } from '../../../src/demo/kubeletEndpoints';

const ORIGIN = Date.parse('2026-11-22T08:00:00Z');
const prod = DEMO_CONTEXTS[0]?.nodes ?? [];
const spec = (name: string): DemoNodeSpec => {
  const found = prod.find((n) => n.name === name);
  if (!found) throw new Error(`no demo node ${name}`);
  return found;
};

/** The first demo second (after `from`) at which `node`'s Ready message satisfies `test`. */
function findMoment(node: DemoNodeSpec, test: (message: string, status: string) => boolean, from = 0): number {
  for (let s = from; s < from + 2000; s++) {
    const m = nodeMomentAt(node, ORIGIN, ORIGIN + s * 1000);
    if (test(m.ready.message, m.ready.status)) return ORIGIN + s * 1000;
  }
  throw new Error(`no such moment for ${node.name}`);
}

async function endpoints(node: KubeNode, nowMs: number) {
  const handler = demoKubeletProxy((n) => (n === node.metadata?.name ? node : undefined), () => new Date(nowMs));
  const get = async (path: string, query = ''): Promise<NodeProxyAnswer> => {
    const a = await handler(node.metadata?.name ?? '', path, new URLSearchParams(query));
    if (!a) throw new Error(`${path}: 503`);
    return a;
  };
  const metrics = await get('/metrics');
  const healthz = await get('/healthz', 'verbose');
  return {
    metricsText: metrics.body,
    metrics: summarizeKubeletMetrics(metrics.body),
    configz: parseKubeletConfigz((await get('/configz')).body),
    healthz: parseHealthz(healthz.body, healthz.status ?? 200),
    goroutines: summarizeGoroutineDump((await get('/debug/pprof/goroutine', 'debug=2')).body),
    get,
  };
}

const readyOf = (node: KubeNode) => node.status?.conditions?.find((c) => c.type === 'Ready');

describe('demo kubelet endpoints', () => {
  it('the flapper while NotReady: a relist hung in PodSandboxStatus since "last seen active … ago"', async () => {
    const flapper = spec('prod-eu-node-07');
    const at = findMoment(flapper, (m) => m.startsWith('PLEG is not healthy'));
    const nowMs = at + 4_321; // between status ticks
    const node = demoNodeAt(flapper, ORIGIN, nowMs);
    const ready = readyOf(node);
    const ago = parseGoDurationSeconds(/last seen active (\S+) ago/.exec(ready?.message ?? '')?.[1] ?? 'x');
    const heartbeat = Date.parse(String(ready?.lastHeartbeatTime)) / 1000;
    const e = await endpoints(node, nowMs);

    expect(e.metrics.nodeName).toBe('prod-eu-node-07');
    // last_seen is the start of the hung relist: the heartbeat minus the message's "ago", to the ms.
    expect(e.metrics.plegLastSeenSeconds).toBeCloseTo(heartbeat - ago, 2);
    expect(nowMs / 1000 - (e.metrics.plegLastSeenSeconds ?? 0)).toBeGreaterThan(180);
    // Earlier cycles' hung relists: ≈ 240 s samples in the +Inf bucket.
    const relist = e.metrics.plegRelistDuration;
    expect(relist).toBeDefined();
    if (!relist) return;
    const overTen = relist.count - (relist.buckets.find((b) => b.le === 10)?.count ?? 0);
    expect(overTen).toBeGreaterThanOrEqual(1);
    // Every fast relist is in a bucket ≤ 25 ms, so the slow ones' mean lies between these bounds.
    const fast = relist.count - overTen;
    expect(relist.buckets.find((b) => b.le === 0.025)?.count).toBe(fast);
    expect((relist.sum - 0.025 * fast) / overTen).toBeGreaterThan(230);
    expect(relist.sum / overTen).toBeLessThan(245);
    // The stuck pod's status calls time out at 120 s; the List calls stay fast and error-free.
    const ops = e.metrics.runtimeOperations;
    expect(ops['podsandbox_status']?.errors).toBeGreaterThan(0);
    const status = ops['podsandbox_status']?.duration;
    expect(status && histogramQuantile(status, 0.999)).toBeGreaterThan(100);
    const errors = ops['podsandbox_status']?.errors ?? 0;
    const slowSamples = (status?.count ?? 0) - (status?.buckets.find((b) => b.le === 47.6837158203125)?.count ?? 0);
    expect(slowSamples).toBe(errors);
    for (const t of ['list_podsandbox', 'list_containers']) {
      expect(ops[t]?.errors ?? 0).toBe(0);
      const d = ops[t]?.duration;
      expect(d && histogramQuantile(d, 0.99)).toBeLessThan(0.05);
    }
    expect(e.goroutines.relist).toMatchObject({ blockedIn: 'PodSandboxStatus', state: 'select', waitMinutes: 2 });
    expect(e.healthz.healthy).toBe(true);
    expect(e.configz.runtimeRequestTimeoutMs).toBe(120_000);
  });

  it('the crash-looping runtime while down: CRI errors rise between two scrapes, fast, and the relist is idle', async () => {
    const crash = spec('prod-eu-node-03');
    const at = findMoment(crash, (m) => m === 'container runtime is down');
    const node = demoNodeAt(crash, ORIGIN, at + 1_000);
    const first = await endpoints(node, at + 1_000);
    const later = await endpoints(node, at + 11_000);
    for (const t of ['list_podsandbox', 'list_containers', 'status', 'version']) {
      const a = first.metrics.runtimeOperations[t]?.errors ?? 0;
      const b = later.metrics.runtimeOperations[t]?.errors ?? 0;
      expect(a, t).toBeGreaterThan(0);
      expect(b, t).toBeGreaterThan(a);
      const d = later.metrics.runtimeOperations[t]?.duration;
      expect(d && histogramQuantile(d, 0.99), t).toBeLessThan(0.0125);
    }
    expect(first.goroutines.relist?.blockedIn).toBe('idle');
    expect(first.goroutines.criBlocked).toEqual([]);
    expect(first.healthz.healthy).toBe(true);
  });

  it('a Ready node: fresh last_seen, no errors, no blocked CRI call', async () => {
    const healthy = spec('prod-eu-node-01');
    const nowMs = ORIGIN + 77_000;
    const e = await endpoints(demoNodeAt(healthy, ORIGIN, nowMs), nowMs);
    expect(nowMs / 1000 - (e.metrics.plegLastSeenSeconds ?? 0)).toBeLessThan(2);
    for (const [t, o] of Object.entries(e.metrics.runtimeOperations)) expect(o.errors ?? 0, t).toBe(0);
    const relist = e.metrics.plegRelistDuration;
    expect(relist && histogramQuantile(relist, 0.99)).toBeLessThan(0.1);
    expect(e.goroutines.relist?.blockedIn).toBe('idle');
    expect(e.goroutines.criBlocked).toEqual([]);
    expect(e.healthz).toMatchObject({ healthy: true });
    expect(e.metrics.runningPods).toBeGreaterThan(0);
    expect(e.metrics.legacyNames).toBe(false);
    // The kubelet's runtime-operation buckets, in the exposition's own float form.
    expect(e.metricsText).toContain(`kubelet_runtime_operations_duration_seconds_bucket{operation_type="list_podsandbox",le="745.0580596923828"}`);
    expect(e.metricsText).toContain('# TYPE kubelet_pleg_relist_duration_seconds histogram');
    expect(e.metricsText).toMatch(/^kubelet_pleg_last_seen_seconds \d\.\d+e\+09$/m);
    // Unknown paths and the binary profile are refused like a kubelet would.
    expect((await e.get('/nope')).status).toBe(404);
    expect((await e.get('/debug/pprof/goroutine', 'debug=0')).status).toBe(400);
    expect((await e.get('/healthz')).body).toBe('ok');
  });

  it('the lease-lost node and unknown nodes get the 503 (undefined)', async () => {
    const lost = demoNodeAt(spec('prod-eu-node-11'), ORIGIN, ORIGIN);
    expect(readyOf(lost)?.status).toBe('Unknown');
    const handler = demoKubeletProxy((n) => (n === 'prod-eu-node-11' ? lost : undefined));
    expect(await handler('prod-eu-node-11', '/metrics', new URLSearchParams())).toBeUndefined();
    expect(await handler('nobody', '/metrics', new URLSearchParams())).toBeUndefined();
  });

  it("goFloat follows Go's shortest %g and the bucket bounds are 5 ms × 2.5, 14 of them", () => {
    expect(goFloat(1795316443)).toBe('1.795316443e+09');
    expect(goFloat(0.0125)).toBe('0.0125');
    expect(goFloat(123456)).toBe('123456');
    expect(goFloat(1234567)).toBe('1.234567e+06');
    expect(goFloat(0.00001)).toBe('1e-05');
    expect(goFloat(0)).toBe('0');
    expect(RUNTIME_OPERATION_BUCKETS).toHaveLength(14);
    expect(RUNTIME_OPERATION_BUCKETS.map(goFloat).slice(-3)).toEqual(['119.20928955078125', '298.0232238769531', '745.0580596923828']);
  });
});
