// One node's runtime state, collected the same way for the CLI and the VS Code host: connect (host key
// verified by the connection), optionally check `sudo -n`, pick a CRI transport, then take the snapshot and,
// if asked, run the read-only node probes alongside it. Every step honours the deadline and the signal.

import type { Logger } from '../../core/util/logger';
import { takeSnapshot, type CriSnapshot } from '../cri/snapshot';
import { selectTransport, type TransportAttempt, type TransportKind } from '../cri/transports/select';
import { runNodeProbes, type NodeProbeReport } from '../probes/nodeProbes';
import type { SshConnection } from '../ssh/connection';
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

export async function collectNodeSnapshot(connection: SshConnection, plan: ConnectionPlan, options: CollectNodeSnapshotOptions): Promise<NodeSnapshotReport> {
  const sig = options.signal !== undefined ? { signal: options.signal } : {};
  options.onStage?.('connecting');
  const started = performance.now();
  await connection.connect(options.signal);
  const connectMs = performance.now() - started;
  if (options.sudo) {
    options.onStage?.('checkingSudo');
    // `sudo -n -l` needs no password as soon as one rule is NOPASSWD, and runs nothing: a rule that only
    // allows socat (the usual setup) passes, where `sudo -n true` would not.
    const check = await connection.exec(['sudo', '-n', '-l'], { timeoutMs: options.deadlineMs, ...sig });
    if (check.exitCode !== 0) throw new SudoCheckError(connection.description, check.exitCode, check.stderr);
  }
  options.onStage?.('selectingTransport');
  const selection = await selectTransport(connection, {
    ...(options.endpoint !== undefined ? { endpoint: options.endpoint } : {}),
    transport: options.transport,
    deadlineMs: options.deadlineMs,
    probeTimeoutMs: options.deadlineMs,
    logger: options.logger,
    ...sig,
  });
  try {
    options.onStage?.('snapshot');
    const [snapshot, probes] = await Promise.all([
      takeSnapshot(selection.client, { deadlineMs: options.deadlineMs, ...sig }),
      options.probes ? runNodeProbes(connection, { timeoutMs: options.deadlineMs, ...sig }) : Promise.resolve(undefined),
    ]);
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
