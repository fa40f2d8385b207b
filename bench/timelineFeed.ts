// Benchmark of the live timeline feed on the real node stack with 110 pods:
//   - CPU of this (host) process while the feed runs at its 1 s period over one SSH connection
//     (goal ≤ 5 % of one core);
//   - wall time of one period (GetPods, the status calls the model asks for, the model) over SSH vs the
//     same calls made node-locally, straight to the containerd socket, measured side by side, alternating
//     (goal ≤ 1.5×): a steady period (nothing changed: GetPods only) and a full one (a fresh model
//     inspects every pod, as a kubelet does on its first relist). The ratio is the median of each run's
//     own ratio (the runs alternate, so the machine's drift hits both sides of a pair alike);
//   - the same full period with PING ACKs sent at once (heldPingAcks.ts off), and the CPU the node's sshd
//     and containerd spend on a full period each way.
// Needs the node stack (bash test/support/node-stack.sh up) and root. Pods beyond those already running
// are created for the run and removed afterwards; BENCH_PODS sets the target (0 = use what runs),
// BENCH_FEED_SECONDS the CPU run's length (default 30).
// Run: npm run bench timeline feed

import { readdirSync, readFileSync } from 'node:fs';
import { LivePlegModel } from '../src/core/timeline/liveModel';
import { DEFAULT_SESSION_SETTINGS } from '../src/core/timeline/newSession';
import type { SessionSettings } from '../src/core/timeline/session';
import type { CriReader } from '../src/infra/cri/reader';
import { unixSocketClient } from '../src/infra/cri/transports/unixSocket';
import { fetchPodStatus, listRuntime } from '../src/infra/timeline/criPeriod';
import { runLiveFeed } from '../src/infra/timeline/liveFeed';
import { LocalHost } from '../test/support/localHost';
import type { NodeStackEnv } from '../test/support/nodeStackEnv';
import { withBenchPods } from './benchPods';

const RUNS = 11;
const STEADY_PER_RUN = 5;
const SETTINGS: SessionSettings = { ...DEFAULT_SESSION_SETTINGS, runtimeRequestTimeoutMs: 10_000 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
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

/** CPU time (ms) of the node's sshd processes and containerd, from /proc (root; 10 ms ticks). */
function nodeCpuMs(env: NodeStackEnv): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      cpu.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  const under = (pid: number, root: number): boolean => {
    for (let p: number | undefined = pid, hops = 0; p !== undefined && p > 1 && hops < 64; p = parent.get(p), hops++) if (p === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, t] of cpu) if (under(pid, env.sshdPid) || pid === env.containerdPid) ticks += t;
  return ticks * 10;
}

interface Side {
  full: number[];
  steady: number[];
  nodeCpu: number[];
}

/**
 * Full (fresh model) and steady (same model again) periods: node-local, over SSH, and over SSH with PING
 * ACKs sent at once (as before heldPingAcks.ts), one after another in each run, so that the machine's
 * drift hits all three alike.
 */
async function sideBySide(readers: Record<'local' | 'ssh' | 'sshAcksAtOnce', CriReader>, env: NodeStackEnv): Promise<{ sides: Record<keyof typeof readers, Side>; calls: number; pods: number }> {
  const sides = { local: { full: [], steady: [], nodeCpu: [] }, ssh: { full: [], steady: [], nodeCpu: [] }, sshAcksAtOnce: { full: [], steady: [], nodeCpu: [] } } as Record<keyof typeof readers, Side>;
  let calls = 0;
  let pods = 0;
  // Warm-up: connections, HTTP/2 sessions, containerd caches.
  for (const reader of Object.values(readers)) await period(reader, new LivePlegModel({ settings: SETTINGS }), 0);
  for (let i = 0; i < RUNS; i++) {
    for (const [name, reader] of Object.entries(readers) as Array<[keyof typeof readers, CriReader]>) {
      const side = sides[name];
      const model = new LivePlegModel({ settings: SETTINGS });
      const cpu0 = nodeCpuMs(env);
      const first = await period(reader, model, 0);
      side.nodeCpu.push(nodeCpuMs(env) - cpu0);
      side.full.push(first.ms);
      calls = first.calls;
      pods = first.inspected;
      // A steady period takes a few ms: several per run, so that its median is not one scheduler hiccup.
      for (let k = 1; k <= STEADY_PER_RUN; k++) side.steady.push((await period(reader, model, k * 1_000)).ms);
    }
  }
  return { sides, calls, pods };
}

/** Each run's SSH period over its own node-local one: the median, and the spread. */
function pairedRatios(ssh: number[], local: number[]): { median: number; min: number; max: number } {
  const ratios = ssh.map((v, i) => v / (local[i] ?? Number.NaN));
  return { median: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
}

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

export async function benchTimelineFeed(): Promise<string[]> {
  const seconds = Number(process.env['BENCH_FEED_SECONDS'] ?? 30);
  return withBenchPods('live feed', 'feed', async ({ env, ssh, lines }) => {
      const local = unixSocketClient(new LocalHost(), env.criSocket);
      const remote = unixSocketClient(ssh, env.criSocket);
      const acksAtOnce = unixSocketClient(ssh, env.criSocket, { pingAckHoldMs: 0 });
      try {
        const { sides, calls, pods } = await sideBySide({ local, ssh: remote, sshAcksAtOnce: acksAtOnce }, env);
        const full = pairedRatios(sides.ssh.full, sides.local.full);
        const steady = pairedRatios(sides.ssh.steady, sides.local.steady);
        const atOnce = pairedRatios(sides.sshAcksAtOnce.full, sides.local.full);
        const spread = (r: { min: number; max: number }): string => `${r.min.toFixed(2)}–${r.max.toFixed(2)}`;
        const ofMedians = (ssh: number[], local: number[]): string => `${(median(ssh) / median(local)).toFixed(2)}×`;
        lines.push(
          `  full period (${pods} pods inspected, ${calls} CRI calls; ${RUNS} each): node-local ${median(sides.local.full).toFixed(1)} ms, over SSH ${median(sides.ssh.full).toFixed(1)} ms → ` +
            `${full.median.toFixed(2)}× (median of the runs' ratios; ${spread(full)}; ratio of the medians ${ofMedians(sides.ssh.full, sides.local.full)}; goal ≤ 1.5×)`,
        );
        lines.push(
          `  steady period (GetPods only, ${RUNS * STEADY_PER_RUN} each):  node-local ${median(sides.local.steady).toFixed(1)} ms, over SSH ${median(sides.ssh.steady).toFixed(1)} ms → ` +
            `${steady.median.toFixed(2)}× (${spread(steady)}; ratio of the medians ${ofMedians(sides.ssh.steady, sides.local.steady)}; goal ≤ 1.5×)`,
        );
        lines.push(
          `  full period with PING ACKs sent at once (no hold): ${median(sides.sshAcksAtOnce.full).toFixed(1)} ms → ${atOnce.median.toFixed(2)}× (${spread(atOnce)}); ` +
            `node-side CPU (sshd + containerd) per full period: held ${mean(sides.ssh.nodeCpu).toFixed(0)} ms, at once ${mean(sides.sshAcksAtOnce.nodeCpu).toFixed(0)} ms, node-local ${mean(sides.local.nodeCpu).toFixed(0)} ms`,
        );

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
        acksAtOnce.close();
      }
  });
}
