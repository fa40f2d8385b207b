// Node access in the editor: the CRI snapshot command, the snapshot documents, the settings warnings and
// the small commands around them. The SSH pool, the prompts and the secrets live in NodeAccessRuntime
// (shared with Diagnose Node); a settings change makes it reopen connections on next use. "Configure Node
// Access" is the guided flow of configureNodeAccessCommand.ts.

import { mkdir, writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import type { NodeAccessSettingsProblem } from '../../infra/ssh/nodeAccessSettings';
import { CommandIds } from '../../shared/commandIds';
import { loadKubeBundle } from '../bundles/kubeLoader';
import { NODE_ACCESS_SECTION, readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import type { Services } from '../services';
import type { TreeElement } from '../views/treeElements';
import { configureNodeAccess, openSettingsJson } from './configureNodeAccessCommand';
import { SnapshotDocuments } from './snapshotDocuments';

export function registerNodeAccess(services: Services): vscode.Disposable[] {
  const runtime = services.nodeAccess;
  const { logger } = services;
  const { storageDir, ownKnownHosts, secrets } = runtime;
  const documents = new SnapshotDocuments();

  // One warning per distinct set of problems; the log gets every problem each time the settings change.
  let shownProblems = '';
  const checkSettings = (): void => {
    const { problems } = readNodeAccessConfig();
    for (const p of problems) logger.warn(`settings: ${p.message}`);
    const key = JSON.stringify(problems.map((p) => p.message));
    if (problems.length === 0 || key === shownProblems) {
      shownProblems = key;
      return;
    }
    shownProblems = key;
    void showSettingsWarning(problems);
  };
  checkSettings();

  return [
    documents,
    // The way (agent, SSH, or a confirmed debug pod) is chosen in dist/kube.js; SSH loads dist/nodeAccess.js.
    vscode.commands.registerCommand(CommandIds.takeCriSnapshot, async (element?: TreeElement) => {
      const kube = await loadKubeBundle();
      await kube.takeCriSnapshotAnyWay(element, { session: services.session, nodeAccess: runtime, documents, logger });
    }),
    vscode.commands.registerCommand(CommandIds.forgetSshPassphrases, async () => {
      const count = secrets.storedKeys().length;
      if (count === 0) {
        void vscode.window.showInformationMessage(t('No SSH key passphrases are stored.'));
        return;
      }
      const forget = t('Forget Passphrases');
      const picked = await vscode.window.showWarningMessage(
        t('Forget {0} stored SSH key passphrases?', count),
        { modal: true, detail: t('PLEG Doctor will ask again the next time it needs one of these keys.') },
        forget,
      );
      if (picked !== forget) return;
      const forgotten = await secrets.forgetAll();
      logger.info(`forgot ${forgotten} stored SSH key passphrase(s)`);
      void vscode.window.showInformationMessage(t('Forgot {0} stored SSH key passphrases.', forgotten));
    }),
    vscode.commands.registerCommand(CommandIds.openTrustedHostKeys, async () => {
      // Opening needs a file: create an empty one (never truncating an existing one).
      await mkdir(storageDir, { recursive: true, mode: 0o700 });
      await writeFile(ownKnownHosts, '', { flag: 'a', mode: 0o600 });
      await vscode.window.showTextDocument(vscode.Uri.file(ownKnownHosts), { preview: false });
    }),
    vscode.commands.registerCommand(CommandIds.configureNodeAccess, (element?: TreeElement) => configureNodeAccess(element, { session: services.session, logger })),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(NODE_ACCESS_SECTION)) return;
      runtime.reset();
      checkSettings();
    }),
  ];
}

async function showSettingsWarning(problems: readonly NodeAccessSettingsProblem[]): Promise<void> {
  const configure = t('Configure Node Access');
  const openJson = t('Open Settings (JSON)');
  const showLog = t('Show Log');
  const first = problems[0]?.message ?? '';
  const message = problems.length === 1 ? t('PLEG Doctor node access settings: {0}', first) : t('PLEG Doctor node access settings have {0} problems (see the log). First: {1}', problems.length, first);
  // The guided flow rewrites one context's user, port, jump host and sudo; anything else is fixed in the JSON.
  const picked = await vscode.window.showWarningMessage(message, configure, openJson, showLog);
  if (picked === configure) await vscode.commands.executeCommand(CommandIds.configureNodeAccess);
  else if (picked === openJson) await openSettingsJson();
  else if (picked === showLog) await vscode.commands.executeCommand(CommandIds.showLog);
}
