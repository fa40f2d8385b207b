// vitest globalSetup for the real-cluster tests: hands the run a token; the first realk8s test that
// needs the cluster starts it (./cluster.ts) and writes that token to the owner file. At the end of the
// run, a cluster this run started is taken down and must leave nothing behind (real-cluster.sh check).
// Runs that include no realk8s test never start it.

import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { OWNER_FILE, script } from './cluster';

let token = '';

export function setup(): void {
  token = randomUUID();
  process.env['PLEG_REALK8S_RUN_TOKEN'] = token;
}

export function teardown(): void {
  let owner: string;
  try {
    owner = readFileSync(OWNER_FILE, 'utf8').trim();
  } catch {
    return;
  }
  if (owner !== token) return;
  rmSync(OWNER_FILE, { force: true });
  const down = script('down');
  const check = script('check');
  if (down.status !== 0 || check.status !== 0) {
    throw new Error(`the real cluster left things behind (down exit ${down.status}, check exit ${check.status}):\n${down.stderr.slice(-2000)}\n${check.stderr}`);
  }
}
