// The extension's one SshPool: created on the first snapshot, replaced when a node access setting changes.
// A replaced pool is not torn down under a running snapshot: it is retired, and its connections close as
// soon as the last snapshot using it is done.

import type { Logger } from '../../core/util/logger';
import type { PassphraseQuestion } from '../../infra/ssh/auth';
import type { ConfirmUnknownHost } from '../../infra/ssh/hostVerifier';
import type { NodeAccessConfig } from '../../infra/ssh/nodeAccessSettings';
import { SshPool } from '../../infra/ssh/pool';
import type { SecretStore } from '../../infra/ssh/secrets';

export interface SshPoolHolderOptions {
  /** ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts; ssh_config UserKnownHostsFile entries are added per plan by the pool. */
  readOnlyKnownHosts: string[];
  /** `{globalStorageUri}/known_hosts`: where accepted keys are written. */
  ownKnownHosts: string;
  confirmUnknownHost: ConfirmUnknownHost;
  /** Asked only when the server accepts an encrypted key; the question says which try it is and carries the cancellation. */
  getPassphrase: (keyPath: string, question?: PassphraseQuestion) => Promise<string | undefined>;
  secrets: SecretStore;
  logger: Logger;
  /** Read when a pool is created (SSH_AUTH_SOCK may change between sessions, not within one pool). */
  agentSocket: () => string | undefined;
}

export interface PoolLease {
  pool: SshPool;
  release(): void;
}

interface PoolEntry {
  pool: SshPool;
  users: number;
  retired: boolean;
}

export class SshPoolHolder {
  private current: PoolEntry | undefined;
  private disposed = false;

  constructor(private readonly options: SshPoolHolderOptions) {}

  /** The current pool (created if needed) for the duration of one snapshot; call release() when done. */
  lease(config: NodeAccessConfig): PoolLease {
    if (this.disposed) throw new Error('node access is shutting down');
    const entry = (this.current ??= { pool: this.create(config), users: 0, retired: false });
    entry.users++;
    let released = false;
    return {
      pool: entry.pool,
      release: () => {
        if (released) return;
        released = true;
        entry.users--;
        if (entry.retired && entry.users === 0) entry.pool.dispose();
      },
    };
  }

  /** Settings changed: the next snapshot gets a new pool; the old one closes when idle. */
  reset(): void {
    const entry = this.current;
    this.current = undefined;
    if (entry === undefined) return;
    entry.retired = true;
    if (entry.users === 0) entry.pool.dispose();
    this.options.logger.info('node access settings changed: SSH connections will be reopened on the next snapshot');
  }

  get hasPool(): boolean {
    return this.current !== undefined;
  }

  dispose(): void {
    this.disposed = true;
    const entry = this.current;
    this.current = undefined;
    // Deactivation: close everything now, running snapshots included (their calls fail and end).
    entry?.pool.dispose();
  }

  private create(config: NodeAccessConfig): SshPool {
    const agentSocket = config.useSshAgent ? this.options.agentSocket() : undefined;
    this.options.logger.debug(`creating the SSH connection pool (ssh-agent ${agentSocket !== undefined ? 'used' : 'not used'})`);
    return new SshPool({
      knownHosts: { readOnly: this.options.readOnlyKnownHosts, own: this.options.ownKnownHosts },
      confirmUnknownHost: this.options.confirmUnknownHost,
      auth: {
        ...(agentSocket !== undefined && agentSocket !== '' ? { agentSocket } : {}),
        getPassphrase: this.options.getPassphrase,
        secrets: this.options.secrets,
      },
      // The handshake gets at least 10 s, as in the CLI; the prompts (host key, passphrase) do not count.
      connectTimeoutMs: Math.max(config.callTimeoutMs, 10_000),
      logger: this.options.logger,
    });
  }
}
