// One connection per hop, shared across callers: every node (and every jump host) gets exactly one SSH
// connection, multiplexing exec channels and forwards. Jump hosts are shared between the nodes behind them.

import { SshConnection } from './connection';
import type { SshConnectionOptions } from './connection';
import type { ConnectionPlan, SshHop } from './sshConfig';

/** Every connection the pool opens shares these; the pool supplies the hop and the jump connection. */
export type SshPoolOptions = Omit<SshConnectionOptions, 'hop' | 'via'>;

function hopKey(hop: SshHop): string {
  return `${hop.user}@${hop.host}:${hop.port}[${hop.identityFiles.join(',')}]`;
}

export class SshPool {
  private readonly connections = new Map<string, SshConnection>();

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
      }
      via = connection;
    }
    if (via === undefined) throw new Error('connection plan has no target');
    return via;
  }

  get size(): number {
    return this.connections.size;
  }

  /** Closes every connection, targets before the jump hosts they run through. */
  dispose(): void {
    for (const connection of [...this.connections.values()].reverse()) connection.close();
    this.connections.clear();
  }
}
