// Cancelling collectNodeSnapshot on the real node stack, as the non-root user (so the CRI path is the
// `sudo -n socat` relay, a real process on the node): while connecting (the host-key question is open),
// while choosing a transport (the relay's Version probe is waiting on a runtime that never answers) and
// while reading the runtime (requests held back by a slow relay). Each time the call rejects within a
// second with SshAbortedError, nothing is left running on the node, and the same pooled connection then
// takes a full snapshot. The runtimes we slow down are our own sockets in front of containerd: the shared
// containerd itself is never stopped.

import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/core/util/logger';
import { collectNodeSnapshot, type CollectNodeSnapshotOptions, type CollectStage } from '../../../src/infra/nodeSnapshot/collectNodeSnapshot';
import type { SshConnection } from '../../../src/infra/ssh/connection';
import { SshAbortedError } from '../../../src/infra/ssh/errors';
import type { ConfirmUnknownHost } from '../../../src/infra/ssh/hostVerifier';
import { SshPool } from '../../../src/infra/ssh/pool';
import type { ConnectionPlan } from '../../../src/infra/ssh/sshConfig';
import { ctrContainerIds } from '../cri/kit';
import { neverAsked, remoteProcesses, removeScratch, scratchDir, stack } from './kit';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';

const env = stack();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Sockets we own in front of the real containerd: one that forwards with a settable delay, one that never answers. */
interface FakeRuntimes {
  dir: string;
  slow: string;
  hung: string;
  setDelay: (ms: number) => void;
  close: () => Promise<void>;
}

async function startRuntimes(): Promise<FakeRuntimes> {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-cancel-cri-'));
  // The relay runs as root through sudo, but `ls -ln` of the diagnosis runs as the test user.
  chmodSync(dir, 0o755);
  const slow = join(dir, 'slow-cri.sock');
  const hung = join(dir, 'hung-cri.sock');
  const sockets = new Set<Socket>();
  const track = (socket: Socket): Socket => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  let delayMs = 0;
  const slowServer = createServer((downstream) => {
    track(downstream);
    const upstream = track(netConnect(env.criSocket));
    // Requests are held back by the delay current when they arrive, in order; replies pass straight through.
    let queue = Promise.resolve();
    downstream.on('data', (chunk: Buffer) => {
      const wait = delayMs;
      queue = queue.then(() => sleep(wait)).then(() => {
        if (!upstream.destroyed) upstream.write(chunk);
      });
    });
    upstream.pipe(downstream);
    downstream.once('close', () => upstream.destroy());
    upstream.once('close', () => downstream.destroy());
  });
  const hungServer = createServer((socket) => {
    track(socket);
  });
  const listen = (server: Server, path: string): Promise<void> => new Promise((resolve, reject) => server.once('error', reject).listen(path, resolve));
  await listen(slowServer, slow);
  await listen(hungServer, hung);
  return {
    dir,
    slow,
    hung,
    setDelay: (ms) => {
      delayMs = ms;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all([slowServer, hungServer].map((server) => new Promise((resolve) => server.close(resolve))));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Processes on the node (this machine) whose command line names `needle`, e.g. our relay's socket. */
function localProcessesNaming(needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      if (cmdline.includes(needle)) found.push(`${entry}: ${cmdline}`);
    } catch {
      // Exited while we looked.
    }
  }
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/**
 * What our SSH connection still runs on the node: every exec channel is a child of the connection's sshd
 * session process, which we learn as the parent of a command run through that same connection (which
 * also proves the connection still works). The node is this machine, so /proc tells us its children.
 */
async function channelsLeft(connection: SshConnection, withinMs = 3_000): Promise<string[]> {
  const probe = await connection.exec(['sh', '-c', 'echo "$PPID"'], { timeoutMs: 10_000 });
  const session = Number(probe.stdout.trim());
  expect(session).toBeGreaterThan(1);
  const until = Date.now() + withinMs;
  for (;;) {
    const children = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && parentOf(Number(entry)) === session)
      .map((entry) => {
        try {
          return `${entry}: ${readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
        } catch {
          return `${entry}: (exited)`;
        }
      });
    if (children.length === 0 || Date.now() >= until) return children;
    await sleep(100);
  }
}

/** Relay processes naming `needle` anywhere on the node, asked through the same SSH connection. */
async function leftOnNode(connection: SshConnection, needle: string, withinMs = 3_000): Promise<string[]> {
  const until = Date.now() + withinMs;
  let left: string[];
  do {
    left = (await remoteProcesses(connection)).filter((line) => line.includes(needle) && !line.startsWith('ps '));
    if (left.length === 0) return left;
    await sleep(100);
  } while (Date.now() < until);
  return left;
}

interface Outcome {
  error: unknown;
  /** ms from abort() to the rejection. */
  afterAbortMs: number;
  stages: CollectStage[];
}

describe('cancelling collectNodeSnapshot on the real node stack', () => {
  let runtimes: FakeRuntimes;
  const pools: SshPool[] = [];

  const plan: ConnectionPlan = {
    target: { alias: env.sshHost, host: env.sshHost, port: env.sshPort, user: env.sshUser, identityFiles: [env.sshKey] },
    jumps: [],
    userKnownHostsFiles: [],
    warnings: [],
  };
  const newPool = (options: { trusted: boolean; confirm?: ConfirmUnknownHost; own?: string }): SshPool => {
    const pool = new SshPool({
      knownHosts: { readOnly: options.trusted ? [env.sshKnownHosts] : [], own: options.own ?? join(scratchDir(), 'own_known_hosts') },
      confirmUnknownHost: options.confirm ?? neverAsked,
      auth: {},
      connectTimeoutMs: 10_000,
    });
    pools.push(pool);
    return pool;
  };
  const options = (endpoint: string, signal: AbortSignal, stages: CollectStage[]): CollectNodeSnapshotOptions => ({
    endpoint,
    transport: 'auto',
    deadlineMs: 10_000,
    sudo: true,
    probes: false,
    logger: silentLogger,
    signal,
    onStage: (stage) => stages.push(stage),
  });

  /** Runs a collection that the hooks abort, and times the rejection from the moment of abort(). */
  async function cancelled(
    connection: SshConnection,
    endpoint: string,
    hooks: { started?: (abort: () => void) => void; stage?: (stage: CollectStage, abort: () => void) => void },
  ): Promise<Outcome> {
    const controller = new AbortController();
    const stages: CollectStage[] = [];
    let abortedAt: number | undefined;
    const abort = (): void => {
      abortedAt = performance.now();
      controller.abort(new Error('cancelled by the test'));
    };
    const base = options(endpoint, controller.signal, stages);
    const running = collectNodeSnapshot(connection, plan, {
      ...base,
      onStage: (stage) => {
        stages.push(stage);
        hooks.stage?.(stage, abort);
      },
    });
    hooks.started?.(abort);
    const error = await running.then(
      () => undefined,
      (e: unknown) => e,
    );
    const settledAt = performance.now();
    expect(abortedAt, 'the test never aborted').toBeDefined();
    return { error, afterAbortMs: settledAt - (abortedAt ?? settledAt), stages };
  }

  /** After a cancellation the same pooled connection takes a complete snapshot of the real runtime. */
  async function freshSnapshotWorks(pool: SshPool, connection: SshConnection): Promise<void> {
    expect(pool.get(plan)).toBe(connection);
    runtimes.setDelay(0);
    const stages: CollectStage[] = [];
    const report = await collectNodeSnapshot(connection, plan, options(runtimes.slow, timeoutSignal(60_000), stages));
    expect(stages).toEqual(['connecting', 'checkingSudo', 'selectingTransport', 'snapshot']);
    expect(report.transport.kind).toBe('execRelay');
    expect(report.snapshot.errors).toEqual([]);
    const listed = new Set([...report.snapshot.sandboxes.map((s) => s.id), ...report.snapshot.containers.map((c) => c.id)]);
    expect(listed.size).toBeGreaterThan(0);
    expect(listed).toEqual(ctrContainerIds(env));
    // Still the one TCP connection: the cancellation did not cost a reconnect.
    expect(connection.stats.connects).toBe(1);
  }

  beforeAll(async () => {
    runtimes = await startRuntimes();
  });

  afterAll(async () => {
    for (const pool of pools) pool.dispose();
    await runtimes.close();
    removeScratch();
    // Closing a connection ends its sshd session, which then ends the session's processes: give that the
    // same few seconds the per-test checks give, then nothing may be left.
    const until = Date.now() + 5_000;
    while (localProcessesNaming(runtimes.dir).length > 0 && Date.now() < until) await sleep(100);
    expect(localProcessesNaming(runtimes.dir)).toEqual([]);
  });

  it('while connecting (the host-key question is still open): rejects at once, a later "Trust" writes nothing, and the connection is usable afterwards', async () => {
    let asked = 0;
    let abortNow: (() => void) | undefined;
    let lateTrust: Promise<void> | undefined;
    // The question is the one moment a connect reliably waits: cancel then, answer "trust" a little later
    // (the user clicks the modal after having cancelled the progress notification). The next snapshot asks
    // again, and that answer counts.
    const confirm: ConfirmUnknownHost = async () => {
      asked++;
      if (asked > 1) return true;
      abortNow?.();
      lateTrust = sleep(300);
      await lateTrust;
      return true;
    };
    const own = join(scratchDir(), 'own_known_hosts');
    const pool = newPool({ trusted: false, confirm, own });
    const connection = pool.get(plan);
    const outcome = await cancelled(connection, runtimes.slow, {
      started: (abort) => {
        abortNow = abort;
      },
    });
    expect(outcome.error).toBeInstanceOf(SshAbortedError);
    expect((outcome.error as Error).message).toBe(`connecting on ${env.sshUser}@${env.sshHost}:${env.sshPort} was cancelled`);
    expect(outcome.afterAbortMs).toBeLessThan(1_000);
    expect(outcome.stages).toEqual(['connecting']);
    await lateTrust;
    await sleep(100);
    expect(existsSync(own)).toBe(false);
    expect(connection.connected).toBe(false);
    await freshSnapshotWorks(pool, connection);
    expect(asked).toBe(2);
    expect(readFileSync(own, 'utf8')).toMatch(/^\[127\.0\.0\.1\]:\d+ ssh-ed25519 /);
  });

  it('while choosing a transport (the relay waits on a runtime that never answers): rejects at once and leaves no relay', async () => {
    const pool = newPool({ trusted: true });
    const connection = pool.get(plan);
    const outcome = await cancelled(connection, runtimes.hung, {
      stage: (stage, abort) => {
        if (stage !== 'selectingTransport') return;
        // Abort once the relay to the silent socket runs on the node: its Version probe is then in flight.
        const poll = setInterval(() => {
          if (localProcessesNaming(`socat STDIO UNIX-CONNECT:${runtimes.hung}`).length > 0) {
            clearInterval(poll);
            setTimeout(abort, 100);
          }
        }, 20);
        setTimeout(() => clearInterval(poll), 30_000);
      },
    });
    expect(outcome.error).toBeInstanceOf(SshAbortedError);
    expect((outcome.error as Error).message).toBe(`CRI snapshot (while choosing a CRI transport) on ${env.sshUser}@${env.sshHost}:${env.sshPort} was cancelled`);
    expect(outcome.afterAbortMs).toBeLessThan(1_000);
    expect(outcome.stages).toEqual(['connecting', 'checkingSudo', 'selectingTransport']);
    expect(await leftOnNode(connection, runtimes.hung)).toEqual([]);
    expect(await channelsLeft(connection)).toEqual([]);
    await freshSnapshotWorks(pool, connection);
  });

  it('mid-snapshot (requests held back by a slow runtime): rejects at once and leaves no relay', async () => {
    const pool = newPool({ trusted: true });
    const connection = pool.get(plan);
    runtimes.setDelay(0);
    let relaysAtAbort = 0;
    const outcome = await cancelled(connection, runtimes.slow, {
      stage: (stage, abort) => {
        if (stage !== 'snapshot') return;
        // The transport is chosen (its Version probe went through): from now on the runtime is slow, and
        // we cancel while the snapshot's calls wait for it.
        runtimes.setDelay(3_000);
        setTimeout(() => {
          relaysAtAbort = localProcessesNaming(`socat STDIO UNIX-CONNECT:${runtimes.slow}`).length;
          abort();
        }, 150);
      },
    });
    // The relay was really there when we cancelled, so "none left" below is a real check.
    expect(relaysAtAbort).toBeGreaterThan(0);
    expect(outcome.error).toBeInstanceOf(SshAbortedError);
    expect((outcome.error as Error).message).toBe(`CRI snapshot (while reading the runtime) on ${env.sshUser}@${env.sshHost}:${env.sshPort} was cancelled`);
    expect(outcome.afterAbortMs).toBeLessThan(1_000);
    expect(outcome.stages).toEqual(['connecting', 'checkingSudo', 'selectingTransport', 'snapshot']);
    expect(await leftOnNode(connection, runtimes.slow)).toEqual([]);
    expect(await channelsLeft(connection)).toEqual([]);
    await freshSnapshotWorks(pool, connection);
  });
});
