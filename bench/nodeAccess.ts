// Benchmark of node access: one kubelet-style CRI snapshot of a node with 110 pods taken
//   (a) locally (straight to the containerd socket),
//   (b) over one reused SSH connection (stream-local forward, HTTP/2 multiplexed on one channel),
//   (c) the naive way: a new SSH connection and exec per CRI call (sampled, then scaled to the call count).
// Goals: (b) ≤ 1.5× (a); (b) ≥ 100× faster than (c).
// Needs the node stack (bash test/support/node-stack.sh up) and root. Pods beyond those already running are
// created for the run and removed afterwards; BENCH_PODS sets the target count (0 = use what runs).
// Run: npm run bench node

import { takeSnapshot, type CriSnapshot } from '../src/infra/cri/snapshot';
import { unixSocketClient } from '../src/infra/cri/transports/unixSocket';
import { execRelayClient } from '../src/infra/cri/transports/execRelay';
import { LocalHost } from '../test/support/localHost';
import type { NodeStackEnv } from '../test/support/nodeStackEnv';
import { sshTo, withBenchPods } from './benchPods';

const RUNS = 5;
const NAIVE_SAMPLES = 8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function timedSnapshots(take: () => Promise<CriSnapshot>): Promise<{ ms: number; calls: number; errors: number }> {
  await take(); // warm-up: connection, HTTP/2 session, containerd caches
  const times: number[] = [];
  let last: CriSnapshot | undefined;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    last = await take();
    times.push(performance.now() - started);
  }
  return { ms: median(times), calls: last?.timings.length ?? 0, errors: last?.errors.length ?? 0 };
}

/** One fresh SSH connection + exec relay + one CRI call: what `ssh node crictl …` per call costs at best. */
async function naivePerCallMs(env: NodeStackEnv): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < NAIVE_SAMPLES; i++) {
    const started = performance.now();
    const ssh = sshTo(env);
    const client = execRelayClient(ssh, env.criSocket, false);
    try {
      await client.version({ deadlineMs: 10_000 });
    } finally {
      client.close();
      ssh.close();
    }
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export async function benchNodeAccess(): Promise<string[]> {
  return withBenchPods('node access', 'bench', async ({ env, ssh, lines }) => {
      const local = unixSocketClient(new LocalHost(), env.criSocket);
      const overSsh = unixSocketClient(ssh, env.criSocket);
      try {
        const a = await timedSnapshots(() => takeSnapshot(local, { deadlineMs: 10_000 }));
        const b = await timedSnapshots(() => takeSnapshot(overSsh, { deadlineMs: 10_000 }));
        const perCall = await naivePerCallMs(env);
        const naive = perCall * b.calls;
        lines.push(`  local snapshot            ${a.ms.toFixed(1)} ms (${a.calls} calls, ${a.errors} errors)`);
        lines.push(`  over one SSH connection   ${b.ms.toFixed(1)} ms (${b.calls} calls, ${b.errors} errors) → ${(b.ms / a.ms).toFixed(2)}× local (goal ≤ 1.5×)`);
        lines.push(`  SSH connect+exec per call ${perCall.toFixed(1)} ms per call × ${b.calls} ≈ ${(naive / 1000).toFixed(1)} s (extrapolated from ${NAIVE_SAMPLES} samples) → pooled is ${(naive / b.ms).toFixed(0)}× faster (goal ≥ 100×)`);
      } finally {
        local.close();
        overSsh.close();
      }
  });
}
