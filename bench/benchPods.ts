// The set-up both node-stack benchmarks share (nodeAccess.ts, timelineFeed.ts): the node stack's settings,
// an SSH connection to it, and its pod count brought up to BENCH_PODS (default 110, the kubelet's default
// max-pods) with host-network sandboxes created through the CRI, which are removed again afterwards.

import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { boundedMap } from '../src/infra/cri/boundedMap';
import { SshConnection } from '../src/infra/ssh/connection';
import { createPod, mutatingClient, removePod } from '../test/support/criPods';
import { readNodeStackEnv, type NodeStackEnv } from '../test/support/nodeStackEnv';

/** An SSH connection to the node stack as root; unknown host keys are refused (its own known_hosts is never written). */
export function sshTo(env: NodeStackEnv): SshConnection {
  return new SshConnection({
    hop: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] },
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(tmpdir(), `pleg-bench-${randomBytes(4).toString('hex')}`, 'known_hosts') },
    confirmUnknownHost: () => Promise.resolve(false),
    auth: {},
  });
}

export interface PodStack {
  env: NodeStackEnv;
  ssh: SshConnection;
  /** The bench's report; the first line says how many pods the node has. */
  lines: string[];
}

/**
 * Runs `body` on the node stack with BENCH_PODS pods (the sandboxes it creates are named `name-<tag>-i`;
 * `label` starts the report),
 * then removes what it created and closes the connections, whatever `body` did. Returns the report lines.
 */
export async function withBenchPods(label: string, name: string, body: (stack: PodStack) => Promise<void>): Promise<string[]> {
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
      createPod(admin, { name: `${name}-${tag}-${i}`, uid: `${name}-${tag}-uid-${i}`, hostNetwork: true }, env.podLogDir),
    );
    for (const r of results) if (r.ok) created.push(r.value.sandboxId);
    const failedCreates = results.length - created.length;
    lines.push(`${label}: ${existing + created.length} pods (${created.length} created for the run${failedCreates > 0 ? `, ${failedCreates} could not be created` : ''}; target ${target})`);
    await body({ env, ssh, lines });
  } finally {
    await boundedMap(created, 8, (id) => removePod(admin, id));
    admin.close();
    ssh.close();
  }
  return lines;
}
