// "Take CRI Snapshot": node row (or quick pick) → SSH target from the settings and ~/.ssh/config → one
// pooled connection → collectNodeSnapshot with a cancellable progress notification → a JSON document and
// a summary message. Every failure names the node, the host and the cause; cancelling is quiet.

import * as vscode from 'vscode';
import { wayLabel } from '../../core/nodeAccess/accessWay';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import type { CollectStage, NodeSnapshotReport } from '../../infra/nodeSnapshot/collectNodeSnapshot';
import type { NodeConnection } from '../../infra/ssh/nodeAccess';
import { problemsBlocking, type NodeAccessConfig } from '../../infra/ssh/nodeAccessSettings';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import type { TreeElement } from '../views/treeElements';
import { pickNode } from './nodePicker';
import { runNodeSnapshot } from './nodeSnapshotRunner';
import { isDemoContext } from './demoContext';
import { describeSnapshotFailure, type FailureAction, type FailurePresentation } from './snapshotFailure';
import { showSnapshot, type SnapshotDocuments } from './snapshotDocuments';
import type { SshPoolHolder } from './sshPoolHolder';
import { errorText } from '../../core/util/errorText';

export interface TakeSnapshotDeps {
  session: ClusterSession;
  pools: SshPoolHolder;
  documents: SnapshotDocuments;
  logger: Logger;
  ownKnownHosts: string;
}

type Outcome =
  | { kind: 'done'; report: NodeSnapshotReport; connection: NodeConnection; takenAt: Date }
  | { kind: 'failed'; presentation: FailurePresentation };

/** The progress line for each step of a node snapshot (also shown by Diagnose Node while it reads the node). */
export function snapshotStageMessage(stage: CollectStage, hostDescription: string): string {
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
      const started = performance.now();
      try {
        progress.report({ message: t('Resolving the SSH target…') });
        const result = await runNodeSnapshot(
          deps.pools,
          {
            entry,
            config,
            probes: config.probes,
            signal: controller.signal,
            purpose: 'CRI snapshot',
            onTarget: (host) => (hostDescription = host),
            onStage: (stage, host) => progress.report({ message: snapshotStageMessage(stage, host) }),
          },
          logger,
        );
        if (controller.signal.aborted) return { kind: 'failed', presentation: { kind: 'cancelled' } };
        return { kind: 'done', ...result };
      } catch (error) {
        const presentation = describeSnapshotFailure(
          error,
          { node, host: hostDescription, ownKnownHosts: deps.ownKnownHosts, cancelled: controller.signal.aborted, demo: isDemoContext(deps.session, entry.context, logger) },
          t,
        );
        if (presentation.kind === 'cancelled') logger.info(`CRI snapshot of node ${node}: cancelled after ${Math.round(performance.now() - started)} ms`);
        else logger.error(`CRI snapshot of node ${node} failed: ${errorText(error)}`);
        return { kind: 'failed', presentation };
      } finally {
        cancelled.dispose();
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

export async function takeCriSnapshot(element: TreeElement | undefined, deps: TakeSnapshotDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session, t('Take CRI Snapshot'));
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

  // The progress notification belongs to collect(): it has closed by the time a failure is shown.
  const outcome = await collect(entry, config, deps);
  if (outcome.kind === 'failed') {
    await showFailure(outcome.presentation);
    return;
  }
  const access = wayLabel('ssh', outcome.report.host);
  deps.logger.info(`CRI snapshot of node ${node}: ${access}`);
  await showSnapshot(deps.documents, { node, context: entry.context, access, target: outcome.connection.target, takenAt: outcome.takenAt, report: outcome.report });
}
