// The heavy half of the live source, in dist/nodeAccess.js (ssh2 and the CRI code): the node's SSH target
// from the settings and ~/.ssh/config, one pooled connection leased for the feed's lifetime, the CRI
// transport over it, and runLiveFeed. No vscode import: the light half (liveSource.ts) owns the UI side.

import type { NodeEntry } from '../../core/tree/contextNodes';
import type { SessionDelta, SessionSettings } from '../../core/timeline/session';
import type { Logger } from '../../core/util/logger';
import type { CriReader } from '../../infra/cri/reader';
import { selectTransport, type TransportKind } from '../../infra/cri/transports/select';
import type { KubeGateway } from '../../infra/kube/gateway';
import type { NodeAccessConfig, NodeAccessTransportSetting } from '../../infra/ssh/nodeAccessSettings';
import { runLiveFeed } from '../../infra/timeline/liveFeed';
import { resolveConnection } from '../nodeAccess/nodeSnapshotRunner';
import type { SshPoolHolder } from '../nodeAccess/sshPoolHolder';
import type { NodeConnection } from '../../infra/ssh/nodeAccess';
import type { SshPool } from '../../infra/ssh/pool';

const transportKinds: Record<NodeAccessTransportSetting, 'auto' | TransportKind> = { auto: 'auto', forward: 'unixSocket', exec: 'execRelay', crictl: 'crictl' };

export interface LiveFeedRequest {
  context: string;
  node: string;
  settings: SessionSettings;
  settingsFromConfigz: boolean;
  gateway: KubeGateway | undefined;
  /** The node access settings when SSH is configured for the context; undefined: metrics only. */
  access: NodeAccessConfig | undefined;
  /** Said in `lacks` when `access` is undefined. */
  noSshReason: string;
  logger: Logger;
  signal: AbortSignal;
  onDelta: (delta: SessionDelta) => void;
}

/** The node's SSH connection as the settings and ~/.ssh/config resolve it (not connected yet). */
async function nodeConnection(gateway: KubeGateway | undefined, context: string, node: string, access: NodeAccessConfig, pool: SshPool, signal: AbortSignal): Promise<NodeConnection> {
  if (gateway === undefined) throw new Error('the kubeconfig is not loaded: the node\u2019s SSH address comes from its Node object');
  const kubeNode = await gateway.getNode(context, node, signal);
  // resolveConnection reads only the node object, its context and its name from the entry.
  const entry = { kind: 'node', context, name: node, node: kubeNode } as unknown as NodeEntry;
  return resolveConnection(entry, access, pool);
}

/** `user@host:port` the feed will connect to, for the panel's "via SSH …" before the feed starts. */
export async function sshTargetOf(pools: SshPoolHolder, request: Pick<LiveFeedRequest, 'gateway' | 'context' | 'node' | 'signal'> & { access: NodeAccessConfig }): Promise<string> {
  const lease = pools.lease(request.access);
  try {
    return (await nodeConnection(request.gateway, request.context, request.node, request.access, lease.pool, request.signal)).host.description;
  } finally {
    lease.release();
  }
}

/** Runs until the signal aborts; the pool lease is held for the whole feed and released at the end. */
export async function startLiveFeed(pools: SshPoolHolder | undefined, request: LiveFeedRequest): Promise<void> {
  const { access, gateway, context, node, logger } = request;
  const lease = access !== undefined && pools !== undefined ? pools.lease(access) : undefined;
  try {
    const connectCri =
      lease === undefined || access === undefined
        ? undefined
        : async (signal: AbortSignal): Promise<CriReader> => {
            const connection = await nodeConnection(gateway, context, node, access, lease.pool, signal);
            await connection.host.connect(signal);
            const selection = await selectTransport(connection.host, {
              ...(access.criEndpoint !== '' ? { endpoint: access.criEndpoint } : {}),
              transport: transportKinds[access.transport],
              deadlineMs: request.settings.runtimeRequestTimeoutMs,
              probeTimeoutMs: access.callTimeoutMs,
              logger,
              signal,
            });
            logger.info(`timeline of ${node}: CRI ${selection.kind} at ${selection.endpoint} via ${connection.host.description}`);
            return selection.client;
          };
    await runLiveFeed({
      node,
      settings: request.settings,
      settingsFromConfigz: request.settingsFromConfigz,
      ...(connectCri !== undefined ? { connectCri } : { noCriReason: request.noSshReason }),
      ...(gateway !== undefined ? { kube: { gateway, context } } : {}),
      signal: request.signal,
      onDelta: request.onDelta,
      logger,
    });
  } finally {
    lease?.release();
  }
}
