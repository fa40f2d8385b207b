// The two findings that matter most on a bad night, through the path users take: the real sshd of the
// node stack, ssh2, CRI over the SSH connection, collectNodeSnapshot as "Take CRI Snapshot" and the CLI
// call it. A SIGSTOPped containerd must become a runtimeUnresponsive finding within one deadline, not a
// hang; a SIGSTOPped shim must become a hungShim finding naming its pod, while the runtime's lists stay fast.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/util/logger';
import { collectNodeSnapshot } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import { SshConnection } from '../../../src/infra/ssh/connection';
import type { ConnectionPlan } from '../../../src/infra/ssh/sshConfig';
import { shimPidFor, stack, waitForState, withTestPod } from './kit';

const env = stack();
const scratch = mkdtempSync(join(tmpdir(), 'pleg-frozen-ssh-'));
const connections: SshConnection[] = [];
afterAll(() => {
  for (const c of connections) c.close();
  rmSync(scratch, { recursive: true, force: true });
});

function rootOverSsh(): { connection: SshConnection; plan: ConnectionPlan } {
  const hop = { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshRootUser, identityFiles: [env.sshKey] };
  const connection = new SshConnection({
    hop,
    knownHosts: { readOnly: [env.sshKnownHosts], own: join(scratch, 'known_hosts') },
    confirmUnknownHost: () => Promise.reject(new Error('the node stack host key must already be known')),
    auth: {},
    connectTimeoutMs: 10_000,
  });
  connections.push(connection);
  return { connection, plan: { target: hop, jumps: [], userKnownHostsFiles: [], warnings: [] } };
}

describe('findings through ssh2 on the real node stack', () => {
  it('a frozen containerd: every runtime call times out within one deadline, reported as runtimeUnresponsive', async () => {
    const DEADLINE_MS = 2_000;
    const { connection, plan } = rootOverSsh();
    const options = { endpoint: env.criSocket, transport: 'unixSocket' as const, deadlineMs: DEADLINE_MS, sudo: false, probes: false, logger: silentLogger };
    const before = await collectNodeSnapshot(connection, plan, options);
    expect(before.snapshot.errors).toEqual([]);

    process.kill(env.containerdPid, 'SIGSTOP');
    let frozen;
    let elapsed: number;
    try {
      expect(await waitForState(env.containerdPid, 'T')).toBe('T');
      const started = performance.now();
      frozen = await collectNodeSnapshot(connection, plan, options);
      elapsed = performance.now() - started;
    } finally {
      process.kill(env.containerdPid, 'SIGCONT');
    }
    expect(frozen.transport.kind).toBe('unixSocket');
    expect(frozen.snapshot.errors.map((e) => `${e.method}:${e.codeName}`).sort()).toEqual(
      ['ListContainers:DEADLINE_EXCEEDED', 'ListPodSandbox:DEADLINE_EXCEEDED', 'Status:DEADLINE_EXCEEDED', 'Version:DEADLINE_EXCEEDED'],
    );
    expect(frozen.snapshot.findings.map((f) => f.kind)).toContain('runtimeUnresponsive');
    // Transport selection's probe and the four parallel calls: two deadlines, not one per call.
    expect(elapsed).toBeLessThan(2 * DEADLINE_MS + 2_000);

    const after = await collectNodeSnapshot(connection, plan, { ...options, deadlineMs: 10_000 });
    expect(after.snapshot.errors).toEqual([]);
    expect(after.snapshot.runtime?.name).toBe('containerd');
  });

  it('a frozen shim: the snapshot names its pod as a hungShim while the runtime lists stay fast', async () => {
    const DEADLINE_MS = 2_000;
    const { pod, cleanup } = await withTestPod(env);
    const shim = shimPidFor(pod.sandboxId);
    const { connection, plan } = rootOverSsh();
    try {
      process.kill(shim, 'SIGSTOP');
      let report;
      try {
        expect(await waitForState(shim, 'T')).toBe('T');
        report = await collectNodeSnapshot(connection, plan, { endpoint: env.criSocket, transport: 'unixSocket', deadlineMs: DEADLINE_MS, sudo: false, probes: false, logger: silentLogger });
      } finally {
        process.kill(shim, 'SIGCONT');
      }
      const { snapshot } = report;
      for (const method of ['Version', 'ListPodSandbox', 'ListContainers']) {
        const timing = snapshot.timings.find((t) => t.method === method);
        expect(timing?.ok).toBe(true);
        expect(timing?.ms).toBeLessThan(1_000);
      }
      expect(snapshot.sandboxes.map((s) => s.id)).toContain(pod.sandboxId);
      expect(snapshot.errors.some((e) => e.codeName === 'DEADLINE_EXCEEDED' && (e.id === pod.sandboxId || e.id === pod.containerId))).toBe(true);
      expect(snapshot.findings).toContainEqual(expect.objectContaining({ kind: 'hungShim', sandboxId: pod.sandboxId, podName: pod.spec.name, podNamespace: 'plegtest' }));
      expect(snapshot.findings.some((f) => f.kind === 'runtimeUnresponsive')).toBe(false);
    } finally {
      await cleanup();
    }
  });
});
