// The Node's own side of a live timeline: its Ready condition, node-problem-detector's PLEGAtRisk and every
// status post the kubelet makes (the Ready heartbeat moving), read from the Node object once or from a watch
// of that one object (gateway.watchNodes, the reflector the tree's watch uses too). The SSH feed
// (liveFeed.ts) and the editor's panel on an agent's session (host/timeline/liveSource.ts) both take these
// facts from here, so the Ready lane and the headline follow the same posts the tree shows, whichever way
// reaches the node's runtime, and go on when that way falls silent.

import type { KubeNode } from '../../core/kube/objects';
import type { SessionDelta, SessionReady } from '../../core/timeline/session';
import type { Logger } from '../../core/util/logger';
import type { KubeGateway } from '../kube/gateway';
import { readNode, type NodeReading } from './kubeletPoller';

/** What a timeline records of successive readings of one Node: only what changed since the last. */
export class NodeStatusChanges {
  private lastReady: Omit<SessionReady, 'atMs'> | undefined;
  private lastHeartbeat: string | undefined;
  /** PLEGAtRisk as last recorded, compared whole (JSON): its heartbeat moving is news too. */
  private lastAtRisk: string | undefined;
  kubeletVersion: string | undefined;
  containerRuntimeVersion: string | undefined;

  /**
   * What `reading` adds at `atMs` (ms after the session's t = 0, which is `zeroEpochMs`): a changed Ready
   * or PLEGAtRisk, a status post when the heartbeat moved, a kubelet or runtime version learnt. `exact`: the
   * reading is a watch event, the post itself, to the millisecond; otherwise (a GET, a relist) it only
   * shows that a post happened, at the heartbeat's own second.
   */
  seen(reading: NodeReading, atMs: number, exact: boolean, zeroEpochMs: number): SessionDelta {
    const delta: SessionDelta = { durationMs: atMs };
    const r = reading.ready;
    if (r !== undefined && (this.lastReady === undefined || r.status !== this.lastReady.status || r.reason !== this.lastReady.reason || r.message !== this.lastReady.message)) {
      delta.ready = [{ atMs, ...r }];
      this.lastReady = r;
    }
    if (reading.atRisk !== undefined && JSON.stringify(reading.atRisk) !== this.lastAtRisk) {
      delta.atRisk = [{ atMs, ...reading.atRisk }];
      this.lastAtRisk = JSON.stringify(reading.atRisk);
    }
    const beat = reading.heartbeat;
    if (beat !== undefined && beat !== this.lastHeartbeat) {
      this.lastHeartbeat = beat;
      const beatMs = Math.round(Date.parse(beat) - zeroEpochMs);
      if (exact) delta.nodeStatusPosts = [{ atMs, source: 'watch' }];
      else if (Number.isFinite(beatMs)) delta.nodeStatusPosts = [{ atMs: beatMs, source: 'heartbeat' }];
    }
    if (reading.kubeletVersion !== undefined && reading.kubeletVersion !== this.kubeletVersion) {
      this.kubeletVersion = reading.kubeletVersion;
      delta.kubeletVersion = reading.kubeletVersion;
    }
    if (reading.containerRuntimeVersion !== undefined && reading.containerRuntimeVersion !== this.containerRuntimeVersion) {
      this.containerRuntimeVersion = reading.containerRuntimeVersion;
      delta.containerRuntimeVersion = reading.containerRuntimeVersion;
    }
    return delta;
  }
}

export interface NodeStatusWatchOptions {
  gateway: KubeGateway;
  context: string;
  node: string;
  changes: NodeStatusChanges;
  /** ms after the session's t = 0. */
  clock: () => number;
  /** The wall-clock instant of t = 0 (it moves when the caller's session is replaced). */
  zeroEpochMs: () => number;
  signal: AbortSignal;
  logger: Logger;
  /**
   * Every reading (even one with nothing new: the session's end moves), and every watch trouble with
   * `trouble` set to what the session lacks because of it; `trouble` is undefined once a reading arrives.
   */
  onDelta: (delta: SessionDelta, trouble: string | undefined) => void;
}

/** Follows the Node until `signal` aborts; the watch is disposed then. */
export async function watchNodeStatus(options: NodeStatusWatchOptions): Promise<void> {
  const { node: name, changes, clock, signal, logger } = options;
  const watch = options.gateway.watchNodes(options.context, { node: name });
  const seen = (node: KubeNode | undefined, exact: boolean): void => {
    if (signal.aborted || node === undefined || node.metadata?.name !== name) return;
    options.onDelta(changes.seen(readNode(node), clock(), exact, options.zeroEpochMs()), undefined);
  };
  const events = watch.onDidChangeNodes((change) => {
    if (change.type === 'resynced') seen(watch.nodes.get(name), false);
    else if (change.type !== 'deleted') seen(change.node, true);
  });
  const states = watch.onDidChangeState((state) => {
    if (signal.aborted || (state.kind !== 'reconnecting' && state.kind !== 'error')) return;
    logger.warn(`timeline of ${name}: node watch: ${state.error.message}`);
    options.onDelta({ durationMs: clock() }, `the Node object cannot be watched: ${state.error.message}`);
  });
  try {
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    events.dispose();
    states.dispose();
    watch.dispose();
  }
}
