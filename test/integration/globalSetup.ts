// vitest globalSetup for the integration project: makes sure the real node stack (sshd, containerd, pods;
// test/support/node-stack.sh) is up. A stack somebody already started is reused and left running;
// one we start is torn down afterwards and must leave nothing behind.

import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { nodeStackDir, parseNodeStackEnv } from '../support/nodeStackEnv';

const SCRIPT = path.resolve(__dirname, '../support/node-stack.sh');
let startedHere = false;

function run(verb: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('bash', [SCRIPT, verb, ...args], { encoding: 'utf8', env: { ...process.env, NODE_STACK_DIR: nodeStackDir() }, timeout: 170_000 });
  return { status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function exportEnv(stdout: string): void {
  for (const [key, value] of Object.entries(parseNodeStackEnv(stdout))) process.env[`NODE_STACK_${key}`] = value;
  process.env['NODE_STACK_DIR'] = nodeStackDir();
}

export function setup(project: { provide?: (key: string, value: unknown) => void }): void {
  const status = run('status');
  if (status.status === 0) {
    exportEnv(status.stdout);
    project.provide?.('nodeStack', parseNodeStackEnv(status.stdout));
    return;
  }
  if (process.getuid?.() !== 0) {
    throw new Error('node stack is not up and starting it needs root: run sudo bash test/support/node-stack.sh up --pods 5');
  }
  const up = run('up', '--pods', '5');
  // Another run may have started the stack between our status check and this `up`, which then reuses it:
  // only a stack this process really started is ours to take down.
  startedHere = !/reusing it/.test(up.stderr);
  if (up.status !== 0) {
    const down = run('down');
    throw new Error(`node-stack.sh up failed (exit ${up.status}):\n${up.stderr}\n(down: exit ${down.status})`);
  }
  exportEnv(up.stdout);
  project.provide?.('nodeStack', parseNodeStackEnv(up.stdout));
}

export function teardown(): void {
  if (!startedHere) return;
  const down = run('down');
  const check = run('check');
  if (down.status !== 0 || check.status !== 0) {
    throw new Error(`node stack teardown left things behind (down exit ${down.status}, check exit ${check.status}):\n${down.stderr}\n${check.stderr}`);
  }
}
