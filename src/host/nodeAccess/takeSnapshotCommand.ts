// "Take CRI Snapshot": node row (or quick pick) → SSH target from the settings and ~/.ssh/config → one
// pooled connection → collectNodeSnapshot with a cancellable progress notification → a JSON document and
// a summary message. Every failure names the node, the host and the cause; cancelling is quiet.

import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NodeEntry } from '../../core/tree/contextNodes';
import { verdictShortName } from '../../core/tree/verdictPresentation';
import type { Logger } from '../../core/util/logger';
import type { TransportKind } from '../../infra/cri/transports/select';
import { TransportSelectionError } from '../../infra/cri/transports/select';
import { collectNodeSnapshot, type CollectStage, type NodeSnapshotReport } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import { SshConfigError } from '../../infra/ssh/errors';
import { NodeAccess, type NodeConnection } from '../../infra/ssh/nodeAccess';
import { problemsBlocking, type NodeAccessConfig, type NodeAccessTransportSetting } from '../../infra/ssh/nodeAccessSettings';
import { NodeTargetError } from '../../infra/ssh/nodeTarget';
import type { SshPool } from '../../infra/ssh/pool';
import { readSshConfigFile, type SshConfigContext } from '../../infra/ssh/sshConfig';
import { CommandIds } from '../../shared/commandIds';
import { expandPath, readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import type { TreeElement } from '../views/treeElements';
import { describeSnapshotFailure, type FailureAction, type FailurePresentation } from './snapshotFailure';
import { snapshotSummary } from './snapshotDocument';
import type { SnapshotDocuments } from './snapshotDocuments';
import type { SshPoolHolder } from './sshPoolHolder';
import type { ClusterSession } from '../cluster/clusterSession';

export interface TakeSnapshotDeps {
  session: ClusterSession;
  pools: SshPoolHolder;
  documents: SnapshotDocuments;
  logger: Logger;
  ownKnownHosts: string;
}

const transportKinds: Record<NodeAccessTransportSetting, 'auto' | TransportKind> = {
  auto: 'auto',
  forward: 'unixSocket',
  exec: 'execRelay',
  crictl: 'crictl',
};

type Outcome =
  | { kind: 'done'; report: NodeSnapshotReport; connection: NodeConnection; takenAt: Date }
  | { kind: 'failed'; presentation: FailurePresentation };

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
    const cause = error instanceof Error ? error.message : String(error);
    throw new SshConfigError(`cannot resolve the SSH target of node ${entry.name} with ssh config ${file}${configText === undefined ? ' (not present)' : ''}: ${cause}`, file, { cause: error });
  }
}

function stageMessage(stage: CollectStage, hostDescription: string): string {
  switch (stage) {
    case 'connecting':
      return t('Connecting to {0}…', hostDescription);
    case 'checkingSudo':
      return t('Checking sudo…');
    case 'selectingTransport':
      return t('Choosing a CRI transport…');
    case 'snapshot':
      return t('Reading the runtime…');
  }
}

async function collect(entry: NodeEntry, config: NodeAccessConfig, deps: TakeSnapshotDeps): Promise<Outcome> {
  const { logger } = deps;
  const node = entry.name;
  const controller = new AbortController();
  let hostDescription: string | undefined;
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('CRI snapshot of {0}', node), cancellable: true },
    async (progress, token) => {
      const cancelled = token.onCancellationRequested(() => {
        logger.info(`CRI snapshot of node ${node}: cancel requested`);
        controller.abort(new Error('cancelled by the user'));
      });
      const lease = deps.pools.lease(config);
      const started = performance.now();
      try {
        progress.report({ message: t('Resolving the SSH target…') });
        const connection = await resolveConnection(entry, config, lease.pool);
        const { target, plan, host } = connection;
        hostDescription = host.description;
        logger.info(
          `CRI snapshot of node ${node} (context ${entry.context}): SSH target from ${target.addressSource}` +
            `${plan.jumps.length > 0 ? ` via ${plan.jumps.length} jump host(s)` : ''}, sudo ${target.sudo ? 'on' : 'off'}, transport ${config.transport}, call timeout ${config.callTimeoutMs} ms`,
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
          probes: config.probes,
          logger,
          signal: controller.signal,
          onStage: (stage) => {
            const now = performance.now();
            if (lastStage !== undefined) logger.info(`node ${node}: ${lastStage} took ${Math.round(now - stageStarted)} ms`);
            lastStage = stage;
            stageStarted = now;
            logger.info(`node ${node}: ${stage}`);
            progress.report({ message: stageMessage(stage, host.description) });
          },
        });
        if (controller.signal.aborted) return { kind: 'failed', presentation: { kind: 'cancelled' } };
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
        return { kind: 'done', report, connection, takenAt };
      } catch (error) {
        if (error instanceof TransportSelectionError) {
          for (const attempt of error.attempts) logger.warn(`node ${node}: transport ${attempt.kind} ${attempt.ok ? 'ok' : 'failed'}: ${attempt.detail}`);
        }
        const presentation = describeSnapshotFailure(error, { node, host: hostDescription, ownKnownHosts: deps.ownKnownHosts, cancelled: controller.signal.aborted }, t);
        if (presentation.kind === 'cancelled') logger.info(`CRI snapshot of node ${node}: cancelled after ${Math.round(performance.now() - started)} ms`);
        else logger.error(`CRI snapshot of node ${node} failed: ${error instanceof Error ? error.message : String(error)}`);
        return { kind: 'failed', presentation };
      } finally {
        cancelled.dispose();
        lease.release();
      }
    },
  );
}

async function showFailure(presentation: FailurePresentation): Promise<void> {
  if (presentation.kind === 'cancelled') return;
  const labels: Record<FailureAction, string> = {
    showLog: t('Show Log'),
    configure: t('Configure Node Access'),
    openTrustedHostKeys: t('Open Trusted SSH Host Keys'),
  };
  const items = presentation.actions.map((a) => labels[a]);
  const options: vscode.MessageOptions = presentation.modal ? { modal: true, ...(presentation.detail !== undefined ? { detail: presentation.detail } : {}) } : {};
  const picked = await vscode.window.showErrorMessage(presentation.message, options, ...items);
  const action = presentation.actions.find((a) => labels[a] === picked);
  if (action === 'showLog') await vscode.commands.executeCommand(CommandIds.showLog);
  else if (action === 'configure') await vscode.commands.executeCommand(CommandIds.configureNodeAccess);
  else if (action === 'openTrustedHostKeys') await vscode.commands.executeCommand(CommandIds.openTrustedHostKeys);
}

async function pickNode(session: ClusterSession): Promise<NodeEntry | undefined> {
  const items = session.model.groups().flatMap((group) =>
    group.rows().map((entry) => ({ label: `${entry.context} / ${entry.name}`, description: verdictShortName(entry.classification.verdict, t), entry })),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage(t('No nodes are loaded yet: open the PLEG Doctor view and wait for the nodes to appear.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title: t('Take CRI Snapshot'), placeHolder: t('Pick a node (context / node)'), matchOnDescription: true });
  return picked?.entry;
}

export async function takeCriSnapshot(element: TreeElement | undefined, deps: TakeSnapshotDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session);
  if (entry === undefined) return;
  const node = entry.name;
  deps.logger.info(`CRI snapshot of node ${node} (context ${entry.context}) requested`);

  const { config, problems } = readNodeAccessConfig();
  const blocking = problemsBlocking(problems, entry.context, node);
  if (blocking.length > 0) {
    for (const p of blocking) deps.logger.error(`node ${node}: ${p.message}`);
    await showFailure(
      { kind: 'error', modal: false, message: t('CRI snapshot of {0}: fix the node access settings first: {1}', node, blocking.map((p) => p.message).join('; ')), actions: ['configure'] },
    );
    return;
  }

  const outcome = await collect(entry, config, deps);
  if (outcome.kind === 'failed') {
    await showFailure(outcome.presentation);
    return;
  }
  await deps.documents.open({ node, context: entry.context, target: outcome.connection.target, takenAt: outcome.takenAt, report: outcome.report });
  const summary = snapshotSummary(node, outcome.report, t);
  if (summary.severity === 'info') void vscode.window.showInformationMessage(summary.message);
  else void vscode.window.showWarningMessage(summary.message, t('Show Log')).then((picked) => (picked !== undefined ? vscode.commands.executeCommand(CommandIds.showLog) : undefined));
}
