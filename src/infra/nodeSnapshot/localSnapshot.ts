// The node side of a diagnosis when it runs on the node itself: the same CRI snapshot `collectNodeSnapshot`
// takes over SSH (takeSnapshot, per-container stats so a hung shim names itself), read from the runtime's
// socket on this machine (`pleg-doctor diagnose --cri-socket`), as `pleg-doctor timeline --cri-socket` does.
// No probes (they are shell commands on the node, run only over SSH).

import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../core/util/logger';
import type { CriReader } from '../cri/reader';
import { takeSnapshot } from '../cri/snapshot';
import { localSocketClient, socketPathOf } from '../cri/transports/localSocket';
import type { NodeSnapshotReport } from './collectNodeSnapshot';

export async function localNodeSnapshot(
  endpoint: string,
  options: { deadlineMs: number; logger: Logger; signal: AbortSignal; open?: () => CriReader; reason?: string },
): Promise<NodeSnapshotReport> {
  const path = socketPathOf(endpoint);
  // The agent opens its client on its one-call-at-a-time lane (infra/agent/criLane.ts).
  const client = options.open?.() ?? localSocketClient(endpoint, { logger: options.logger, defaultDeadlineMs: options.deadlineMs });
  const started = performance.now();
  try {
    const snapshot = await takeSnapshot(client, { deadlineMs: options.deadlineMs, perContainerStats: true, signal: options.signal });
    return {
      host: `${hostname()} (this machine)`,
      via: [],
      connectMs: Math.round((performance.now() - started) * 10) / 10,
      transport: { kind: 'unixSocket', endpoint: path, reason: options.reason ?? 'the runtime socket on this machine (--cri-socket)', attempts: [] },
      snapshot,
    };
  } finally {
    client.close();
  }
}
