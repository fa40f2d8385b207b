// Benchmark of node access: one kubelet-style CRI snapshot of a node with 110 pods taken
//   (a) locally (straight to the containerd socket),
//   (b) over one reused SSH connection (stream-local forward, HTTP/2 multiplexed on one channel),
//   (c) the naive way: a new SSH connection and exec per CRI call (sampled, then scaled to the call count).
// Goals: (b) ≤ 1.5× (a); (b) ≥ 100× faster than (c).
// Needs the node stack (bash test/support/node-stack.sh up) and root. Pods beyond those already running are
// created for the run and removed afterwards; BENCH_PODS sets the target count (0 = use what runs).
// Run: npm run bench node

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { takeSnapshot, type CriSnapshot } from '../src/infra/cri/snapshot';
import { unixSocketClient } from '../src/infra/cri/transports/unixSocket';
import { execRelayClient } from '../src/infra/cri/transports/execRelay';
import { LocalHost } from '../test/support/localHost';
import { SshConnection } from '../src/infra/ssh/connection';
import { boundedMap } from '../src/infra/cri/boundedMap';
import { createPod, mutatingClient, removePod } from '../test/support/criPods';
import { readNodeStackEnv, type NodeStackEnv } from '../test/support/nodeStackEnv';

const RUNS = 5;
const NAIVE_SAMPLES = 8;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function sshTo(env: NodeStackEnv): SshConnection {
  return new SshConnection({
    hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] },
    // Unknown keys are refused, so the own file is never written (nor its directory created).
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(tmpdir(), `pleg-bench-${randomBytes(4).toString('hex')}`, 'known_hosts') },
    confirmUnknownHost: () => Promise.resolve(false),
    auth: {},
  });
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
  const env = readNodeStackEnv();
  const target = Number(process.env['BENCH_PODS'] ?? 110);
  const admin = mutatingClient(env.criSocket);
  const created: string[] = [];
  const lines: string[] = [];
  const ssh = sshTo(env);
  try {
    const existing = ((await admin.call('ListPodSandbox', {}))['items'] as unknown[] | undefined)?.length ?? 0;
    const missing = Math.max(0, target - existing);
    const tag = randomBytes(3).toString('hex');
    const results = await boundedMap(Array.from({ length: missing }, (_, i) => i), 4, (i) =>
      createPod(admin, { name: `bench-${tag}-${i}`, uid: `bench-${tag}-uid-${i}`, hostNetwork: true }, env.podLogDir),
    );
    for (const r of results) if (r.ok) created.push(r.value.sandboxId);
    lines.push(`node access: ${existing + created.length} pods (${created.length} created for the run)`);

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
  } finally {
    await boundedMap(created, 8, (id) => removePod(admin, id));
    admin.close();
    ssh.close();
  }
  return lines;
}
