// `pleg-doctor timeline` over the real sshd and containerd of the node stack: a short recording with
// --ssh and no cluster (HOME has no kubeconfig, KUBECONFIG is unset: no current-context to poll), written
// as a session file that validates; Ctrl-C (the io signal) still writes it.

import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTimelineCommand } from '../../../src/cli/commands/timeline';
import type { CliIo } from '../../../src/cli/io';
import { parseTimelineSession } from '../../../src/core/timeline/validate';
import { createKubeGateway } from '../../../src/infra/kube/createGateway';
import { stack } from '../cri/kit';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';

const env = stack();
const home = mkdtempSync(join(tmpdir(), 'pleg-timeline-cli-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const command = createTimelineCommand(createKubeGateway);

async function run(argv: string[], signal: AbortSignal): Promise<{ code: number; stderr: string }> {
  const err: string[] = [];
  const io: CliIo = { stdout: { write: () => true }, stderr: { write: (s: string) => err.push(s) }, readStdin: () => Promise.resolve(''), signal, env: { HOME: home, USER: 'tester' }, cwd: home };
  return { code: await command(argv, io), stderr: err.join('') };
}

function argv(out: string, forWhat: string): string[] {
  const knownHosts = join(home, 'known_hosts');
  copyFileSync(env.sshKnownHosts, knownHosts);
  return ['--node', 'node-stack', '--ssh', '--host', env.sshHost, '--port', String(env.sshPort), '--user', env.sshRootUser, '--identity', env.sshKey, '--known-hosts', knownHosts, '--socket', env.criSocket, '--transport', 'forward', '--period', '300ms', '--runtime-request-timeout', '2s', '--threshold', '5s', '--for', forWhat, '--out', out];
}

describe('pleg-doctor timeline', () => {
  it('records relists with real latencies for --for and writes a valid session', async () => {
    const result = await run(argv('session.json', '2s'), timeoutSignal(60_000));
    expect(result.code).toBe(0);
    // No cluster: the way is SSH (the options given), said on stderr and kept in the session's `via`.
    expect(result.stderr).toContain('node access via SSH (SSH to the node is configured)');
    expect(result.stderr).toContain(`relists (0 failed), 0 kubelet scrapes of node-stack via SSH ${env.sshHost} written to session.json`);
    const parsed = parseTimelineSession(readFileSync(join(home, 'session.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    const { session } = parsed;
    expect(session.relists.length).toBeGreaterThanOrEqual(2);
    expect(session.relists.every((r) => r.ok && r.rpcs.every((c) => c.latencyMs > 0))).toBe(true);
    expect(session.settings).toMatchObject({ relistPeriodMs: 300, thresholdMs: 5_000, runtimeRequestTimeoutMs: 2_000 });
    expect(session.lacks.join(' ')).toMatch(/no cluster connection/u);
    expect(session.health.at(-1)?.healthy).toBe(true);
    expect(session.via).toBe(`via SSH ${env.sshHost}`);
  });

  it('an interrupt stops early, still writes the session, and exits 130', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('interrupted by SIGINT')), 1_500);
    const started = Date.now();
    const result = await run(argv('interrupted.json', '10m'), controller.signal);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(130);
    const parsed = parseTimelineSession(readFileSync(join(home, 'interrupted.json'), 'utf8'));
    expect(parsed.ok && parsed.session.relists.length > 0).toBe(true);
  });
});
