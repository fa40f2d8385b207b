// "Diagnose All NotReady Nodes" on a 200-node stand-in cluster with 20 PLEG-NotReady nodes whose kubelets
// answer with the real kubelet 1.32 recording: the real gateway, the real collector, bounded concurrency,
// results as they arrive, and a cancel that stops at once with no request sent after it.

import { afterEach, describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../src/core/kube/objects';
import { silentLogger } from '../../../src/core/util/logger';
import { startFakeApiServer } from '../../../src/demo/apiServer/server';
import { makeFleet } from '../../../src/demo/nodeFactory';
import { collectNodeEvidence } from '../../../src/infra/diagnose/collectEvidence';
import { diagnoseMany, type ManyOutcome } from '../../../src/infra/diagnose/diagnoseMany';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import type { KubeGateway } from '../../../src/infra/kube/gateway';
import { KubeconfigDir } from '../kube/kubeconfigFiles';
import { recordedKubelets } from './recordedKubelets';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface FleetNode {
  context: string;
  name: string;
  node: KubeNode;
}

async function fleet(options: { hangMetrics?: boolean } = {}) {
  const nodes = makeFleet(200, { prefix: 'fleet', plegEvery: 10 });
  const notReady = new Set(nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True')).map((n) => n.metadata?.name ?? ''));
  const server = await startFakeApiServer({ nodes });
  cleanups.push(() => server.close());
  server.setNodeProxy(recordedKubelets((n) => notReady.has(n), options.hangMetrics === true ? { hangMetricsOf: (n) => notReady.has(n) } : {}));
  const dir = new KubeconfigDir();
  cleanups.push(() => dir.remove());
  const gateway: KubeGateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'big', server: server.url }]) } });
  cleanups.push(() => gateway.dispose());
  const targets: FleetNode[] = nodes.filter((n) => notReady.has(n.metadata?.name ?? '')).map((node) => ({ context: 'big', name: node.metadata?.name ?? '', node }));
  const collect = (target: FleetNode, signal: AbortSignal) =>
    collectNodeEvidence({ gateway, context: 'big', node: target.node, useNodeProxy: true, proxyTimeoutMs: 10_000, metricsIntervalMs: 0, logger: silentLogger, signal });
  return { server, targets, collect };
}

describe('Diagnose All NotReady Nodes (200 nodes, 20 NotReady, real kubelet recordings)', () => {
  it('completes: every NotReady node diagnosed, results arrive one by one, never more than the bound in flight', async () => {
    const { targets, collect, server } = await fleet();
    expect(targets).toHaveLength(20);
    let inFlight = 0;
    let maxInFlight = 0;
    const arrivals: number[] = [];
    const result = await diagnoseMany({
      nodes: targets,
      concurrency: 4,
      collect: async (target, signal) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          return await collect(target, signal);
        } finally {
          inFlight--;
        }
      },
      onResult: (_outcome, done, total) => {
        expect(total).toBe(20);
        arrivals.push(done);
      },
    });
    expect(result.cancelled).toBe(false);
    expect(result.notDiagnosed).toEqual([]);
    expect(arrivals).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(maxInFlight).toBe(4);
    const done = result.outcomes.filter((o): o is Extract<ManyOutcome<FleetNode>, { kind: 'done' }> => o.kind === 'done');
    expect(done).toHaveLength(20);
    for (const o of done) {
      // The frozen-runtime recording names the hung runtime on every one of them.
      expect(o.diagnosis.checks.find((c) => c.checkId === 'runtime-hung')?.status, o.node.name).toBe('found');
    }
    // Only the NotReady nodes' kubelets were asked.
    const proxied = new Set(server.requestLog.filter((l) => l.includes('/proxy/')).map((l) => /nodes\/([^/]+)\/proxy/u.exec(l)?.[1]));
    expect([...proxied].sort()).toEqual(targets.map((t) => t.name).sort());
  }, 60_000);

  it('cancel while every kubelet hangs: resolves at once, nothing new starts, no request after the cancel', async () => {
    const { targets, collect, server } = await fleet({ hangMetrics: true });
    const controller = new AbortController();
    const started: string[] = [];
    const running = diagnoseMany({
      nodes: targets,
      concurrency: 5,
      collect: (target, signal) => {
        started.push(target.name);
        return collect(target, signal);
      },
      signal: controller.signal,
    });
    // Let the first five get stuck in their /metrics scrape, and every request they sent in parallel with
    // it reach the server (under load some arrive late), so that any request logged after the cancel was
    // sent after it.
    const until = Date.now() + 5_000;
    while (server.requestLog.filter((l) => l.includes('/proxy/metrics')).length < 5 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    for (let seen = -1; seen !== server.requestLog.length && Date.now() < until; ) {
      seen = server.requestLog.length;
      await new Promise((r) => setTimeout(r, 300));
    }
    const cancelledAt = performance.now();
    controller.abort(new Error('user pressed Cancel'));
    const result = await running;
    expect(performance.now() - cancelledAt).toBeLessThan(500);
    expect(result.cancelled).toBe(true);
    expect(result.outcomes).toEqual([]);
    expect(started).toHaveLength(5);
    expect(result.notDiagnosed).toHaveLength(20);
    const requestsAtCancel = server.requestLog.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(server.requestLog.length).toBe(requestsAtCancel);
    expect(started).toHaveLength(5);
  }, 60_000);
});
