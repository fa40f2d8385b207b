// Benchmark of the live timeline feed on the real node stack with 110 pods:
//   - CPU of this (host) process while the feed runs at its 1 s period over one SSH connection
//     (goal ≤ 5 % of one core);
//   - wall time of one period (GetPods, the status calls the model asks for, the model) over SSH vs the
//     same calls made node-locally, straight to the containerd socket, measured side by side, alternating
//     (goal ≤ 1.5×): a steady period (nothing changed: GetPods only) and a full one (a fresh model
//     inspects every pod, as a kubelet does on its first relist).
// Needs the node stack (bash test/support/node-stack.sh up) and root. Pods beyond those already running
// are created for the run and removed afterwards; BENCH_PODS sets the target (0 = use what runs),
// BENCH_FEED_SECONDS the CPU run's length (default 30).
// Run: npm run bench timeline feed

import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LivePlegModel } from '../src/core/timeline/liveModel';
import { DEFAULT_SESSION_SETTINGS } from '../src/core/timeline/newSession';
import type { SessionSettings } from '../src/core/timeline/session';
import { boundedMap } from '../src/infra/cri/boundedMap';
import type { CriReader } from '../src/infra/cri/reader';
import { unixSocketClient } from '../src/infra/cri/transports/unixSocket';
import { SshConnection } from '../src/infra/ssh/connection';
import { fetchPodStatus, listRuntime } from '../src/infra/timeline/criPeriod';
import { runLiveFeed } from '../src/infra/timeline/liveFeed';
import { createPod, mutatingClient, removePod } from '../test/support/criPods';
import { LocalHost } from '../test/support/localHost';
import { readNodeStackEnv, type NodeStackEnv } from '../test/support/nodeStackEnv';

const RUNS = 7;
const STEADY_PER_RUN = 5;
const SETTINGS: SessionSettings = { ...DEFAULT_SESSION_SETTINGS, runtimeRequestTimeoutMs: 10_000 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

function sshTo(env: NodeStackEnv): SshConnection {
  return new SshConnection({
    hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] },
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(tmpdir(), `pleg-bench-${randomBytes(4).toString('hex')}`, 'known_hosts') },
    confirmUnknownHost: () => Promise.resolve(false),
    auth: {},
  });
}

/** One feed period as runLiveFeed makes it; returns its wall time and the CRI calls made. */
async function period(reader: CriReader, model: LivePlegModel, startMs: number): Promise<{ ms: number; calls: number; inspected: number }> {
  const signal = new AbortController().signal;
  const started = performance.now();
  const listing = await listRuntime(reader, startMs, { deadlineMs: SETTINGS.runtimeRequestTimeoutMs, signal });
  const statuses = [];
  for (const uid of model.statusRequests(listing)) statuses.push(await fetchPodStatus(reader, uid, { deadlineMs: SETTINGS.runtimeRequestTimeoutMs, signal }));
  const delta = model.relist(listing, statuses);
  const ms = performance.now() - started;
  const relist = delta.relists?.[0];
  return { ms, calls: relist?.rpcs.length ?? 0, inspected: relist?.podsInspected.length ?? 0 };
}

/** Full (fresh model) and steady (same model again) periods, local and over SSH alternating. */
async function sideBySide(local: CriReader, remote: CriReader): Promise<{ full: [number, number, number]; steady: [number, number, number]; pods: number }> {
  const full = { local: [] as number[], ssh: [] as number[] };
  const steady = { local: [] as number[], ssh: [] as number[] };
  let calls = 0;
  let pods = 0;
  // Warm-up: connections, HTTP/2 sessions, containerd caches.
  await period(local, new LivePlegModel({ settings: SETTINGS }), 0);
  await period(remote, new LivePlegModel({ settings: SETTINGS }), 0);
  for (let i = 0; i < RUNS; i++) {
    for (const [reader, into, intoSteady] of [
      [local, full.local, steady.local],
      [remote, full.ssh, steady.ssh],
    ] as const) {
      const model = new LivePlegModel({ settings: SETTINGS });
      const first = await period(reader, model, 0);
      into.push(first.ms);
      calls = first.calls;
      pods = first.inspected;
      // A steady period takes a few ms: several per run, so that its median is not one scheduler hiccup.
      for (let k = 1; k <= STEADY_PER_RUN; k++) intoSteady.push((await period(reader, model, k * 1_000)).ms);
    }
  }
  return { full: [median(full.local), median(full.ssh), calls], steady: [median(steady.local), median(steady.ssh), 2], pods };
}

export async function benchTimelineFeed(): Promise<string[]> {
  const env = readNodeStackEnv();
  const target = Number(process.env['BENCH_PODS'] ?? 110);
  const seconds = Number(process.env['BENCH_FEED_SECONDS'] ?? 30);
  const admin = mutatingClient(env.criSocket);
  const created: string[] = [];
  const lines: string[] = [];
  const ssh = sshTo(env);
  try {
    const existing = ((await admin.call('ListPodSandbox', {}))['items'] as unknown[] | undefined)?.length ?? 0;
    const missing = Math.max(0, target - existing);
    const tag = randomBytes(3).toString('hex');
    const results = await boundedMap(Array.from({ length: missing }, (_, i) => i), 4, (i) =>
      createPod(admin, { name: `feed-${tag}-${i}`, uid: `feed-${tag}-uid-${i}`, hostNetwork: true }, env.podLogDir),
    );
    for (const r of results) if (r.ok) created.push(r.value.sandboxId);
    const failedCreates = results.length - created.length;
    lines.push(`live feed: ${existing + created.length} pods (${created.length} created for the run${failedCreates > 0 ? `, ${failedCreates} could not be created` : ''}; target ${target})`);

    const local = unixSocketClient(new LocalHost(), env.criSocket);
    const remote = unixSocketClient(ssh, env.criSocket);
    try {
      const r = await sideBySide(local, remote);
      const [fl, fs, fc] = r.full;
      const [sl, ss] = r.steady;
      lines.push(`  full period (${r.pods} pods inspected, ${fc} CRI calls): node-local ${fl.toFixed(1)} ms, over SSH ${fs.toFixed(1)} ms → ${(fs / fl).toFixed(2)}× (goal ≤ 1.5×)`);
      lines.push(`  steady period (GetPods only, ${RUNS * STEADY_PER_RUN} each):  node-local ${sl.toFixed(1)} ms, over SSH ${ss.toFixed(1)} ms → ${(ss / sl).toFixed(2)}× (goal ≤ 1.5×)`);

      // CPU of this process while the feed runs at 1 s for `seconds`.
      const controller = new AbortController();
      let relists = 0;
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      const timer = setTimeout(() => controller.abort(), seconds * 1000);
      await runLiveFeed({
        node: 'node-stack',
        settings: SETTINGS,
        connectCri: () => Promise.resolve(unixSocketClient(ssh, env.criSocket)),
        signal: controller.signal,
        onDelta: (d) => {
          relists += d.relists?.length ?? 0;
        },
      });
      clearTimeout(timer);
      const cpu = process.cpuUsage(cpu0);
      const wall = performance.now() - wall0;
      const share = ((cpu.user + cpu.system) / 1000 / wall) * 100;
      lines.push(`  host CPU while the feed runs at 1 s for ${seconds} s (${relists} relists): ${share.toFixed(2)} % of one core (goal ≤ 5 %)`);
    } finally {
      local.close();
      remote.close();
    }
  } finally {
    await boundedMap(created, 8, (id) => removePod(admin, id));
    admin.close();
    ssh.close();
  }
  return lines;
}
