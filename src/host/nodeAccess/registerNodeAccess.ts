// Node access in the editor: the CRI snapshot command, the snapshot documents, the SSH pool's lifetime
// (created on first use, replaced on settings changes, closed on deactivate), the prompts and the
// settings warnings, plus the small commands around them.

import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { NodeAccessSettingsProblem } from '../../infra/ssh/nodeAccessSettings';
import { CommandIds } from '../../shared/commandIds';
import { NODE_ACCESS_SECTION, readNodeAccessConfig } from '../config/settings';
import { t } from '../l10n';
import type { Services } from '../services';
import type { TreeElement } from '../views/treeElements';
import { createHostKeyPrompt } from './hostKeyPrompt';
import { createPassphrasePrompt } from './passphrasePrompt';
import { SecretStorageStore } from './secretStorageStore';
import { SnapshotDocuments } from './snapshotDocuments';
import type { SshPoolHolder } from './sshPoolHolder';
import type { takeCriSnapshot } from './takeSnapshotCommand';

interface SnapshotRuntime {
  pools: SshPoolHolder;
  take: typeof takeCriSnapshot;
}

export function registerNodeAccess(context: vscode.ExtensionContext, services: Services): vscode.Disposable[] {
  const { logger } = services;
  const storageDir = context.globalStorageUri.fsPath;
  const ownKnownHosts = join(storageDir, 'known_hosts');
  const secrets = new SecretStorageStore(context.secrets, context.globalState);
  const poolOptions = {
    readOnlyKnownHosts: [join(homedir(), '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts'],
    ownKnownHosts,
    confirmUnknownHost: createHostKeyPrompt((message, options, ...items) => vscode.window.showWarningMessage(message, options, ...items), t),
    getPassphrase: createPassphrasePrompt((options) => vscode.window.showInputBox(options), t),
    secrets,
    logger,
    agentSocket: () => process.env['SSH_AUTH_SOCK'],
  };
  const documents = new SnapshotDocuments();
  // ssh2, gRPC and the CRI code load on the first snapshot, not at activation (like the Kubernetes client).
  let runtime: Promise<SnapshotRuntime> | undefined;
  const loadRuntime = (): Promise<SnapshotRuntime> =>
    (runtime ??= Promise.all([import('./sshPoolHolder'), import('./takeSnapshotCommand')]).then(([holder, command]) => ({
      pools: new holder.SshPoolHolder(poolOptions),
      take: command.takeCriSnapshot,
    })));

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
    new vscode.Disposable(() => void runtime?.then((r) => r.pools.dispose())),
    vscode.commands.registerCommand(CommandIds.takeCriSnapshot, async (element?: TreeElement) => {
      // The host directory must exist before a key can be remembered there.
      await mkdir(storageDir, { recursive: true, mode: 0o700 });
      const { pools, take } = await loadRuntime();
      await take(element, { session: services.session, pools, documents, logger, ownKnownHosts });
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
    vscode.commands.registerCommand(CommandIds.configureNodeAccess, () => vscode.commands.executeCommand('workbench.action.openSettings', NODE_ACCESS_SECTION)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(NODE_ACCESS_SECTION)) return;
      void runtime?.then((r) => r.pools.reset());
      checkSettings();
    }),
  ];
}

async function showSettingsWarning(problems: readonly NodeAccessSettingsProblem[]): Promise<void> {
  const configure = t('Configure Node Access');
  const showLog = t('Show Log');
  const first = problems[0]?.message ?? '';
  const message = problems.length === 1 ? t('PLEG Doctor node access settings: {0}', first) : t('PLEG Doctor node access settings have {0} problems (see the log). First: {1}', problems.length, first);
  const picked = await vscode.window.showWarningMessage(message, configure, showLog);
  if (picked === configure) await vscode.commands.executeCommand(CommandIds.configureNodeAccess);
  else if (picked === showLog) await vscode.commands.executeCommand(CommandIds.showLog);
}
