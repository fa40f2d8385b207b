// One node's SSH + CRI snapshot as the editor takes it, shared by "Take CRI Snapshot" and "Diagnose
// Node": the SSH target from the settings and ~/.ssh/config, one pooled connection (host-key modal and
// passphrase prompts come from the pool), collectNodeSnapshot, and every step in the log. No UI of its
// own: callers wrap it in their progress notification and present failures their way. Loaded lazily
// (it pulls in ssh2 and the CRI code).

import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import type { TransportKind } from '../../infra/cri/transports/select';
import { TransportSelectionError } from '../../infra/cri/transports/select';
import { collectNodeSnapshot, type CollectStage, type NodeSnapshotReport } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import { SshConfigError } from '../../infra/ssh/errors';
import { NodeAccess, type NodeConnection } from '../../infra/ssh/nodeAccess';
import type { NodeAccessConfig, NodeAccessTransportSetting } from '../../infra/ssh/nodeAccessSettings';
import { NodeTargetError } from '../../infra/ssh/nodeTarget';
import type { SshPool } from '../../infra/ssh/pool';
import { readSshConfigFile, type SshConfigContext } from '../../infra/ssh/sshConfig';
import { expandPath } from '../config/settings';
import type { SshPoolHolder } from './sshPoolHolder';
import { errorText } from '../../core/util/errorText';

const transportKinds: Record<NodeAccessTransportSetting, 'auto' | TransportKind> = {
  auto: 'auto',
  forward: 'unixSocket',
  exec: 'execRelay',
  crictl: 'crictl',
};

function localUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? 'root';
  }
}

/** Reads ~/.ssh/config (or the configured file) and resolves the node's SSH target through it; errors name the file. */
export async function resolveConnection(entry: NodeEntry, config: NodeAccessConfig, pool: SshPool): Promise<NodeConnection> {
  const homeDir = homedir();
  const file = config.sshConfigFile === '' ? join(homeDir, '.ssh', 'config') : expandPath(config.sshConfigFile);
  const configText = await readSshConfigFile(file);
  const sshConfig: SshConfigContext = { configText, homeDir, localUser: localUser() };
  const access = new NodeAccess({
    pool,
    settings: () => config.clusters,
    sshConfig: () => sshConfig,
    identityFiles: config.identityFiles.map((f) => expandPath(f)),
  });
  try {
    return access.connectionFor(entry.node, entry.context);
  } catch (error) {
    if (error instanceof NodeTargetError) throw error;
    // The ssh config parser and the plan resolution both fail here; name the file they read.
    const cause = errorText(error);
    throw new SshConfigError(`cannot resolve the SSH target of node ${entry.name} with ssh config ${file}${configText === undefined ? ' (not present)' : ''}: ${cause}`, file, { cause: error });
  }
}

export interface NodeSnapshotRequest {
  entry: NodeEntry;
  config: NodeAccessConfig;
  /** Run the node probes alongside the snapshot (the diagnosis always does; the snapshot command follows its setting). */
  probes: boolean;
  signal: AbortSignal;
  /** What the log lines start with, e.g. "CRI snapshot" or "diagnosis". */
  purpose: string;
  /** Called once the SSH target is known (`user@host:port`), so a failure message can name it. */
  onTarget?: (hostDescription: string) => void;
  onStage?: (stage: CollectStage, hostDescription: string) => void;
}

export interface NodeSnapshotResult {
  report: NodeSnapshotReport;
  connection: NodeConnection;
  takenAt: Date;
}

/** Leases the pool for the duration of one snapshot; rejects with the infra error (SshAbortedError when cancelled). */
export async function runNodeSnapshot(pools: SshPoolHolder, request: NodeSnapshotRequest, logger: Logger): Promise<NodeSnapshotResult> {
  const { entry, config, purpose } = request;
  const node = entry.name;
  const lease = pools.lease(config);
  const started = performance.now();
  try {
    const connection = await resolveConnection(entry, config, lease.pool);
    const { target, plan, host } = connection;
    request.onTarget?.(host.description);
    logger.info(
      `${purpose} of node ${node} (context ${entry.context}): SSH target from ${target.addressSource}` +
        `${plan.jumps.length > 0 ? ` via ${plan.jumps.length} jump host(s)` : ''}, sudo ${target.sudo ? 'on' : 'off'}, transport ${config.transport}, call timeout ${config.callTimeoutMs} ms, probes ${request.probes ? 'on' : 'off'}`,
    );
    logger.debug(`node ${node}: SSH target ${host.description}${plan.jumps.length > 0 ? ` via ${plan.jumps.map((j) => `${j.user}@${j.host}:${j.port}`).join(' > ')}` : ''}`);
    for (const warning of plan.warnings) logger.warn(`node ${node}: ${warning}`);
    const takenAt = new Date();
    let stageStarted = performance.now();
    let lastStage: CollectStage | undefined;
    const report = await collectNodeSnapshot(host, plan, {
      ...(config.criEndpoint !== '' ? { endpoint: config.criEndpoint } : {}),
      transport: transportKinds[config.transport],
      deadlineMs: config.callTimeoutMs,
      sudo: target.sudo,
      probes: request.probes,
      logger,
      signal: request.signal,
      onStage: (stage) => {
        const now = performance.now();
        if (lastStage !== undefined) logger.info(`node ${node}: ${lastStage} took ${Math.round(now - stageStarted)} ms`);
        lastStage = stage;
        stageStarted = now;
        logger.info(`node ${node}: ${stage}`);
        request.onStage?.(stage, host.description);
      },
    });
    const { snapshot, transport } = report;
    logger.info(`node ${node}: CRI transport ${transport.kind} at ${transport.endpoint}: ${transport.reason}`);
    for (const attempt of transport.attempts) logger.debug(`node ${node}: transport attempt ${attempt.kind} ${attempt.ok ? 'ok' : 'failed'}: ${attempt.detail}`);
    logger.info(
      `node ${node}: snapshot of ${snapshot.sandboxes.length} pod sandboxes, ${snapshot.containers.length} containers, ` +
        `${snapshot.errors.length} failed calls, ${snapshot.findings.length} findings; connect ${report.connectMs} ms, ` +
        `runtime ${Math.round(snapshot.durationMs)} ms, total ${Math.round(performance.now() - started)} ms`,
    );
    for (const finding of snapshot.findings) logger.warn(`node ${node}: ${finding.kind}: ${finding.message}`);
    for (const error of snapshot.errors) logger.warn(`node ${node}: ${error.method}${error.id !== undefined ? ` ${error.id}` : ''} failed: ${error.codeName} ${error.message} (${error.ms} ms)`);
    return { report, connection, takenAt };
  } catch (error) {
    if (error instanceof TransportSelectionError) {
      for (const attempt of error.attempts) logger.warn(`node ${node}: transport ${attempt.kind} ${attempt.ok ? 'ok' : 'failed'}: ${attempt.detail}`);
    }
    throw error;
  } finally {
    lease.release();
  }
}
