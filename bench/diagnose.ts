// Benchmark of Diagnose Node's API tier on the loopback stand-in, whose kubelets answer with the real
// kubelet 1.32 recording (test/fixtures/real-kubelet-1.32): one node end to end (Node → events, pods,
// /metrics, /configz, /healthz, goroutine dump → checks), "Diagnose All NotReady Nodes" over 200 nodes
// with 20 NotReady and the event loop's delay meanwhile, and the Prometheus parser's throughput on a
// 5 MB /metrics. Figures, not pass/fail; the goals from issue 10 are printed beside them.
// Run: npm run bench diagnose

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { diagnose } from '../src/core/diagnose/runDiagnosis';
import { parsePrometheusText } from '../src/core/parse/prometheusText';
import { summarizeKubeletMetrics } from '../src/core/parse/kubeletMetrics';
import { silentLogger } from '../src/core/util/logger';
import { startFakeApiServer } from '../src/demo/apiServer/server';
import { makeFleet } from '../src/demo/nodeFactory';
import { collectNodeEvidence } from '../src/infra/diagnose/collectEvidence';
import { DEFAULT_MANY_CONCURRENCY, diagnoseMany } from '../src/infra/diagnose/diagnoseMany';
import { createKubeGateway } from '../src/infra/kube/createGateway';
import { KubeconfigDir } from '../test/integration/kube/kubeconfigFiles';
import { recordedKubelets } from '../test/integration/diagnose/recordedKubelets';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The real /metrics, each family's samples repeated with a distinguishing label until it is `bytes` long. */
export function bigMetrics(bytes: number): string {
  const real = readFileSync(new URL('../test/fixtures/real-kubelet-1.32/metrics-stopped-final.txt', import.meta.url), 'utf8');
  // The text is grouped by family: a block is its HELP/TYPE lines and the samples that follow them.
  const blocks: { header: string[]; samples: string[] }[] = [];
  for (const line of real.split('\n')) {
    if (line === '') continue;
    const last = blocks[blocks.length - 1];
    if (line.startsWith('#')) {
      if (last === undefined || last.samples.length > 0) blocks.push({ header: [line], samples: [] });
      else last.header.push(line);
    } else if (last !== undefined) last.samples.push(line);
  }
  const sampleBytes = blocks.reduce((n, b) => n + b.samples.reduce((m, l) => m + l.length + 12, 0), 0);
  const copies = Math.ceil(bytes / sampleBytes);
  const out: string[] = [];
  for (const block of blocks) {
    out.push(...block.header);
    for (let i = 0; i < copies; i++) {
      for (const line of block.samples) {
        const brace = line.indexOf('{');
        const space = line.indexOf(' ');
        out.push(brace >= 0 && brace < space ? `${line.slice(0, brace + 1)}shard="${i}",${line.slice(brace + 1)}` : `${line.slice(0, space)}{shard="${i}"}${line.slice(space)}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

async function cluster(count: number, plegEvery: number) {
  const nodes = makeFleet(count, { prefix: 'bench', plegEvery });
  const notReady = new Set(nodes.filter((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True')).map((n) => n.metadata?.name ?? ''));
  const server = await startFakeApiServer({ nodes });
  server.setNodeProxy(recordedKubelets((n) => notReady.has(n)));
  const dir = new KubeconfigDir();
  const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'bench', server: server.url }]) } });
  const targets = nodes.filter((n) => notReady.has(n.metadata?.name ?? '')).map((node) => ({ context: 'bench', name: node.metadata?.name ?? '', node }));
  const collect = (t: (typeof targets)[number], signal?: AbortSignal) =>
    collectNodeEvidence({ gateway, context: 'bench', node: t.node, useNodeProxy: true, proxyTimeoutMs: 15_000, metricsIntervalMs: 0, logger: silentLogger, ...(signal ? { signal } : {}) });
  return {
    targets,
    collect,
    close: async () => {
      gateway.dispose();
      await server.close();
      dir.remove();
    },
  };
}

export async function benchDiagnose(): Promise<string[]> {
  const lines: string[] = [];

  // 1. One node, API tier, end to end (one /metrics scrape; the default second scrape adds its interval, 5 s).
  {
    const c = await cluster(1, 1);
    const target = c.targets[0];
    if (target === undefined) throw new Error('no NotReady node in the one-node cluster');
    const times: number[] = [];
    let headline = '';
    for (let i = 0; i < 15; i++) {
      const started = performance.now();
      const d = diagnose(await c.collect(target));
      times.push(performance.now() - started);
      headline = d.headline;
    }
    await c.close();
    lines.push(`one node, API tier (Node, events, pods, 4 kubelet endpoints, checks): median ${median(times.slice(3)).toFixed(0)} ms over 12 runs (goal ≤ 2000 ms); "${headline}"`);
  }

  // 2. Diagnose All NotReady Nodes: 200 nodes, 20 NotReady, with the event loop's delay measured.
  {
    const c = await cluster(200, 10);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const result = await diagnoseMany({ nodes: c.targets, concurrency: DEFAULT_MANY_CONCURRENCY, collect: (t, signal) => c.collect(t, signal) });
    const ms = performance.now() - started;
    delay.disable();
    await c.close();
    const found = result.outcomes.filter((o) => o.kind === 'done').length;
    lines.push(
      `Diagnose All NotReady Nodes, 200 nodes / ${c.targets.length} NotReady, ${DEFAULT_MANY_CONCURRENCY} at a time: ${ms.toFixed(0)} ms for ${found} diagnoses (goal ≤ 10000 ms)`,
    );
    lines.push(`  event-loop delay meanwhile (the stand-in and its kubelets serve from this same process): p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms (goal ≤ 50 ms)`);
  }

  // 3. The Prometheus parser on a 5 MB /metrics.
  {
    const text = bigMetrics(5 * 1024 * 1024);
    const mb = Buffer.byteLength(text) / 1024 / 1024;
    const runs: number[] = [];
    const cpuRuns: number[] = [];
    let families = 0;
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const cpu = process.cpuUsage();
      families = parsePrometheusText(text).length;
      const used = process.cpuUsage(cpu);
      runs.push(performance.now() - started);
      cpuRuns.push((used.user + used.system) / 1000);
    }
    const parseMs = median(runs.slice(2));
    const parseCpuMs = median(cpuRuns.slice(2));
    const summaryRuns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      summarizeKubeletMetrics(text);
      summaryRuns.push(performance.now() - started);
    }
    const summaryMs = median(summaryRuns.slice(1));
    lines.push(
      `Prometheus parser, ${mb.toFixed(1)} MB /metrics (${families} families): ${parseMs.toFixed(0)} ms wall = ${(mb / (parseMs / 1000)).toFixed(1)} MB/s; ${parseCpuMs.toFixed(0)} ms CPU = ${(mb / (parseCpuMs / 1000)).toFixed(1)} MB/s (goal ≥ 50 MB/s)`,
    );
    lines.push(`  with the kubelet summary on top: ${summaryMs.toFixed(0)} ms = ${(mb / (summaryMs / 1000)).toFixed(1)} MB/s`);
  }
  return lines;
}
