// The SSH half of "Open Kubelet Log from Node…", in the node access bundle (it needs ssh2): the node's SSH
// target from the node access settings and ~/.ssh/config, one leased connection of the shared pool (its
// host-key and passphrase prompts included), then journalctl through src/infra/ssh/kubeletJournal.ts.

import type { JournalOutcome, JournalWindow } from '../../core/parse/kubeletLogJournal';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { NodeAccessConfig } from '../../infra/ssh/nodeAccessSettings';
import { fetchKubeletJournal } from '../../infra/ssh/kubeletJournal';
import { resolveConnection } from '../nodeAccess/nodeSnapshotRunner';
import type { SshPoolHolder } from '../nodeAccess/sshPoolHolder';

export interface SshJournalRequest {
  entry: NodeEntry;
  config: NodeAccessConfig;
  window: JournalWindow;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

/** Rejects with the infra error (unreachable, auth, host key refused, cancelled) when no command ran. */
export async function fetchKubeletJournalOverSsh(pools: SshPoolHolder, request: SshJournalRequest): Promise<{ outcome: JournalOutcome; host: string }> {
  const lease = pools.lease(request.config);
  try {
    const { host, target } = await resolveConnection(request.entry, request.config, lease.pool);
    const outcome = await fetchKubeletJournal(host, request.window, { timeoutMs: request.timeoutMs, maxBytes: request.maxBytes, signal: request.signal, sudo: target.sudo });
    return { outcome, host: host.description };
  } finally {
    lease.release();
  }
}
