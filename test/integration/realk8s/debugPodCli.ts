// The built CLI against a kit's cluster, for the debug pod tests (snapshot and kubelet log): its output,
// its exit, and the debug pods the API server still has afterwards (and containerd's running tasks: the
// editor's debug pod in code-server, nodeAccessInCodeServer.ts, is held to both too).

import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DEBUG_POD_SELECTOR } from '../../../src/core/nodeAccess/debugPodSpec';
import type { RealCluster } from './cluster';
import { REPO, kubectl } from './cluster';

const CLI = join(REPO, 'dist/cli.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** `onStderr` sees stderr as it comes (and may signal the child). stdin is a pipe: never a terminal. */
export function runCli(cluster: RealCluster, args: string[], onStderr?: (text: string, kill: (s: NodeJS.Signals) => void) => void, timeoutMs = 150_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args, '--kubeconfig', cluster.kubeconfig], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`pleg-doctor ${args.join(' ')} ran over ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
      onStderr?.(stderr, (s) => child.kill(s));
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Our debug pods the API server has, in every namespace. */
export function debugPods(cluster: RealCluster): string[] {
  return kubectl(cluster, ['get', 'pods', '-A', '-l', DEBUG_POD_SELECTOR, '-o', 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}'])
    .split('\n')
    .filter((l) => l !== '');
}

/** containerd's running tasks in the CRI's namespace, read with its own client on the node's socket. */
export function runningTasks(cluster: RealCluster): string[] {
  const r = spawnSync('ctr', ['--address', cluster.criSocket, '-n', 'k8s.io', 'tasks', 'ls'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`ctr tasks ls failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout
    .split('\n')
    .slice(1)
    .map((l) => l.trim().split(/\s+/))
    .filter((cols) => cols[2] === 'RUNNING')
    .map((cols) => cols[0] as string);
}
