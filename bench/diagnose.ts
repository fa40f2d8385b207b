// Benchmark of Diagnose Node's API tier on the loopback stand-in, whose kubelets answer with the real
// kubelet 1.32 recording (test/fixtures/real-kubelet-1.32): one node end to end (Node → events, pods,
// /metrics, /configz, /healthz, goroutine dump → checks), "Diagnose All NotReady Nodes" over 200 nodes
// with 20 NotReady and the event loop's delay meanwhile, and the Prometheus parser's throughput on a
// 5 MB /metrics. Figures, not pass/fail; the goals from issue 10 are printed beside them.
// Run: npm run bench diagnose

import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { KubeNode } from '../src/core/kube/objects';
import { diagnose } from '../src/core/diagnose/runDiagnosis';
import { parsePrometheusText } from '../src/core/parse/prometheusText';
import { summarizeKubeletMetrics } from '../src/core/parse/kubeletMetrics';
import { silentLogger } from '../src/core/util/logger';
import { collectNodeEvidence } from '../src/infra/diagnose/collectEvidence';
import { DEFAULT_MANY_CONCURRENCY, diagnoseMany } from '../src/infra/diagnose/diagnoseMany';
import { createKubeGateway } from '../src/infra/kube/createGateway';
import { KubeconfigDir } from '../test/integration/kube/kubeconfigFiles';

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

/**
 * The event loop's stalls, each measured by the CPU this process used during it: on a loaded machine a
 * stall is also the time the OS ran other processes, which no code of ours can shorten. Returns the
 * largest CPU-busy stall in ms (the process's CPU includes its GC threads, so this is an upper bound).
 */
function stallMeter(): { stop: () => number } {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let busiest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    const used = (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000;
    busiest = Math.max(busiest, Math.min(now - last, used));
    last = now;
    lastCpu = cpu;
  }, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return busiest;
    },
  };
}

/** The stand-in in a child process (bench/diagnoseStandIn.ts), and a gateway to it from this process. */
async function cluster(count: number, plegEvery: number) {
  const child = fork(fileURLToPath(new URL('./diagnoseStandIn.ts', import.meta.url)), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ url: string; nodes: KubeNode[]; notReady: string[] }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; nodes: KubeNode[]; notReady: string[] }));
    child.once('exit', (code) => reject(new Error(`the stand-in process exited (${code}) before it was ready`)));
    child.send({ count, plegEvery });
  });
  const notReady = new Set(ready.notReady);
  const dir = new KubeconfigDir();
  const gateway = createKubeGateway({ env: { KUBECONFIG: dir.write('config', [{ name: 'bench', server: ready.url }]) } });
  const targets = ready.nodes.filter((n) => notReady.has(n.metadata?.name ?? '')).map((node) => ({ context: 'bench', name: node.metadata?.name ?? '', node }));
  const collect = (t: (typeof targets)[number], signal?: AbortSignal) =>
    collectNodeEvidence({ gateway, context: 'bench', node: t.node, useNodeProxy: true, proxyTimeoutMs: 15_000, metricsIntervalMs: 0, logger: silentLogger, ...(signal ? { signal } : {}) });
  return {
    targets,
    collect,
    close: async () => {
      gateway.dispose();
      child.send('close');
      await exited;
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
    const stalls = stallMeter();
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await diagnoseMany({ nodes: c.targets, concurrency: DEFAULT_MANY_CONCURRENCY, collect: (t, signal) => c.collect(t, signal) });
    const spent = process.cpuUsage(cpu);
    const ms = performance.now() - started;
    delay.disable();
    const busiest = stalls.stop();
    await c.close();
    const found = result.outcomes.filter((o) => o.kind === 'done').length;
    lines.push(
      `Diagnose All NotReady Nodes, 200 nodes / ${c.targets.length} NotReady, ${DEFAULT_MANY_CONCURRENCY} at a time: ${ms.toFixed(0)} ms for ${found} diagnoses (goal ≤ 10000 ms)`,
    );
    lines.push(
      `  event-loop delay of the diagnosing process meanwhile (the stand-in serves from a child process): p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms (goal ≤ 50 ms); this process used ${((spent.user + spent.system) / 1000).toFixed(0)} ms of CPU, load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
    lines.push(`  the longest stall of its event loop in which the process itself was busy: ${busiest.toFixed(0)} ms of CPU (the rest of a stall is the machine running other processes)`);
  }

  // 3. The Prometheus parser on a 5 MB /metrics, back to back: each run also pays for collecting the ones
  // before it, as a long-lived extension host does.
  {
    const text = bigMetrics(5 * 1024 * 1024);
    const mb = Buffer.byteLength(text) / 1024 / 1024;
    const wall: number[] = [];
    const cpu: number[] = [];
    let families = 0;
    for (let i = 0; i < 23; i++) {
      const started = performance.now();
      const used = process.cpuUsage();
      families = parsePrometheusText(text).length;
      const spent = process.cpuUsage(used);
      // The first three runs warm the JIT up.
      if (i < 3) continue;
      wall.push(performance.now() - started);
      cpu.push((spent.user + spent.system) / 1000);
    }
    const rate = (ms: number): string => (mb / (ms / 1000)).toFixed(1);
    const spread = (runs: number[]): string => `median ${rate(median(runs))} MB/s (slowest ${rate(Math.max(...runs))}, fastest ${rate(Math.min(...runs))})`;
    const summaryRuns: number[] = [];
    for (let i = 0; i < 6; i++) {
      const started = performance.now();
      summarizeKubeletMetrics(text);
      summaryRuns.push(performance.now() - started);
    }
    lines.push(
      `Prometheus parser, ${mb.toFixed(1)} MB /metrics (${families} families), ${wall.length} runs: wall ${spread(wall)}; CPU ${spread(cpu)} (goal ≥ 50 MB/s)`,
    );
    lines.push(`  with the kubelet summary on top: median ${median(summaryRuns.slice(1)).toFixed(0)} ms = ${rate(median(summaryRuns.slice(1)))} MB/s`);
  }
  return lines;
}
