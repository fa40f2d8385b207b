// `pleg-doctor snapshot` in-process against the real node stack, through both SSH transports.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSnapshotCommand } from '../../../src/cli/commands/snapshot';

// --host alone never reads a kubeconfig: a gateway made here would be a regression.
const snapshotCommand = createSnapshotCommand(() => {
  throw new Error('snapshot --host must not open a cluster connection');
});
import { CliUsageError, type CliIo } from '../../../src/cli/io';
import { removeScratch, scratchDir, stack } from './kit';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';

const env = stack();
afterAll(removeScratch);

async function run(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const home = scratchDir();
  const io: CliIo = {
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    readStdin: () => Promise.resolve(''),
    signal: timeoutSignal(60_000),
    // A clean HOME: no ~/.ssh/config, no agent, no default keys; everything comes from the options.
    env: { HOME: home, USER: 'tester' },
    cwd: home,
  };
  const code = await snapshotCommand(argv, io);
  return { code, stdout: out.join(''), stderr: err.join('') };
}

function base(user: string, knownHosts: string): string[] {
  return ['--host', env.sshHost, '--port', String(env.sshPort), '--user', user, '--identity', env.sshKey, '--known-hosts', knownHosts, '--socket', env.criSocket];
}

function trustedCopy(): string {
  const file = join(scratchDir(), 'known_hosts');
  copyFileSync(env.sshKnownHosts, file);
  return file;
}

interface SnapshotOutput {
  host: string;
  transport: { kind: string; attempts: { kind: string; ok: boolean }[] };
  snapshot: { runtime?: { name: string }; sandboxes: unknown[]; containers: unknown[]; timings: { method: string; ms: number; ok: boolean }[]; errors: unknown[] };
  probes?: { kernel: { status: string } };
}

describe('pleg-doctor snapshot', () => {
  it('as root, speaks CRI through the stream-local forward and prints per-RPC timings', async () => {
    const result = await run([...base(env.sshRootUser, trustedCopy()), '--transport', 'forward']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as SnapshotOutput;
    expect(output.transport.kind).toBe('unixSocket');
    expect(output.snapshot.runtime?.name).toBe('containerd');
    expect(output.snapshot.sandboxes.length).toBeGreaterThan(0);
    const methods = new Set(output.snapshot.timings.map((t) => t.method));
    for (const method of ['Version', 'Status', 'ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus']) expect(methods).toContain(method);
    expect(output.snapshot.timings.every((t) => t.ok && t.ms >= 0)).toBe(true);
  });

  it('as the non-root user with a sudo rule, falls back to sudo -n socat over exec (auto), with probes', async () => {
    const result = await run([...base(env.sshUser, trustedCopy()), '--sudo', '--probes']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as SnapshotOutput;
    expect(output.host).toBe(`${env.sshUser}@${env.sshHost}:${env.sshPort}`);
    expect(output.transport.kind).toBe('execRelay');
    expect(output.transport.attempts[0]).toMatchObject({ kind: 'unixSocket', ok: false });
    expect(output.snapshot.errors).toEqual([]);
    expect(output.snapshot.sandboxes.length).toBeGreaterThan(0);
    expect(output.probes?.kernel.status).toBe('ok');
  });

  it('stops at an unknown host key with exit 2, prints the fingerprint and how to accept it, and writes nothing', async () => {
    const own = join(scratchDir(), 'own_known_hosts');
    const fingerprint = execFileSync('ssh-keygen', ['-lf', env.sshHostKeyPub], { encoding: 'utf8' }).split(' ')[1] ?? '';
    const refused = await run(base(env.sshRootUser, own));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`--accept-host-key ${fingerprint}`);
    expect(existsSync(own)).toBe(false);

    const wrongPrint = await run([...base(env.sshRootUser, own), '--accept-host-key', `SHA256:${'A'.repeat(43)}`]);
    expect(wrongPrint.code).toBe(2);
    expect(existsSync(own)).toBe(false);

    const accepted = await run([...base(env.sshRootUser, own), '--accept-host-key', fingerprint]);
    expect(accepted.code).toBe(0);
    expect(existsSync(own)).toBe(true);
    expect((await run(base(env.sshRootUser, own))).code).toBe(0);
  });

  it('reports a failed login with exit 1 and the methods tried', async () => {
    const dir = scratchDir();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'stranger')]);
    const result = await run(['--host', env.sshHost, '--port', String(env.sshPort), '--user', env.sshUser, '--identity', join(dir, 'stranger'), '--known-hosts', trustedCopy()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/authentication to .* failed; tried: publickey .*stranger/);
  });

  it('rejects bad options as usage errors', async () => {
    await expect(run([])).rejects.toBeInstanceOf(CliUsageError);
    await expect(run(['--host', 'h', '--transport', 'carrier-pigeon'])).rejects.toThrow(/--transport must be/);
    await expect(run(['--host', 'h', '--accept-host-key', 'md5:aa'])).rejects.toThrow(/SHA256/);
  });
});
