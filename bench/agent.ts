// `npm run bench -- agent`: what `pleg-doctor agent` costs on a node (issue #28's budget: ≤ 1 % of one core,
// ≤ 60 MB RSS). The real thing: `node dist/cli.js agent` as its own process on the real node stack's
// containerd with BENCH_PODS pods (default 110), 1 s period, its diagnosis every 2 minutes, a Prometheus-like
// scrape of its /metrics every 15 s, and its own scrape of a kubelet /metrics every 30 s (a loopback HTTPS
// server answering the real kubelet 1.32's /metrics of test/fixtures/real-kubelet-1.32, 123 kB, since the
// node stack has no kubelet). CPU is the process's utime + stime from /proc over BENCH_AGENT_SECONDS
// (default 60) after a 10 s warm-up (start-up, the first relist inspecting every pod, the first
// diagnosis); peak RSS is its VmHWM at the end. Needs root, the node stack and `npm run build`.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timeoutSignal } from '../src/core/util/deadlineSignal';
import { withBenchPods } from './benchPods';

/**
 * V8 flags that keep the agent's heap near what it uses: without them V8 grows the young generation to
 * 16 MB semi-spaces and keeps the garbage (about 30 MB of RSS at 110 pods). docs/agent.md asks the image to
 * start node with them.
 */
export const AGENT_NODE_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=32'];
const CPU_BUDGET_PERCENT = 1;
const RSS_BUDGET_MB = 60;
const WARMUP_S = 10;
const CLK_TCK = 100;

/** utime + stime of a process, in seconds (/proc/PID/stat fields 14 and 15, clock ticks). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

function peakRssMb(pid: number): number {
  const m = /^VmHWM:\s+(\d+) kB$/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1]) / 1024;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function benchAgent(): Promise<string[]> {
  const seconds = Number(process.env['BENCH_AGENT_SECONDS'] ?? 60);
  const cli = resolve(__dirname, '../dist/cli.js');
  const scratch = mkdtempSync(join(tmpdir(), 'pleg-bench-agent-'));
  try {
    return await withBenchPods('agent on the node stack', 'agentbench', async ({ env, lines }) => {
      // A kubelet /metrics to scrape: the real kubelet's recorded answer over loopback TLS.
      const key = join(scratch, 'key.pem');
      const cert = join(scratch, 'cert.pem');
      const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=127.0.0.1', '-days', '1', '-keyout', key, '-out', cert], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
      const body = readFileSync(resolve(__dirname, '../test/fixtures/real-kubelet-1.32/metrics-healthy.txt'));
      let kubeletScrapes = 0;
      const kubelet = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
        kubeletScrapes++;
        res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(body);
      });
      await new Promise<void>((r) => kubelet.listen(0, '127.0.0.1', r));
      const kubeletPort = (kubelet.address() as { port: number }).port;
      writeFileSync(join(scratch, 'config.yaml'), 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nruntimeRequestTimeout: 2m\nmaxPods: 110\n');
      writeFileSync(join(scratch, 'token'), 'bench\n');
      // Node as it starts by default, then with AGENT_NODE_FLAGS (docs/agent.md: what the image should run);
      // BENCH_AGENT_NODE_FLAGS replaces both with one set of its own.
      const own = process.env['BENCH_AGENT_NODE_FLAGS'];
      const flagSets = own !== undefined ? [own.split(' ').filter((f) => f !== '')] : [[], AGENT_NODE_FLAGS];
      try {
        for (const nodeFlags of flagSets) {
          kubeletScrapes = 0;
          const agent = spawn(
            process.execPath,
            [...nodeFlags, cli, 'agent', '--listen', '127.0.0.1:0', '--node-name', 'node-stack', '--cri-socket', env.criSocket, '--kubelet-config', join(scratch, 'config.yaml'), '--token-file', join(scratch, 'token'), '--kubelet-url', `https://127.0.0.1:${kubeletPort}`],
            { env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratch }, stdio: ['ignore', 'ignore', 'pipe'] },
          );
          let stderr = '';
          agent.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
          const pid = agent.pid as number;
          try {
            let port: string | undefined;
            for (let i = 0; i < 100 && port === undefined; i++) {
              await sleep(100);
              port = /serving .* on 127\.0\.0\.1:(\d+)/u.exec(stderr)?.[1];
            }
            if (port === undefined) throw new Error(`the agent did not start: ${stderr}`);
            const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${port}/metrics`, { signal: timeoutSignal(10_000) })).text();
            await sleep(WARMUP_S * 1000);
            const relistsOf = (text: string): number => Number(/^pleg_doctor_relist_duration_seconds_count (\S+)$/mu.exec(text)?.[1] ?? NaN);
            const relists0 = relistsOf(await scrape());
            const cpu0 = cpuSeconds(pid);
            const wall0 = performance.now();
            // Scraped every 15 s as Prometheus would; the relist count is read once more at the end.
            while (performance.now() - wall0 < seconds * 1000) {
              await scrape();
              await sleep(Math.min(15_000, seconds * 1000 - (performance.now() - wall0)));
            }
            const cpu = cpuSeconds(pid) - cpu0;
            const wallS = (performance.now() - wall0) / 1000;
            const last = await scrape();
            const rss = peakRssMb(pid);
            const nowRss = Number(/^VmRSS:\s+(\d+) kB$/mu.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
            const share = (cpu / wallS) * 100;
            const pods = /^pleg_doctor_pods (\S+)$/mu.exec(last)?.[1] ?? '?';
            const relistSum = Number(/^pleg_doctor_relist_duration_seconds_sum (\S+)$/mu.exec(last)?.[1] ?? NaN);
            const meanRelistMs = (relistSum / relistsOf(last)) * 1000;
            lines.push(
              `  node ${nodeFlags.join(' ') || '(no flags)'}; ${seconds} s after a ${WARMUP_S} s warm-up: ${relistsOf(last) - relists0} relists of ${pods} pods (mean ${meanRelistMs.toFixed(1)} ms since the start), ${kubeletScrapes} kubelet scrapes by it, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
              `  CPU ${share.toFixed(2)} % of one core = ${(share / CPU_BUDGET_PERCENT).toFixed(2)} × the budget (≤ ${CPU_BUDGET_PERCENT} %); peak RSS ${rss.toFixed(1)} MB = ${(rss / RSS_BUDGET_MB).toFixed(2)} × the budget (≤ ${RSS_BUDGET_MB} MB; RSS at the end ${nowRss.toFixed(1)} MB)`,
            );
          } finally {
            agent.kill('SIGTERM');
            await new Promise((r) => agent.once('exit', r));
          }
        }
      } finally {
        await new Promise<void>((r) => kubelet.close(() => r()));
      }
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void benchAgent().then((lines) => console.log(lines.join('\n')));
}
