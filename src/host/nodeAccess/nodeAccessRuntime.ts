// What node access needs for the extension's lifetime, shared by Take CRI Snapshot and Diagnose Node:
// the own known_hosts file, the passphrase store, the prompts, and (loaded on first use, because ssh2,
// gRPC and the CRI code are heavy) the one SSH pool and the snapshot flow.

import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../core/util/logger';
import { t } from '../l10n';
import { loadNodeAccessBundle } from '../bundles/loader';
import { createHostKeyPrompt } from './hostKeyPrompt';
import type { runNodeSnapshot } from './nodeSnapshotRunner';
import { createPassphrasePrompt } from './passphrasePrompt';
import { SecretStorageStore } from './secretStorageStore';
import type { SshPoolHolder, SshPoolHolderOptions } from './sshPoolHolder';
import type { snapshotStageMessage, takeCriSnapshot } from './takeSnapshotCommand';

export interface LoadedNodeAccess {
  pools: SshPoolHolder;
  take: typeof takeCriSnapshot;
  run: typeof runNodeSnapshot;
  stageMessage: typeof snapshotStageMessage;
}

export class NodeAccessRuntime implements vscode.Disposable {
  readonly storageDir: string;
  /** `{globalStorageUri}/known_hosts`: the only file a trusted host key is written to. */
  readonly ownKnownHosts: string;
  readonly secrets: SecretStorageStore;
  private readonly poolOptions: SshPoolHolderOptions;
  private loaded: Promise<LoadedNodeAccess> | undefined;

  constructor(context: vscode.ExtensionContext, logger: Logger) {
    this.storageDir = context.globalStorageUri.fsPath;
    this.ownKnownHosts = join(this.storageDir, 'known_hosts');
    this.secrets = new SecretStorageStore(context.secrets, context.globalState);
    this.poolOptions = {
      readOnlyKnownHosts: [join(homedir(), '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts'],
      ownKnownHosts: this.ownKnownHosts,
      confirmUnknownHost: createHostKeyPrompt((message, options, ...items) => vscode.window.showWarningMessage(message, options, ...items), t),
      getPassphrase: createPassphrasePrompt((options, token) => vscode.window.showInputBox(options, token), t),
      secrets: this.secrets,
      logger,
      agentSocket: () => process.env['SSH_AUTH_SOCK'],
    };
  }

  /** The pool and the snapshot code, loaded once; the storage dir exists afterwards (a trusted key is written there). */
  async load(): Promise<LoadedNodeAccess> {
    await mkdir(this.storageDir, { recursive: true, mode: 0o700 });
    return (this.loaded ??= loadNodeAccessBundle().then((bundle) => ({
      pools: new bundle.SshPoolHolder(this.poolOptions),
      take: bundle.takeCriSnapshot,
      run: bundle.runNodeSnapshot,
      stageMessage: bundle.snapshotStageMessage,
    })));
  }

  /** A node access setting changed: connections are reopened on next use. */
  reset(): void {
    void this.loaded?.then((r) => r.pools.reset());
  }

  dispose(): void {
    void this.loaded?.then((r) => r.pools.dispose());
  }
}
