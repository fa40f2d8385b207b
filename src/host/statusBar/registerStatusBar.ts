// "2 nodes NotReady, 1 PLEG" in the status bar, with the warning background while any node has PLEG not
// healthy, and the nodes named in its tooltip. Clicking it focuses the Nodes view. Hidden only when there
// is no context to watch. The extension activates on startup (onStartupFinished), so it shows before the
// view is ever opened.

import * as vscode from 'vscode';
import type { UnhealthyNode } from '../../core/tree/statusSummary';
import { summarizeStatus } from '../../core/tree/statusSummary';
import { FOCUS_NODES_VIEW_COMMAND } from '../../shared/commandIds';
import { t } from '../l10n';
import type { Services } from '../services';

export function registerStatusBar(services: Services): vscode.Disposable[] {
  const item = vscode.window.createStatusBarItem('plegDoctor.status', vscode.StatusBarAlignment.Left, 10);
  item.name = t('PLEG Doctor');
  item.command = FOCUS_NODES_VIEW_COMMAND;

  const update = (): void => {
    const model = services.session.model;
    const unhealthy: UnhealthyNode[] = model.groups().flatMap((g) => g.rows(true).map((e) => ({ context: e.context, name: e.name, verdict: e.classification.verdict })));
    const summary = summarizeStatus(model.totals(), t, unhealthy);
    if (!summary.visible) {
      item.hide();
      return;
    }
    item.text = summary.text;
    item.tooltip = summary.tooltip;
    item.backgroundColor = summary.severity === 'warning' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    item.accessibilityInformation = { label: `${summary.text.replace(/\$\([^)]*\)\s*/g, '')}. ${summary.tooltip}`, role: 'button' };
    item.show();
  };
  update();

  return [item, services.nodeTree.onDidRefresh(update), services.session.onDidChangeState(update)];
}
