// Benchmark of the Kubernetes layer at fleet scale: a stand-in cluster of 5,000 realistic nodes, the real
// gateway listing and classifying them, kubectl listing the same server for comparison, the latency from a
// watch event to the store, and the heap the store costs.
// Run: npm run bench kube (it passes --expose-gc for exact heap figures).

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { classifyNode } from '../src/core/classify/classifyNode';
import { startFakeApiServer } from '../src/demo/apiServer/server';
import { makeFleet, makeNode, withPlegNotReady, withReady } from '../src/demo/nodeFactory';
import { createKubeGateway } from '../src/infra/kube/createGateway';
import { slimNode } from '../src/infra/kube/slimNode';
import { NodeTreeModel, waitUntilSettled } from '../src/core/tree/nodeTreeModel';
import type { NodeWatch } from '../src/infra/kube/gateway';
import { timeoutSignal } from '../src/core/util/deadlineSignal';

const NODES = 5_000;
const LATENCY_SAMPLES = 200;

function gc(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function heapMb(): number {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}

function ms(n: number): string {
  return `${n.toFixed(0)} ms`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function kubectlGetNodes(kubeconfig: string, home: string): Promise<{ ms: number; items: number } | { error: string }> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile('kubectl', ['get', 'nodes', '-o', 'json'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: home }, maxBuffer: 1 << 30, timeout: 120_000 }, (err, stdout) => {
      if (err) {
        resolve({ error: err.message.split('\n')[0] ?? 'kubectl failed' });
        return;
      }
      const elapsed = performance.now() - start;
      resolve({ ms: elapsed, items: (JSON.parse(stdout) as { items: unknown[] }).items.length });
    });
  });
}

function waitSynced(watch: NodeWatch): Promise<void> {
  return new Promise((resolve, reject) => {
    const sub = watch.onDidChangeState((s) => {
      if (s.kind === 'synced') {
        sub.dispose();
        resolve();
      } else if (s.kind === 'error' || s.kind === 'reconnecting') {
        sub.dispose();
        reject(new Error(`watch failed: ${s.error.message}`));
      }
    });
  });
}

export async function benchKube(): Promise<string[]> {
  const lines: string[] = [];
  const fleet = makeFleet(NODES, { plegEvery: 50 });
  const wireBytes = fleet.reduce((sum, n) => sum + JSON.stringify(n).length, 0);
  const server = await startFakeApiServer({ nodes: fleet, bookmarkIntervalMs: 5_000 });
  fleet.length = 0;
  const dir = mkdtempSync(join(tmpdir(), 'pleg-bench-kube-'));
  try {
    const kubeconfig = join(dir, 'config');
    writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\ncurrent-context: bench\nclusters:\n- name: bench\n  cluster:\n    server: ${server.url}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: bench\n  context:\n    cluster: bench\n    user: u\n`);
    lines.push(`stand-in: ${NODES} nodes, ${(wireBytes / 1024 / 1024).toFixed(1)} MB of node JSON (${(wireBytes / NODES / 1024).toFixed(1)} KB per node)`);

    const heapBefore = heapMb();
    // What activate() does: gateway, contexts, a watch per context, the tree model classifying every node.
    const t0 = performance.now();
    const gateway = createKubeGateway({ kubeconfigPaths: [kubeconfig] });
    const model = new NodeTreeModel({ classify: classifyNode });
    model.setContexts(gateway.listContexts());
    const watch = gateway.watchNodes('bench');
    model.attach(watch);
    await waitSynced(watch);
    const tListed = performance.now();
    await waitUntilSettled(model, timeoutSignal(120_000));
    const tClassified = performance.now();
    const gatewayMs = tClassified - t0;
    const totals = model.totals();
    lines.push(`tree model: listed ${watch.nodes.size} nodes in ${ms(tListed - t0)} (${server.requestLog.filter((r) => r.includes('limit=')).length} pages); fully classified tree at ${ms(gatewayMs)} (${totals.unhealthy} unhealthy, ${totals.pleg} PLEG)`);

    const storeHeap = heapMb() - heapBefore;
    const exact = typeof (globalThis as { gc?: unknown }).gc === 'function';
    lines.push(`heap: store + client-node ≈ ${storeHeap.toFixed(1)} MB for ${NODES} nodes${exact ? '' : ' (approximate: run with --expose-gc for an exact figure)'}; process heapUsed ${heapMb().toFixed(0)} MB including the stand-in's own copy`);

    // What keeping whole objects would have cost, measured on 1,000 of the same nodes.
    const sample = [...watch.nodes.keys()].slice(0, 1000).map((name) => JSON.stringify(server.getNode(name)));
    const h0 = heapMb();
    const slimSample = sample.map((text) => slimNode(JSON.parse(text)));
    const h1 = heapMb();
    const fullSample = sample.map((text) => JSON.parse(text) as unknown);
    const h2 = heapMb();
    lines.push(`per 1,000 nodes: slim store ${(h1 - h0).toFixed(1)} MB vs whole objects ${(h2 - h1).toFixed(1)} MB (${((h2 - h1) / Math.max(0.1, h1 - h0)).toFixed(1)}×)${exact ? '' : ' (approximate)'}`);
    sample.length = slimSample.length = fullSample.length = 0;

    const kubectl = await kubectlGetNodes(kubeconfig, dir);
    if ('error' in kubectl) lines.push(`kubectl: not measured (${kubectl.error})`);
    else lines.push(`kubectl get nodes -o json: ${kubectl.items} nodes in ${ms(kubectl.ms)}; ratio tree/kubectl = ${(gatewayMs / kubectl.ms).toFixed(2)} (goal ≤ 0.5)`);

    // Watch latency: flip one node at a time and time the arrival in the store.
    const latencies: number[] = [];
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const name = `node-${String((i % NODES) + 1).padStart(5, '0')}`;
      const base = makeNode({ name });
      const next = i % 2 === 0 ? withPlegNotReady(base) : withReady(base);
      const arrived = new Promise<number>((resolve) => {
        const sub = watch.onDidChangeNodes((c) => {
          if (c.type !== 'resynced' && c.node.metadata?.name === name) {
            sub.dispose();
            resolve(performance.now());
          }
        });
      });
      const sent = performance.now();
      server.upsertNode(next);
      latencies.push((await arrived) - sent);
    }
    latencies.sort((a, b) => a - b);
    lines.push(`watch event → tree model (classified): p50 ${percentile(latencies, 50).toFixed(2)} ms, p95 ${percentile(latencies, 95).toFixed(2)} ms, max ${percentile(latencies, 100).toFixed(2)} ms over ${LATENCY_SAMPLES} updates (goal ≤ 100 ms)`);
    model.dispose();
    gateway.dispose();
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
