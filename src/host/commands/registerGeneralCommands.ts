// Commands that are not tied to a tree row: show the log, pick a kubeconfig file.

import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { CommandIds } from '../../shared/commandIds';
import { SECTION, SettingKeys } from '../config/settings';
import { t } from '../l10n';
import type { Services } from '../services';

export function registerGeneralCommands(services: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandIds.showLog, () => services.output.show(true)),
    vscode.commands.registerCommand(CommandIds.selectKubeconfig, async () => {
      const picked = await vscode.window.showOpenDialog({
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        openLabel: t('Use This Kubeconfig'),
        title: t('Select a kubeconfig file'),
        defaultUri: vscode.Uri.file(path.join(os.homedir(), '.kube')),
      });
      const file = picked?.[0];
      if (file === undefined) return;
      // Machine-scoped setting: only user (or remote) settings may hold it, never a workspace.
      await vscode.workspace.getConfiguration(SECTION).update(SettingKeys.kubeconfig, [file.fsPath], vscode.ConfigurationTarget.Global);
      services.logger.info('kubeconfig setting changed from "Select Kubeconfig File"');
    }),
  ];
}
