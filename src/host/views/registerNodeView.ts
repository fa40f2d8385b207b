// The Nodes view: TreeView with badge and message, the filter toggle (two commands flipped by a context
// key), refresh, per-context refresh and the node copy actions.

import * as vscode from 'vscode';
import { CommandIds, ContextKeys, NODES_VIEW_ID } from '../../shared/commandIds';
import type { SessionState } from '../cluster/clusterSession';
import { readSettings, SettingKeys, updateSetting } from '../config/settings';
import { t } from '../l10n';
import type { Services } from '../services';
import type { TreeElement } from './treeElements';

const AGE_TICK_MS = 30_000;
/** The at-risk rows' countdown ("NotReady in ~1m25s") is in seconds: redrawn every second while one shows. */
const COUNTDOWN_TICK_MS = 1_000;

export function registerNodeView(services: Services): vscode.Disposable[] {
  const { session, nodeTree, logger } = services;
  const view = vscode.window.createTreeView<TreeElement>(NODES_VIEW_ID, { treeDataProvider: nodeTree, showCollapseAll: true });

  const update = (): void => {
    const totals = session.model.totals();
    view.badge = totals.unhealthy > 0 ? { value: totals.unhealthy, tooltip: totals.unhealthy === 1 ? t('1 unhealthy node') : t('{0} unhealthy nodes', totals.unhealthy) } : undefined;
    view.message = viewMessage(session.state, nodeTree.filterUnhealthy, totals.total, totals.unhealthy) ?? '';
  };

  const setFilter = async (value: boolean): Promise<void> => {
    nodeTree.setOnlyUnhealthy(value);
    await vscode.commands.executeCommand('setContext', ContextKeys.onlyUnhealthy, value);
    update();
    await updateSetting(SettingKeys.showOnlyUnhealthy, value);
  };

  const applyState = (state: SessionState): void => {
    void vscode.commands.executeCommand('setContext', ContextKeys.state, state.kind);
    update();
  };
  applyState(session.state);
  void vscode.commands.executeCommand('setContext', ContextKeys.onlyUnhealthy, nodeTree.filterUnhealthy);

  // Age texts ("for 3m") move on with time; only visible, changed rows are refreshed. Time-based verdicts
  // are re-evaluated even while the view is hidden, because the badge and status bar show them.
  const ticker = setInterval(() => {
    if (view.visible) nodeTree.tickAges();
    else session.model.reclassifyUnhealthy();
  }, AGE_TICK_MS);
  const countdown = setInterval(() => {
    if (view.visible && session.model.totals().atRisk > 0) nodeTree.tickCountdowns();
  }, COUNTDOWN_TICK_MS);

  return [
    view,
    new vscode.Disposable(() => clearInterval(ticker)),
    new vscode.Disposable(() => clearInterval(countdown)),
    session.onDidChangeState(applyState),
    nodeTree.onDidRefresh(update),
    vscode.commands.registerCommand(CommandIds.refresh, () => {
      logger.info('refresh requested');
      nodeTree.refreshAll();
      return session.refreshAll(readSettings());
    }),
    vscode.commands.registerCommand(CommandIds.showOnlyUnhealthy, () => setFilter(true)),
    vscode.commands.registerCommand(CommandIds.showAllNodes, () => setFilter(false)),
    vscode.commands.registerCommand(CommandIds.refreshContext, (element?: TreeElement) => {
      if (element?.kind === 'context') session.refreshContext(element.name);
    }),
    vscode.commands.registerCommand(CommandIds.copyNodeName, async (element?: TreeElement) => {
      if (element?.kind === 'node') await vscode.env.clipboard.writeText(element.name);
    }),
    vscode.commands.registerCommand(CommandIds.copyReadyMessage, async (element?: TreeElement) => {
      if (element?.kind === 'node') await vscode.env.clipboard.writeText(element.classification.message);
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`plegDoctor.${SettingKeys.showOnlyUnhealthy}`)) {
        const value = readSettings().showOnlyUnhealthy;
        nodeTree.setOnlyUnhealthy(value);
        void vscode.commands.executeCommand('setContext', ContextKeys.onlyUnhealthy, value);
        update();
      }
    }),
  ];
}

function viewMessage(state: SessionState, onlyUnhealthy: boolean, total: number, unhealthy: number): string | undefined {
  switch (state.kind) {
    case 'allExcluded':
      return t('All {0} contexts are excluded by the setting plegDoctor.contexts.exclude.', state.count);
    case 'loading':
    case 'configError': // shown as a row with actions; a message would hide it
    case 'noKubeconfig': // a message would hide the welcome view
      return undefined;
    case 'ready':
      if (!onlyUnhealthy) return undefined;
      return unhealthy === 0 && total > 0 ? t('Showing only unhealthy nodes: all {0} nodes are healthy.', total) : t('Showing only unhealthy nodes.');
  }
}
