// One connection per hop, shared across callers: every node (and every jump host) gets exactly one SSH
// connection, multiplexing exec channels and forwards. Jump hosts are shared between the nodes behind them.

import { SshConnection } from './connection';
import type { SshConnectionOptions } from './connection';
import type { ConnectionPlan, SshHop } from './sshConfig';

/** Every connection the pool opens shares these; the pool supplies the hop and the jump connection. */
export type SshPoolOptions = Omit<SshConnectionOptions, 'hop' | 'via'> & {
  /**
   * Close a connection once it has had no channel open for this long (undefined: keep connections until
   * dispose). An editor should not hold SSH sessions to production nodes open for hours after one look.
   */
  idleTimeoutMs?: number;
};

function hopKey(hop: SshHop): string {
  return `${hop.user}@${hop.host}:${hop.port}[${hop.identityFiles.join(',')}]`;
}

export class SshPool {
  private readonly connections = new Map<string, SshConnection>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly options: SshPoolOptions) {}

  /** The connection to the plan's target, creating it (and its jump connections) on first use. */
  get(plan: ConnectionPlan): SshConnection {
    let via: SshConnection | undefined;
    let key = '';
    // ssh_config UserKnownHostsFile entries of this plan are trusted too (read-only), as ssh itself does.
    const knownHosts = {
      readOnly: [...new Set([...this.options.knownHosts.readOnly, ...plan.userKnownHostsFiles])],
      own: this.options.knownHosts.own,
    };
    for (const hop of [...plan.jumps, plan.target]) {
      key = key === '' ? hopKey(hop) : `${key} > ${hopKey(hop)}`;
      let connection = this.connections.get(key);
      if (connection === undefined) {
        connection = new SshConnection({
          hop,
          ...(via !== undefined ? { via } : {}),
          knownHosts,
          confirmUnknownHost: this.options.confirmUnknownHost,
          auth: this.options.auth,
          ...(this.options.connectTimeoutMs !== undefined ? { connectTimeoutMs: this.options.connectTimeoutMs } : {}),
          ...(this.options.channelOpenTimeoutMs !== undefined ? { channelOpenTimeoutMs: this.options.channelOpenTimeoutMs } : {}),
          ...(this.options.keepaliveIntervalMs !== undefined ? { keepaliveIntervalMs: this.options.keepaliveIntervalMs } : {}),
          ...(this.options.keepaliveCountMax !== undefined ? { keepaliveCountMax: this.options.keepaliveCountMax } : {}),
          ...(this.options.logger !== undefined ? { logger: this.options.logger } : {}),
        });
        this.connections.set(key, connection);
        this.startSweeper();
      }
      via = connection;
    }
    if (via === undefined) throw new Error('connection plan has no target');
    return via;
  }

  get size(): number {
    return this.connections.size;
  }

  /**
   * Closes the connections idle for at least `idleMs`, targets first; returns how many. A jump host stays
   * busy while a connection through it is open, so it is closed by a later sweep.
   */
  closeIdle(idleMs: number, now = performance.now()): number {
    let closed = 0;
    for (const [key, connection] of [...this.connections].reverse()) {
      const idle = connection.idleMs(now);
      if (idle === undefined || idle < idleMs) continue;
      this.options.logger?.info(`closing the SSH connection to ${connection.description}: unused for ${Math.round(idle / 1000)} s`);
      connection.close();
      this.connections.delete(key);
      closed++;
    }
    if (this.connections.size === 0) this.stopSweeper();
    return closed;
  }

  /** Closes every connection, targets before the jump hosts they run through. */
  dispose(): void {
    this.stopSweeper();
    for (const connection of [...this.connections.values()].reverse()) connection.close();
    this.connections.clear();
  }

  private startSweeper(): void {
    const idleMs = this.options.idleTimeoutMs;
    if (idleMs === undefined || this.sweeper !== undefined) return;
    // Sweeping at a fraction of the timeout closes a connection at most that much late.
    this.sweeper = setInterval(() => this.closeIdle(idleMs), Math.max(50, Math.min(idleMs / 4, 60_000)));
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
