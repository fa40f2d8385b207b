// The "context / node" quick pick the node commands show when run from the palette without a row.

import * as vscode from 'vscode';
import type { NodeEntry } from '../../core/tree/contextNodes';
import { verdictShortName } from '../../core/tree/verdictPresentation';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';

/** `title` is the command's title, e.g. "Take CRI Snapshot". */
export async function pickNode(session: ClusterSession, title: string): Promise<NodeEntry | undefined> {
  const items = session.model.groups().flatMap((group) =>
    group.rows().map((entry) => ({ label: `${entry.context} / ${entry.name}`, description: verdictShortName(entry.classification.verdict, t), entry })),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage(t('No nodes are loaded yet: open the PLEG Doctor view and wait for the nodes to appear.'));
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(items, { title, placeHolder: t('Pick a node (context / node)'), matchOnDescription: true });
  return picked?.entry;
}
