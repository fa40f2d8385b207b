// "Take CRI Snapshot" through the node's way (resolveNodeAccess): the agent's last snapshot (with its
// age: never shown as taken now), SSH (takeSnapshotCommand.ts, unchanged), or a debug pod the user
// confirmed. The document and the summary name the way. In dist/kube.js; the SSH flow is loaded from
// dist/nodeAccess.js only when SSH is the way.

import * as vscode from 'vscode';
import { wayLabel } from '../../core/nodeAccess/accessWay';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import { AgentAccessError } from '../../infra/nodeAccess/agent/agentConnection';
import { readAgentSnapshot } from '../../infra/nodeAccess/agent/agentSnapshot';
import { DebugPodAbortedError } from '../../infra/nodeAccess/debugPod/runDebugPod';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';
import type { TreeElement } from '../views/treeElements';
import { resolveNodeAccess, showNoAccess, snapshotThroughDebugPod, type ResolvedAccess } from './editorNodeAccess';
import type { NodeAccessRuntime } from './nodeAccessRuntime';
import { isDemoContext } from './demoContext';
import { demoNodeNote } from './snapshotFailure';
import { pickNode } from './nodePicker';
import type { SnapshotDocumentInput } from './snapshotDocument';
import { showSnapshot, type SnapshotDocuments } from './snapshotDocuments';

export interface TakeSnapshotAnyWayDeps {
  session: ClusterSession;
  nodeAccess: NodeAccessRuntime;
  documents: SnapshotDocuments;
  logger: Logger;
}

type Taken = { kind: 'done'; input: SnapshotDocumentInput } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/** The agent's or the debug pod's snapshot under a cancellable progress; cancelling a debug pod deletes it. */
function takeOverApi(access: Extract<ResolvedAccess, { way: 'agent' | 'debug-pod' }>, entry: { context: string; name: string }, logger: Logger): Thenable<Taken> {
  const node = entry.name;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('CRI snapshot of {0}', node), cancellable: true }, async (progress, token) => {
    const controller = new AbortController();
    const subscription = token.onCancellationRequested(() => {
      logger.info(`CRI snapshot of node ${node}: cancel requested`);
      if (access.way === 'debug-pod') progress.report({ message: t('Deleting the debug pod…') });
      controller.abort(new Error('cancelled by the user'));
    });
    try {
      if (access.way === 'agent') {
        progress.report({ message: t("Reading the agent's last snapshot…") });
        const taken = await readAgentSnapshot(access.connection, controller.signal);
        logger.info(`CRI snapshot of node ${node}: ${taken.label} (${taken.collectedAt})`);
        return { kind: 'done', input: { node, context: entry.context, access: taken.label, takenAt: new Date(taken.collectedAt), ageSeconds: Math.floor(taken.age.ageMs / 1000), report: taken.side } };
      }
      progress.report({ message: t('Running the debug pod…') });
      const startedAt = new Date();
      const { access: pod, ...report } = await snapshotThroughDebugPod(access, controller.signal, logger);
      return { kind: 'done', input: { node, context: entry.context, access: pod.label, takenAt: startedAt, report } };
    } catch (err) {
      if (controller.signal.aborted || err instanceof DebugPodAbortedError) {
        logger.info(`CRI snapshot of node ${node}: cancelled`);
        return { kind: 'cancelled' };
      }
      logger.error(`CRI snapshot of node ${node} failed: ${errorText(err)}`);
      const via = access.way === 'agent' ? access.connection.label : wayLabel('debug-pod', `${access.plan.manifest.metadata.namespace}/${access.plan.manifest.metadata.name}`);
      return { kind: 'failed', message: err instanceof AgentAccessError ? err.message : `${via}: ${errorText(err)}` };
    } finally {
      subscription.dispose();
    }
  });
}

export async function takeCriSnapshotAnyWay(element: TreeElement | undefined, deps: TakeSnapshotAnyWayDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session, t('Take CRI Snapshot'));
  if (entry === undefined) return;
  const { logger } = deps;
  const node = entry.name;
  logger.info(`CRI snapshot of node ${node} (context ${entry.context}) requested`);
  const access = await resolveNodeAccess(entry, { session: deps.session, logger, purpose: 'CRI snapshot', title: t('CRI snapshot of {0}', node), supports: ['agent', 'ssh', 'debug-pod'] });
  switch (access.way) {
    case 'cancelled':
    case 'declined':
      return;
    case 'none': {
      // The demo's nodes are made up: no agent, no SSH, no pod can run there; say so rather than leave the user to wonder.
      const demo = isDemoContext(deps.session, entry.context, logger) ? ` ${demoNodeNote(t)}` : '';
      await showNoAccess(node, `${access.why}.${demo}`);
      return;
    }
    case 'ssh': {
      const loaded = await deps.nodeAccess.load();
      await loaded.take(entry, { session: deps.session, pools: loaded.pools, documents: deps.documents, logger, ownKnownHosts: deps.nodeAccess.ownKnownHosts });
      return;
    }
    case 'agent':
    case 'debug-pod': {
      const taken = await takeOverApi(access, entry, logger);
      if (taken.kind === 'done') await showSnapshot(deps.documents, taken.input);
      else if (taken.kind === 'failed') {
        const showLog = t('Show Log');
        if ((await vscode.window.showErrorMessage(t('CRI snapshot of {0}: {1}', node, taken.message), showLog)) === showLog) await vscode.commands.executeCommand(CommandIds.showLog);
      }
      return;
    }
  }
}
