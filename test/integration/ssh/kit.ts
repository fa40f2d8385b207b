// Shared helpers of the SSH integration tests: connections to the real sshd of the node stack.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readNodeStackEnv, type NodeStackEnv } from '../../support/nodeStackEnv';
import { SshConnection, type SshConnectionOptions } from '../../../src/infra/ssh/connection';
import type { ConfirmUnknownHost } from '../../../src/infra/ssh/hostVerifier';

export function stack(): NodeStackEnv {
  return readNodeStackEnv();
}

const scratch: string[] = [];

export function scratchDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-ssh-it-'));
  scratch.push(dir);
  return dir;
}

/** Removes every scratch directory this test file made (call from afterAll). */
export function removeScratch(): void {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export const neverAsked: ConfirmUnknownHost = (question) => Promise.reject(new Error(`unexpected host key question for ${question.host}:${question.port}`));

export function connect(
  env: NodeStackEnv,
  overrides: Partial<SshConnectionOptions> & { user?: string; port?: number; identityFiles?: string[] } = {},
): SshConnection {
  const { user, port, identityFiles, ...rest } = overrides;
  return new SshConnection({
    hop: { alias: env.sshHost, host: env.sshHost, port: port ?? env.sshPort, user: user ?? env.sshUser, identityFiles: identityFiles ?? [env.sshKey] },
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratchDir(), 'own_known_hosts') },
    confirmUnknownHost: neverAsked,
    auth: {},
    connectTimeoutMs: 10_000,
    ...rest,
  });
}

/** Lines of `ps -eo args` on the node (the stack runs on this machine, but we ask through SSH like a user would). */
export async function remoteProcesses(connection: SshConnection): Promise<string[]> {
  const result = await connection.exec(['ps', '-eo', 'args'], { timeoutMs: 10_000 });
  return result.stdout.split('\n');
}

/** Resolves once `condition()` holds; rejects after 15 s naming `what`. */
export async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 15_000;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
