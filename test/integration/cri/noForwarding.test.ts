// A node whose sshd refuses stream-local forwarding: a second real sshd, started here with the node stack's
// host key and authorized_keys, on its own loopback port. Root would normally get the forwarded socket;
// here automatic selection must fall back to the socat exec relay, say why, and still list exactly what
// containerd has. Forcing the forward must fail with a TransportSelectionError that names the refusal.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { freePort } from '../../support/stackText.mjs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/core/util/logger';
import { LocalHost } from '../../support/localHost';
import { takeSnapshot } from '../../../src/infra/cri/snapshot';
import { TransportSelectionError } from '../../../src/infra/cri/transports/select';
import { unixSocketClient } from '../../../src/infra/cri/transports/unixSocket';
import { collectNodeSnapshot, type CollectNodeSnapshotOptions } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import { SshConnection } from '../../../src/infra/ssh/connection';
import type { ConnectionPlan, SshHop } from '../../../src/infra/ssh/sshConfig';
import { neverAsked } from '../ssh/kit';
import { ctrContainerIds, stack } from './kit';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';

const env = stack();
const refused = 'the SSH server refused to forward the socket (stream-local forwarding disabled?)';

interface TestSshd {
  port: number;
  pid: number;
  dir: string;
  log: () => string;
  stop: () => Promise<void>;
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The stack's sshd_config with our port, pid file and forwarding lines. Everything else (host key,
 * authorized_keys, key-only auth, root login) is the stack's, so the only difference is forwarding.
 */
async function startSshd(forwarding: string[]): Promise<TestSshd> {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-nofwd-sshd-'));
  const port = await freePort();
  const base = readFileSync(join(env.dir, 'ssh', 'sshd_config'), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(Port|PidFile|AllowTcpForwarding|AllowStreamLocalForwarding|DisableForwarding)\b/i.test(line));
  const config = join(dir, 'sshd_config');
  writeFileSync(config, [`Port ${port}`, `PidFile ${join(dir, 'sshd.pid')}`, ...base, ...forwarding, ''].join('\n'));
  execFileSync('/usr/sbin/sshd', ['-t', '-f', config]);
  const logFile = join(dir, 'sshd.log');
  const logFd = openSync(logFile, 'a');
  // Absolute path: sshd re-executes itself. -D keeps it our child, so its PID is the one we record.
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', logFd] });
  closeSync(logFd);
  const pid = child.pid;
  if (pid === undefined) throw new Error('sshd did not start');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = (): string => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
  const stop = async (): Promise<void> => {
    if (alive(pid)) process.kill(pid, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100 && !log().includes('Server listening'); i++) {
    if (!alive(pid)) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!log().includes('Server listening')) {
    const text = log();
    await stop();
    throw new Error(`test sshd did not start listening on 127.0.0.1:${port}:\n${text}`);
  }
  return { port, pid, dir, log, stop };
}

/** The stack's host key, trusted for our port only: nothing is accepted unasked (neverAsked fails the test). */
function rootConnection(sshd: TestSshd): { connection: SshConnection; plan: ConnectionPlan } {
  const knownHosts = join(sshd.dir, 'known_hosts');
  const hostKey = readFileSync(env.sshHostKeyPub, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
  writeFileSync(knownHosts, `[127.0.0.1]:${sshd.port} ${hostKey}\n`);
  const hop: SshHop = { alias: env.sshHost, host: env.sshHost, port: sshd.port, user: env.sshRootUser, identityFiles: [env.sshKey] };
  const connection = new SshConnection({
    hop,
    knownHosts: { readOnly: [knownHosts], own: join(sshd.dir, 'own_known_hosts') },
    confirmUnknownHost: neverAsked,
    auth: {},
    connectTimeoutMs: 10_000,
  });
  return { connection, plan: { target: hop, jumps: [], userKnownHostsFiles: [], warnings: [] } };
}

function capturingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at =
    (level: string) =>
    (message: string | Error): void => {
      lines.push(`${level} ${message instanceof Error ? message.message : message}`);
    };
  return { logger: { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function localListing(): Promise<Set<string>> {
  const client = unixSocketClient(new LocalHost(), env.criSocket, { defaultDeadlineMs: 10_000 });
  try {
    const snapshot = await takeSnapshot(client);
    expect(snapshot.errors).toEqual([]);
    return new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)]);
  } finally {
    client.close();
  }
}

const variants = [
  { name: 'DisableForwarding yes', lines: ['DisableForwarding yes'] },
  // Only stream-local is off: TCP forwarding stays allowed, which must not confuse the diagnosis.
  { name: 'AllowStreamLocalForwarding no', lines: ['AllowTcpForwarding yes', 'AllowStreamLocalForwarding no'] },
];

describe.each(variants)('as root on an sshd with $name', ({ lines }) => {
  let sshd: TestSshd;
  const connections: SshConnection[] = [];
  const open = (): { connection: SshConnection; plan: ConnectionPlan } => {
    const opened = rootConnection(sshd);
    connections.push(opened.connection);
    return opened;
  };
  const options = (logger: Logger, overrides: Partial<CollectNodeSnapshotOptions> = {}): CollectNodeSnapshotOptions => ({
    endpoint: `unix://${env.criSocket}`,
    transport: 'auto',
    deadlineMs: 10_000,
    sudo: false,
    probes: false,
    logger,
    signal: timeoutSignal(60_000),
    ...overrides,
  });

  beforeAll(async () => {
    sshd = await startSshd(lines);
  });

  afterAll(async () => {
    for (const connection of connections) connection.close();
    // Give the per-connection sshd processes a moment to see the close before the listener goes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { pid, dir } = sshd;
    await sshd.stop();
    expect(alive(pid)).toBe(false);
    expect(existsSync(dir)).toBe(false);
  });

  it('automatic selection falls back to the exec relay, says that forwarding was refused, and lists exactly what containerd has', async () => {
    const { connection, plan } = open();
    const { logger, lines: logged } = capturingLogger();
    const report = await collectNodeSnapshot(connection, plan, options(logger));

    expect(report.host).toBe(`root@127.0.0.1:${sshd.port}`);
    expect(report.transport.kind).toBe('execRelay');
    expect(report.transport.endpoint).toBe(`unix://${env.criSocket}`);
    expect(report.transport.reason).toBe(`${refused}: relaying through socat on the node`);
    expect(report.transport.attempts.map((a) => `${a.kind}:${a.ok}`)).toEqual(['unixSocket:false', 'execRelay:true']);
    expect(report.transport.attempts[0]?.detail).toMatch(/^the SSH server refused to forward the socket \(stream-local forwarding disabled\?\) \(the socket exists and is reachable through execRelay\); the channel error was: .*open failed/);
    // sshd itself says it refused the channel: the fallback is for the reason we report.
    expect(sshd.log()).toContain(`refused streamlocal port forward: originator  port 0, target ${env.criSocket}`);
    // The reason is logged where a user looks (info), with the host it applies to.
    expect(logged).toContain(`info CRI transport execRelay for root@127.0.0.1:${sshd.port}: ${refused}: relaying through socat on the node`);
    expect(logged.some((line) => line.startsWith('info CRI socket diagnosis: ') && line.includes('is a socket uid 0 may open'))).toBe(true);

    const { snapshot } = report;
    expect(snapshot.errors).toEqual([]);
    expect(snapshot.source).toContain('socat STDIO UNIX-CONNECT:');
    const listed = new Set([...snapshot.sandboxes.map((s) => s.id), ...snapshot.containers.map((c) => c.id)]);
    expect(listed.size).toBeGreaterThan(0);
    expect(listed).toEqual(await localListing());
    expect(listed).toEqual(ctrContainerIds(env));
    expect(snapshot.sandboxStatuses.map((s) => s.id).sort()).toEqual(snapshot.sandboxes.map((s) => s.id).sort());
  });

  it('forcing the stream-local transport is a TransportSelectionError that names the refusal and the way out', async () => {
    const { connection, plan } = open();
    const { logger } = capturingLogger();
    const error = await collectNodeSnapshot(connection, plan, options(logger, { transport: 'unixSocket' })).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransportSelectionError);
    const selection = error as TransportSelectionError;
    expect(selection.message).toMatch(
      new RegExp(
        `^cannot reach CRI at ${env.criSocket.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} through a stream-local forward: the socket exists and uid 0 may open it, ` +
          `so the SSH server refused to forward the socket \\(stream-local forwarding disabled\\?\\), or nothing listens on it; ` +
          `check AllowStreamLocalForwarding / DisableForwarding in the node's sshd_config, or use the exec transport`,
      ),
    );
    expect(selection.diagnosis?.problem).toBe('accessible');
    expect(selection.attempts).toHaveLength(1);
    expect(selection.attempts[0]).toMatchObject({ kind: 'unixSocket', ok: false });
    expect(selection.attempts[0]?.detail.startsWith(refused)).toBe(true);
    // Forced means forced: no relay was started behind the user's back.
    expect(sshd.log()).toContain('refused streamlocal port forward');
  });
});
