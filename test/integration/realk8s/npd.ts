// The real node-problem-detector (../shared/npd, v0.8.15 built from source) as a plain process reporting
// for the cluster's node, with deploy/node-problem-detector/pleg-doctor-monitor.json as shipped except the
// plugin's path (this checkout's dist/cli.js) and, when a test asks, its invoke interval. For
// deploy.test.ts and the fault window's alert checks (./alertLeadTimes.ts).

import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RealCluster } from './cluster';
import { REPO, kubectl } from './cluster';

/** The agent URL the shipped monitor config names (the DaemonSet's host-network port on the node). */
export const SHIPPED_AGENT_URL = 'http://127.0.0.1:9787';

export interface RunningNpd {
  /** Everything NPD wrote so far (stdout and stderr), for failure messages. */
  log: () => string;
  /** SIGTERM and wait for the exit (SIGKILL after 10 s). Idempotent. */
  stop: () => Promise<void>;
}

export interface NpdOptions {
  /** Where the plugin asks; default the shipped one. */
  agentUrl?: string;
  /** NPD's invoke_interval; default as shipped (10 s). */
  invokeInterval?: string;
}

/** The monitor config with the plugin at PLUGIN (and the options applied), written into DIR; its path. */
function monitorConfig(dir: string, plugin: string, options: NpdOptions): string {
  const monitor = JSON.parse(readFileSync(join(REPO, 'deploy/node-problem-detector/pleg-doctor-monitor.json'), 'utf8')) as {
    pluginConfig: Record<string, unknown>;
    rules: { path: string; args: string[] }[];
  };
  if (options.invokeInterval !== undefined) monitor.pluginConfig['invoke_interval'] = options.invokeInterval;
  for (const rule of monitor.rules) {
    rule.path = plugin;
    if (options.agentUrl !== undefined) rule.args = rule.args.map((a) => (a === SHIPPED_AGENT_URL ? options.agentUrl ?? a : a));
  }
  const config = join(dir, 'pleg-doctor-monitor.json');
  writeFileSync(config, JSON.stringify(monitor));
  return config;
}

/** NPD for the cluster's node, writing with the admin kubeconfig (see ../shared/npd/README.md). */
export function startNpd(cluster: RealCluster, dir: string, options: NpdOptions = {}): RunningNpd {
  // The CLI installed as the monitor expects it: an executable file (its #! line runs node).
  const plugin = join(dir, 'pleg-doctor');
  copyFileSync(join(REPO, 'dist/cli.js'), plugin);
  chmodSync(plugin, 0o755);
  const config = monitorConfig(dir, plugin, options);
  const bin = join(dir, 'node-problem-detector');
  const unpacked = spawnSync('sh', ['-c', 'xz -dc "$1" > "$2" && chmod +x "$2"', 'sh', join(REPO, '../shared/npd/bin/node-problem-detector.xz'), bin], { timeout: 60_000 });
  if (unpacked.status !== 0) throw new Error(`could not unpack ../shared/npd/bin/node-problem-detector.xz (see ../shared/npd/README.md): ${String(unpacked.stderr)}`);
  const npd = spawn(
    bin,
    [
      `--apiserver-override=https://127.0.0.1:6443?inClusterConfig=false&auth=${cluster.kubeconfig}`,
      `--hostname-override=${cluster.nodeName}`,
      `--config.custom-plugin-monitor=${config}`,
      '--port=0',
      '--prometheus-port=0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  npd.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  npd.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((r) => npd.once('exit', () => r()));
  return {
    log: () => log,
    stop: async () => {
      if (npd.exitCode !== null || npd.signalCode !== null) return;
      npd.kill('SIGTERM');
      const timer = setTimeout(() => npd.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface NodeCondition {
  status: string;
  reason: string;
  message: string;
}

/** The Node's PLEGAtRisk condition as the API server has it, if any. */
export function plegAtRisk(cluster: RealCluster): NodeCondition | undefined {
  const out = kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'jsonpath={range .status.conditions[?(@.type=="PLEGAtRisk")]}{.status}|{.reason}|{.message}{end}']);
  if (out === '') return undefined;
  const [status = '', reason = '', ...message] = out.split('|');
  return { status, reason, message: message.join('|') };
}

/** NPD leaves its condition on the Node when it stops: take it off for the tests that follow. */
export function removePlegAtRisk(cluster: RealCluster): void {
  const types = kubectl(cluster, ['get', 'node', cluster.nodeName, '-o', 'jsonpath={.status.conditions[*].type}']).split(' ');
  const index = types.indexOf('PLEGAtRisk');
  if (index < 0) return;
  // The index is checked by a JSON-patch test op, so a condition list that changed in between fails loudly.
  kubectl(cluster, ['patch', 'node', cluster.nodeName, '--subresource=status', '--type=json', '-p', JSON.stringify([{ op: 'test', path: `/status/conditions/${index}/type`, value: 'PLEGAtRisk' }, { op: 'remove', path: `/status/conditions/${index}` }])]);
}
