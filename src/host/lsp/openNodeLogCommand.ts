// "Open Kubelet Log from Node…": the kubelet unit's journal for a chosen window, fetched through the API
// server's NodeLogQuery (`/api/v1/nodes/{node}/proxy/logs/?query=kubelet`, with a deadline, an output
// cap and cancellation), shown as a read-only `kubelet-log` document so the log server analyses it.

import * as vscode from 'vscode';
import { classifyLogQueryStatus, isLogDirectoryListing, kubeletLogQueryPath, LOG_WINDOWS_MINUTES } from '../../core/parse/logReaderNodeQuery';
import type { Logger } from '../../core/util/logger';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';
import { pickNode } from '../nodeAccess/nodePicker';
import type { TreeElement } from '../views/treeElements';
import { KUBELET_LOG_LANGUAGE, NODE_LOG_SCHEME } from './kubeletLogIds';

const QUERY_TIMEOUT_MS = 60_000;
const MAX_LOG_BYTES = 64 * 1024 * 1024;

/** Read-only documents: VS Code offers no edit for a content provider's documents. */
export class NodeLogDocuments implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export interface OpenNodeLogDeps {
  session: ClusterSession;
  logger: Logger;
  documents: NodeLogDocuments;
}

function windowLabel(minutes: number): string {
  return minutes < 60 ? t('Last {0} minutes', minutes) : t('Last {0} hours', minutes / 60);
}

export async function openKubeletLogFromNode(element: TreeElement | undefined, deps: OpenNodeLogDeps): Promise<void> {
  const entry = element?.kind === 'node' ? element : await pickNode(deps.session, t('Open Kubelet Log from Node'));
  if (entry === undefined) return;
  const picked = await vscode.window.showQuickPick(
    LOG_WINDOWS_MINUTES.map((minutes) => ({ label: windowLabel(minutes), minutes })),
    { title: t('Kubelet log of {0}', entry.name), placeHolder: t('How far back?') },
  );
  if (picked === undefined) return;
  const gateway = deps.session.kube;
  if (gateway === undefined) {
    void vscode.window.showErrorMessage(t('The kubeconfig is not loaded yet.'));
    return;
  }
  const path = kubeletLogQueryPath(Date.now() - picked.minutes * 60_000);
  deps.logger.info(`kubelet log of ${entry.name} (context ${entry.context}): GET nodes/${entry.name}/proxy${path}`);
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Fetching the kubelet log of {0}', entry.name), cancellable: true },
    async (_progress, token) => {
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the user')));
      try {
        return await gateway.nodeProxyGet(entry.context, entry.name, path, { timeoutMs: QUERY_TIMEOUT_MS, maxBytes: MAX_LOG_BYTES, signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) return undefined;
        throw error;
      } finally {
        sub.dispose();
      }
    },
  );
  if (result === undefined) return;
  if (result.kind !== 'ok') {
    let message: string;
    if (result.kind === 'timeout') message = t('The kubelet log query of {0} got no answer within {1} s.', entry.name, QUERY_TIMEOUT_MS / 1000);
    else if (result.kind === 'failed') message = t('The kubelet log query of {0} failed: {1}', entry.name, result.error.message);
    else {
      const cause = classifyLogQueryStatus(result.httpStatus);
      message =
        cause === 'not-enabled'
          ? t('{0} does not serve its logs (HTTP {1}): the kubelet needs the NodeLogQuery feature gate and enableSystemLogQuery: true.', entry.name, result.httpStatus)
          : cause === 'forbidden'
            ? t('Reading the log of {0} is forbidden (HTTP {1}): it needs get on nodes/proxy.', entry.name, result.httpStatus)
            : t('The kubelet log query of {0} failed: {1}', entry.name, result.error.message);
    }
    deps.logger.warn(`kubelet log of ${entry.name}: ${message}`);
    const choice = await vscode.window.showErrorMessage(message, t('Show Log'));
    if (choice !== undefined) await vscode.commands.executeCommand(CommandIds.showLog);
    return;
  }
  if (isLogDirectoryListing(result.body)) {
    const message = t('{0} answered with its /var/log listing instead of the kubelet journal: the kubelet needs the NodeLogQuery feature gate and enableSystemLogQuery: true.', entry.name);
    deps.logger.warn(`kubelet log of ${entry.name}: ${message}`);
    void vscode.window.showErrorMessage(message);
    return;
  }
  const stamp = new Date().toISOString().replace(/[:.]/gu, '-');
  const uri = vscode.Uri.from({ scheme: NODE_LOG_SCHEME, path: `/${entry.context}/${entry.name}-kubelet-${stamp}.log` });
  deps.documents.set(uri, result.body);
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), KUBELET_LOG_LANGUAGE);
  await vscode.window.showTextDocument(doc, { preview: false });
}
