// The kubelet-log language client, started lazily: only when the first `kubelet-log` document is open.
// The server (dist/server.js, from src/server/main.ts) runs over IPC and logs into the PLEG Doctor channel.

import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { CommandIds } from '../../shared/commandIds';
import { t } from '../l10n';
import { loadLanguageClientBundle } from '../bundles/loader';
import type { Services } from '../services';
import type { TreeElement } from '../views/treeElements';
import { KUBELET_LOG_LANGUAGE, NODE_LOG_SCHEME } from './kubeletLogIds';
import { NodeLogDocuments, openKubeletLogFromNode } from './openNodeLogCommand';
import { errorText } from '../../core/util/errorText';

export { KUBELET_LOG_LANGUAGE } from './kubeletLogIds';
const STOP_DEADLINE_MS = 2_000;

/** The server has its own lifetime: deactivate() awaits `stop` so no orphan process is left. */
export interface KubeletLogClientRegistration {
  disposables: vscode.Disposable[];
  stop(): Promise<void>;
}

export function registerKubeletLogClient(services: Services): KubeletLogClientRegistration {
  const { context, nodeAccess } = services;
  let client: LanguageClient | undefined;
  let starting: Promise<void> | undefined;

  const start = async (): Promise<void> => {
    // Loaded on first use so that activation does not pay for the LSP client (its own bundle, dist/languageClient.js).
    const { LanguageClient, TransportKind } = await loadLanguageClientBundle();
    const module = context.asAbsolutePath('dist/server.js');
    const created = new LanguageClient(
      'plegDoctor.kubeletLog',
      t('PLEG Doctor kubelet log server'),
      {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
      },
      {
        documentSelector: [
          { language: KUBELET_LOG_LANGUAGE, scheme: 'file' },
          { language: KUBELET_LOG_LANGUAGE, scheme: 'untitled' },
          { language: KUBELET_LOG_LANGUAGE, scheme: NODE_LOG_SCHEME },
        ],
        outputChannel: services.output,
        initializationOptions: { l10nBundleUri: vscode.l10n.uri?.toString() },
      },
    );
    client = created;
    await created.start();
    services.logger.info('kubelet-log language server started');
  };

  const ensureStarted = (document: vscode.TextDocument): void => {
    if (document.languageId !== KUBELET_LOG_LANGUAGE || starting !== undefined) return;
    starting = start().catch((err: unknown) => {
      services.logger.error(`kubelet-log language server failed to start: ${errorText(err)}`);
      void vscode.window.showErrorMessage(t('The kubelet log analyzer could not start.'), t('Show Log')).then((choice) => {
        if (choice !== undefined) services.output.show(true);
      });
    });
  };

  for (const document of vscode.workspace.textDocuments) ensureStarted(document);

  const stop = async (): Promise<void> => {
    const running = client;
    client = undefined;
    if (running === undefined) return;
    try {
      await running.stop(STOP_DEADLINE_MS);
    } catch (err) {
      services.logger.warn(`kubelet-log language server did not stop cleanly: ${errorText(err)}`);
    }
  };

  // Setting a document's language re-opens it, so onDidOpenTextDocument also sees fetched node logs.
  const nodeLogs = new NodeLogDocuments();
  return {
    disposables: [
      vscode.workspace.onDidOpenTextDocument(ensureStarted),
      nodeLogs,
      vscode.commands.registerCommand(CommandIds.openKubeletLogFromNode, (element?: TreeElement) =>
        openKubeletLogFromNode(element, { session: services.session, logger: services.logger, documents: nodeLogs, nodeAccess }),
      ),
      new vscode.Disposable(() => void stop()),
    ],
    stop,
  };
}
