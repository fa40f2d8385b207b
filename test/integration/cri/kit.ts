// Shared helpers of the CRI integration tests: the real node stack, test pods, and process lookups.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { readNodeStackEnv, type NodeStackEnv } from '../../support/nodeStackEnv';
import { createPod, mutatingClient, removePod, type CreatedPod } from '../../support/criPods';
import type { GrpcCriClient } from '../../../src/infra/cri/criClient';

export function stack(): NodeStackEnv {
  return readNodeStackEnv();
}

/** A test-owned pod, removed by the returned cleanup (idempotent). */
export async function withTestPod(env: NodeStackEnv, options: { hostNetwork?: boolean; command?: string[] } = {}): Promise<{ pod: CreatedPod; admin: GrpcCriClient; cleanup: () => Promise<void> }> {
  const admin = mutatingClient(env.criSocket);
  const tag = randomBytes(4).toString('hex');
  const pod = await createPod(
    admin,
    { name: `critest-${tag}`, uid: `critest-uid-${tag}`, hostNetwork: options.hostNetwork ?? true, ...(options.command ? { command: options.command } : {}) },
    env.podLogDir,
  );
  let cleaned = false;
  return {
    pod,
    admin,
    cleanup: async () => {
      if (cleaned) return;
      cleaned = true;
      try {
        await removePod(admin, pod.sandboxId);
      } finally {
        admin.close();
      }
    },
  };
}

/** containerd's own list of CRI containers (sandboxes and app containers): ground truth independent of CRI. */
export function ctrContainerIds(env: NodeStackEnv): Set<string> {
  const out = execFileSync('ctr', ['-a', env.criSocket, '-n', 'k8s.io', 'containers', 'ls', '-q'], { encoding: 'utf8', timeout: 10_000 });
  return new Set(out.split('\n').map((l) => l.trim()).filter(Boolean));
}

/** The containerd-shim-runc-v2 serving a sandbox, found through /proc (argv[0] and the sandbox id). */
export function shimPidFor(sandboxId: string): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if ((argv[0] ?? '').endsWith('containerd-shim-runc-v2') && argv.includes(sandboxId)) return Number(entry);
  }
  throw new Error(`no containerd-shim-runc-v2 process for sandbox ${sandboxId}`);
}

export function processState(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
}

/** Signals are delivered asynchronously: wait until the process shows the expected state (T = stopped). */
export async function waitForState(pid: number, state: string, timeoutMs = 2_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  let current = processState(pid);
  while (current !== state && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    current = processState(pid);
  }
  return current;
}
