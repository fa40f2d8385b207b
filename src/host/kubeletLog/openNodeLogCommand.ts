// "Open Kubelet Log from Node…": the kubelet unit's journal for a chosen window, shown as a read-only
// `kubelet-log` document so the log server analyses it. Two ways to fetch it, each with a deadline, an
// output cap and cancellation: over SSH (`journalctl -u kubelet --since … --until … -o short-precise`, see
// src/infra/ssh/kubeletJournal.ts) when node access is configured for the node's context, else through the
// API server's NodeLogQuery (`/api/v1/nodes/{node}/proxy/logs/?query=kubelet`). When SSH fails, the
// NodeLogQuery is tried next; the user is told which one gave the log.

import * as vscode from 'vscode';
import { journalWindow, megabytes, type JournalOutcome } from '../../core/parse/kubeletLogJournal';
import { kubeletLogQueryPath, LOG_WINDOWS_MINUTES } from '../../core/parse/logReaderNodeQuery';
import type { NodeEntry } from '../../core/tree/contextNodes';
import type { Logger } from '../../core/util/logger';
import { queryKubeletLog } from '../../infra/kube/kubeletLogQuery';
import { CommandIds } from '../../shared/commandIds';
import type { ClusterSession } from '../cluster/clusterSession';
import { readAccessWaySettings, readNodeAccessConfig } from '../config/settings';
import { loadKubeBundle } from '../bundles/kubeLoader';
import { t } from '../l10n';
import { fetchFromSources, logSources, nodeLogDocumentPath, nodeLogDocumentText, type Fetched } from './kubeletLogSource';
import { loadNodeAccessBundle } from '../bundles/loader';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import { pickNode } from '../nodeAccess/nodePicker';
import type { TreeElement } from '../views/treeElements';
import { ReadOnlyDocuments } from '../documents/readOnlyDocuments';
import { KUBELET_LOG_LANGUAGE, NODE_LOG_SCHEME } from './kubeletLogIds';
import { errorText } from '../../core/util/errorText';

const QUERY_TIMEOUT_MS = 60_000;
const MAX_LOG_BYTES = 64 * 1024 * 1024;

/** Fetched logs may be up to MAX_LOG_BYTES each: only the newest few stay in memory. */
const MAX_NODE_LOGS = 5;

/** Read-only documents of the kubelet logs fetched from nodes (the shared store registers the scheme). */
export class NodeLogDocuments extends ReadOnlyDocuments {
  constructor() {
    super({
      scheme: NODE_LOG_SCHEME,
      capacity: MAX_NODE_LOGS,
      missingText: () => `${t('This kubelet log is no longer in memory (PLEG Doctor keeps the last {0}). Open it from the node again.', MAX_NODE_LOGS)}\n`,
    });
  }
}

export interface OpenNodeLogDeps {
  session: ClusterSession;
  logger: Logger;
  documents: NodeLogDocuments;
  nodeAccess: NodeAccessRuntime;
}


async function withCancellableProgress<T>(title: string, run: (signal: AbortSignal) => Promise<T>): Promise<T | undefined> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, async (_progress, token) => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the user')));
    try {
      return await run(controller.signal);
    } catch (error) {
      if (controller.signal.aborted) return undefined;
      throw error;
    } finally {
      sub.dispose();
    }
  });
}

/** What the document ends with when the fetch stopped early: the cap or the deadline cut it. */
function cutNote(outcome: Extract<JournalOutcome, { kind: 'journal' }>): string | undefined {
  if (outcome.truncated) return t('-- PLEG Doctor: output truncated at {0} MB; choose a shorter window for the rest --', megabytes(MAX_LOG_BYTES));
  if (outcome.timedOut) return t('-- PLEG Doctor: journalctl did not finish within {0} s; the log stops here --', QUERY_TIMEOUT_MS / 1000);
  return undefined;
}

async function fetchOverSsh(entry: NodeEntry, minutes: number, deps: OpenNodeLogDeps): Promise<Fetched> {
  const { config } = readNodeAccessConfig();
  const where = `kubelet log of ${entry.name} over SSH`;
  try {
    const result = await withCancellableProgress(t('Fetching the kubelet log of {0} over SSH', entry.name), async (signal) => {
      const loaded = await deps.nodeAccess.load();
      const bundle = await loadNodeAccessBundle();
      return bundle.fetchKubeletJournalOverSsh(loaded.pools, { entry, config, window: journalWindow(Date.now(), minutes), timeoutMs: QUERY_TIMEOUT_MS, maxBytes: MAX_LOG_BYTES, signal });
    });
    if (result === undefined) return { kind: 'cancelled' };
    const { outcome, host } = result;
    if (outcome.stderr !== '') deps.logger.debug(`${where} (${host}): journalctl stderr: ${outcome.stderr.slice(0, 2000)}`);
    if (outcome.kind === 'failed') {
      const why = outcome.timedOut ? `no answer within ${QUERY_TIMEOUT_MS / 1000} s` : `journalctl exit ${String(outcome.exitCode)}: ${outcome.stderr.split('\n')[0] ?? ''}`;
      deps.logger.warn(`${where} (${host}): ${why}`);
      return { kind: 'failed', message: t('journalctl on {0} failed: {1}', entry.name, why) };
    }
    deps.logger.info(`${where} (${host}): ${outcome.text.length} characters${outcome.truncated ? ', truncated at the cap' : ''}${outcome.timedOut ? ', stopped at the deadline' : ''}`);
    const note = cutNote(outcome);
    return note !== undefined ? { kind: 'log', text: outcome.text, source: 'ssh', note } : { kind: 'log', text: outcome.text, source: 'ssh' };
  } catch (error) {
    const message = errorText(error);
    deps.logger.warn(`${where}: ${message}`);
    return { kind: 'failed', message };
  }
}

async function fetchThroughNodeLogQuery(entry: NodeEntry, minutes: number, deps: OpenNodeLogDeps): Promise<Fetched> {
  const gateway = deps.session.kube;
  if (gateway === undefined) return { kind: 'failed', message: t('The kubeconfig is not loaded yet.') };
  const since = Date.now() - minutes * 60_000;
  deps.logger.info(`kubelet log of ${entry.name} (context ${entry.context}): GET nodes/${entry.name}/proxy${kubeletLogQueryPath(since)}`);
  const result = await withCancellableProgress(t('Fetching the kubelet log of {0}', entry.name), (signal) =>
    queryKubeletLog(gateway, entry.context, entry.name, since, { timeoutMs: QUERY_TIMEOUT_MS, maxBytes: MAX_LOG_BYTES, signal }),
  );
  if (result === undefined) return { kind: 'cancelled' };
  if (result.kind === 'log') return { kind: 'log', text: result.text, source: 'nodelogquery' };
  let message: string;
  switch (result.kind) {
    case 'timeout':
      message = t('The kubelet log query of {0} got no answer within {1} s.', entry.name, QUERY_TIMEOUT_MS / 1000);
      break;
    case 'not-enabled':
      message = result.listing
        ? t('{0} answered with its /var/log listing instead of the kubelet journal: the kubelet needs the NodeLogQuery feature gate and enableSystemLogQuery: true.', entry.name)
        : t('{0} does not serve its logs (HTTP {1}): the kubelet needs the NodeLogQuery feature gate and enableSystemLogQuery: true.', entry.name, result.httpStatus);
      break;
    case 'forbidden':
      message = t('Reading the log of {0} is forbidden (HTTP {1}): it needs get on nodes/proxy.', entry.name, result.httpStatus);
      break;
    case 'failed':
      message = t('The kubelet log query of {0} failed: {1}', entry.name, result.message);
      break;
  }
  deps.logger.warn(`kubelet log of ${entry.name}: ${message}`);
  return { kind: 'failed', message };
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
  const sshConfigured = readNodeAccessConfig().config.clusters.clusters[entry.context] !== undefined;
  if (!sshConfigured) deps.logger.info(`kubelet log of ${entry.name}: no node access configured for context ${entry.context}, using the NodeLogQuery`);
  const { fetched, sshFailure } = await fetchFromSources(logSources(sshConfigured), (source) => {
    if (source === 'ssh') return fetchOverSsh(entry, picked.minutes, deps);
    if (sshConfigured) deps.logger.info(`kubelet log of ${entry.name}: SSH failed, trying the NodeLogQuery`);
    return fetchThroughNodeLogQuery(entry, picked.minutes, deps);
  });
  if (fetched.kind === 'cancelled') return;
  if (fetched.kind === 'failed') {
    // The way left: a debug pod reading the node's journal, offered in a modal (nothing is created unless
    // confirmed), when plegDoctor.nodeAccess.ways allows one.
    const allowed = readAccessWaySettings().settings.allowed.includes('debug-pod');
    const viaPod = allowed ? await (await loadKubeBundle()).fetchKubeletLogThroughDebugPod(entry, journalWindow(Date.now(), picked.minutes), debugPodReason(sshConfigured, sshFailure, fetched.message), deps) : undefined;
    if (viaPod?.kind === 'cancelled') return;
    if (viaPod?.kind !== 'log') {
      const tried = sshFailure !== undefined ? t('Neither SSH nor the NodeLogQuery gave the kubelet log of {0}. SSH: {1} NodeLogQuery: {2}', entry.name, sshFailure, fetched.message) : fetched.message;
      const message = viaPod?.kind === 'failed' ? t('{0} Debug pod: {1}', tried, viaPod.message) : tried;
      const choice = await vscode.window.showErrorMessage(message, t('Show Log'));
      if (choice !== undefined) await vscode.commands.executeCommand(CommandIds.showLog);
      return;
    }
    await showNodeLog(entry, viaPod, deps);
    return;
  }
  if (sshFailure !== undefined) void vscode.window.showWarningMessage(t('SSH to {0} failed ({1}); the kubelet log was fetched through the NodeLogQuery instead.', entry.name, sshFailure));
  await showNodeLog(entry, fetched, deps);
}

/** Why only a debug pod is left, for its modal and the log. */
function debugPodReason(sshConfigured: boolean, sshFailure: string | undefined, queryFailure: string): string {
  const ssh = sshConfigured ? `SSH failed (${sshFailure ?? 'no answer'})` : 'no SSH is configured for the node';
  return `the agent does not serve the kubelet's log; ${ssh}; the NodeLogQuery failed (${queryFailure})`;
}

async function showNodeLog(entry: NodeEntry, fetched: Extract<Fetched, { kind: 'log' }>, deps: OpenNodeLogDeps): Promise<void> {
  const uri = vscode.Uri.from({ scheme: NODE_LOG_SCHEME, path: nodeLogDocumentPath(entry.context, entry.name, fetched.source, new Date()) });
  deps.documents.set(uri, nodeLogDocumentText(fetched));
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), KUBELET_LOG_LANGUAGE);
  await vscode.window.showTextDocument(doc, { preview: false });
}
