// One node's runtime state, collected the same way for the CLI and the VS Code host: connect (host key
// verified by the connection), optionally check `sudo -n`, pick a CRI transport, then take the snapshot and,
// if asked, run the read-only node probes alongside it. Every step honours the deadline and the signal.

import type { Logger } from '../../core/util/logger';
import { describeNotRead, takeSnapshot, type CriSnapshot } from '../cri/snapshot';
import { selectTransport, type TransportAttempt, type TransportKind } from '../cri/transports/select';
import { runNodeProbes, type NodeProbeReport } from '../probes/nodeProbes';
import type { SshConnection } from '../ssh/connection';
import { SshAbortedError } from '../ssh/errors';
import type { ConnectionPlan } from '../ssh/sshConfig';

export type CollectStage = 'connecting' | 'checkingSudo' | 'selectingTransport' | 'snapshot';

export interface CollectNodeSnapshotOptions {
  /** Socket path or unix:// endpoint; detected on the node when absent. */
  endpoint?: string;
  transport: 'auto' | TransportKind;
  /** Per-call deadline (CRI calls, probes, the sudo check). */
  deadlineMs: number;
  /** Check first that non-interactive `sudo -n` is allowed on the node. */
  sudo: boolean;
  probes: boolean;
  /** Total time for the CRI snapshot (default 30 s); calls not answered by then are listed as not read. */
  snapshotBudgetMs?: number;
  logger: Logger;
  signal?: AbortSignal;
  onStage?: (stage: CollectStage) => void;
}

export interface NodeSnapshotReport {
  host: string;
  via: string[];
  connectMs: number;
  transport: { kind: TransportKind; endpoint: string; reason: string; attempts: TransportAttempt[] };
  snapshot: CriSnapshot;
  probes?: NodeProbeReport;
}

/** `sudo -n` was asked for and the node refused it. */
export class SudoCheckError extends Error {
  override readonly name = 'SudoCheckError';
  constructor(
    readonly host: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`\`sudo -n -l\` failed on ${host} (exit ${String(exitCode)}): ${stderr.trim() || 'no output'}; add a NOPASSWD sudo rule for socat (see the README) or turn sudo off for this cluster`);
  }
}

const stageWords: Record<CollectStage, string> = {
  connecting: 'connecting',
  checkingSudo: 'checking sudo',
  selectingTransport: 'choosing a CRI transport',
  snapshot: 'reading the runtime',
};

/**
 * Cancellation has one shape whatever step it hits: an SshAbortedError (kind 'aborted'). Without this a
 * cancelled snapshot would come back as a "successful" report full of CANCELLED call errors, and a
 * cancelled transport probe as a TransportSelectionError.
 */
export async function collectNodeSnapshot(connection: SshConnection, plan: ConnectionPlan, options: CollectNodeSnapshotOptions): Promise<NodeSnapshotReport> {
  let stage: CollectStage = 'connecting';
  const enter = (next: CollectStage): void => {
    stage = next;
    options.onStage?.(next);
  };
  const cancelled = (cause: unknown): SshAbortedError => new SshAbortedError(connection.description, `CRI snapshot (while ${stageWords[stage]})`, cause);
  try {
    const report = await collect(connection, plan, options, enter);
    if (options.signal?.aborted === true) throw cancelled(options.signal.reason);
    return report;
  } catch (error) {
    if (options.signal?.aborted === true && !(error instanceof SshAbortedError)) throw cancelled(error);
    throw error;
  }
}

async function collect(connection: SshConnection, plan: ConnectionPlan, options: CollectNodeSnapshotOptions, enter: (stage: CollectStage) => void): Promise<NodeSnapshotReport> {
  const sig = options.signal !== undefined ? { signal: options.signal } : {};
  enter('connecting');
  const started = performance.now();
  await connection.connect(options.signal);
  const connectMs = performance.now() - started;
  if (options.sudo) {
    enter('checkingSudo');
    // `sudo -n -l` needs no password as soon as one rule is NOPASSWD, and runs nothing: a rule that only
    // allows socat (the usual setup) passes, where `sudo -n true` would not.
    const check = await connection.exec(['sudo', '-n', '-l'], { timeoutMs: options.deadlineMs, ...sig });
    if (check.exitCode !== 0) throw new SudoCheckError(connection.description, check.exitCode, check.stderr);
  }
  enter('selectingTransport');
  const selection = await selectTransport(connection, {
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
    transport: options.transport,
    deadlineMs: options.deadlineMs,
    probeTimeoutMs: options.deadlineMs,
    logger: options.logger,
    ...sig,
  });
  try {
    enter('snapshot');
    const [snapshot, probes] = await Promise.all([
      // Per-container stats reach each running container's shim, so a hung one times out on a call naming it.
      takeSnapshot(selection.client, {
        deadlineMs: options.deadlineMs,
        perContainerStats: true,
        ...(options.snapshotBudgetMs !== undefined ? { budgetMs: options.snapshotBudgetMs } : {}),
        ...sig,
      }),
      options.probes ? runNodeProbes(connection, { timeoutMs: options.deadlineMs, sudo: options.sudo, ...sig }) : Promise.resolve(undefined),
    ]);
    const cut = describeNotRead(snapshot.budget);
    if (snapshot.budget?.exhausted === true) {
      options.logger.warn(`CRI snapshot of ${connection.description}: the ${snapshot.budget.ms} ms budget ran out; not read: ${cut ?? 'nothing pending'}`);
    }
    return {
      host: connection.description,
      via: plan.jumps.map((hop) => `${hop.user}@${hop.host}:${hop.port}`),
      connectMs: Math.round(connectMs * 10) / 10,
      transport: { kind: selection.kind, endpoint: selection.endpoint, reason: selection.reason, attempts: selection.attempts },
      snapshot,
      ...(probes !== undefined ? { probes } : {}),
    };
  } finally {
    selection.client.close();
  }
}
