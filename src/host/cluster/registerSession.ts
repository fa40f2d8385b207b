// Starts the cluster session and keeps it in step with the settings and the kubeconfig files on disk.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { kubeconfigFiles } from '../../infra/kube/kubeconfig';
import { readSettings, SECTION, SettingKeys } from '../config/settings';
import type { Services } from '../services';
import { errorText } from '../../core/util/errorText';

const FILE_CHANGE_DEBOUNCE_MS = 500;

export function registerSession(services: Services): vscode.Disposable[] {
  const { session, logger } = services;
  let fileWatchers: vscode.Disposable[] = [];
  let debounce: ReturnType<typeof setTimeout> | undefined;

  const onFileChanged = (): void => {
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      logger.info('a kubeconfig file changed on disk; re-reading contexts');
      session.refreshAll(readSettings()).catch((err: unknown) => logger.error(`re-reading the kubeconfig failed: ${errorText(err)}`));
    }, FILE_CHANGE_DEBOUNCE_MS);
  };

  /** Watches the files kubectl would read, so editing ~/.kube/config updates the tree. */
  const watchFiles = (explicit: string[]): void => {
    for (const d of fileWatchers) d.dispose();
    fileWatchers = [];
    for (const file of kubeconfigFiles(explicit.length > 0 ? explicit : undefined).files) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
      fileWatchers.push(watcher, watcher.onDidChange(onFileChanged), watcher.onDidCreate(onFileChanged), watcher.onDidDelete(onFileChanged));
    }
  };

  const configure = (): void => {
    const settings = readSettings();
    watchFiles(settings.kubeconfigPaths);
    session.configure({ kubeconfigPaths: settings.kubeconfigPaths, excludedContexts: settings.excludedContexts }).catch((err: unknown) => {
      logger.error(`cannot start watching clusters: ${errorText(err)}`);
    });
  };
  configure();

  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.${SettingKeys.kubeconfig}`) || e.affectsConfiguration(`${SECTION}.${SettingKeys.contextsExclude}`)) configure();
    }),
    new vscode.Disposable(() => {
      clearTimeout(debounce);
      for (const d of fileWatchers) d.dispose();
    }),
  ];
}
