// "Open Kubelet Log from Node…" through a debug pod: the way left when SSH is not configured or failed and
// the NodeLogQuery gave nothing (the agent does not serve the journal). The pod reads the node's journal
// files with PLEG Doctor's own reader (src/core/journal, the same bytes as journalctl -o short-precise), and
// is created only after the modal of editorNodeAccess.ts, refused in an untrusted workspace, deleted when
// done or cancelled. In dist/kube.js, with the pods API and the modal.

import * as vscode from 'vscode';
import type { JournalWindow } from '../../core/parse/kubeletLogJournal';
import type { NodeEntry } from '../../core/tree/contextNodes';
import { errorText } from '../../core/util/errorText';
import type { Logger } from '../../core/util/logger';
import { planDebugPodKubeletLog, readKubeletLogThroughDebugPod } from '../../infra/nodeAccess/debugPod/debugPodKubeletLog';
import type { ClusterSession } from '../cluster/clusterSession';
import { t } from '../l10n';
import { resolveNodeAccess } from '../nodeAccess/editorNodeAccess';
import type { Fetched } from './kubeletLogSource';

/** The pod's activeDeadlineSeconds: the reader inside stops 15 s before it (debugPodKubeletLog.ts). */
const DEBUG_POD_DEADLINE_SECONDS = 120;

export interface DebugPodLogDeps {
  session: ClusterSession;
  logger: Logger;
}

/**
 * What the document ends with when the pod's reader found no journal file in `dirs` (the journal shows only
 * "-- No entries --", as journalctl's does, which also says "No journal files were found." on stderr), or
 * left something out: compressed entries, a cut.
 */
export function debugPodLogNote(summary: { compressedNotRead: Partial<Record<string, number>>; truncated: boolean; timedOut: boolean; files: number }, dirs: readonly string[]): string | undefined {
  const notes: string[] = [];
  if (summary.files === 0) notes.push(t('no journal file in {0} on the node: its journal is kept elsewhere (/run/log/journal when volatile) or its kubelet does not log to journald', dirs.join(', ')));
  const compressed = Object.entries(summary.compressedNotRead).filter(([, n]) => (n ?? 0) > 0);
  if (compressed.length > 0) notes.push(t('{0} compressed entries of the window could not be read (journalctl shows them)', compressed.map(([kind, n]) => `${String(n)} ${kind}`).join(', ')));
  if (summary.truncated) notes.push(t('output truncated at the cap; choose a shorter window for the rest'));
  if (summary.timedOut) notes.push(t('the reader stopped at its deadline; the log stops here'));
  return notes.length > 0 ? `-- PLEG Doctor (debug pod): ${notes.join('; ')} --` : undefined;
}

/** Offers the debug pod (modal), runs it under a cancellable progress, and returns the log or why not. */
export async function fetchKubeletLogThroughDebugPod(entry: NodeEntry, window: JournalWindow, why: string, deps: DebugPodLogDeps): Promise<Fetched> {
  const access = await resolveNodeAccess(entry, {
    session: deps.session,
    logger: deps.logger,
    purpose: 'kubelet log',
    title: t('Kubelet log of {0}', entry.name),
    supports: ['debug-pod'],
    debugPodOnly: {
      why,
      plan: (api, ways, signal) =>
        planDebugPodKubeletLog(api, { node: entry.name, namespace: ways.debugPod.namespace, ...(ways.debugPod.image !== '' ? { image: ways.debugPod.image } : {}), window, deadlineSeconds: DEBUG_POD_DEADLINE_SECONDS }, signal),
    },
  });
  if (access.way === 'cancelled') return { kind: 'cancelled' };
  if (access.way !== 'debug-pod') return { kind: 'failed', message: access.why };
  const pod = `${access.plan.manifest.metadata.namespace}/${access.plan.manifest.metadata.name}`;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: t('Kubelet log of {0} through debug pod {1}', entry.name, pod), cancellable: true }, async (progress, token): Promise<Fetched> => {
    const controller = new AbortController();
    const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the user')));
    try {
      const read = await readKubeletLogThroughDebugPod(access.api, access.plan.manifest, { logger: deps.logger, signal: controller.signal, onStage: (stage) => progress.report({ message: stage }) });
      if (!read.deleted) void vscode.window.showWarningMessage(t('The debug pod {0} could not be confirmed deleted: remove it with kubectl delete pod -n {1} {2}', pod, access.plan.manifest.metadata.namespace, access.plan.manifest.metadata.name));
      deps.logger.info(`kubelet log of ${entry.name} ${read.access.label}: ${read.summary.entries} entries from ${read.summary.files} journal files${read.summary.errors.length > 0 ? `; ${read.summary.errors.join('; ')}` : ''}`);
      const note = debugPodLogNote(read.summary, access.plan.manifest.spec.volumes.map((v) => v.hostPath.path));
      return { kind: 'log', text: read.outcome.text, source: 'debug-pod', ...(note !== undefined ? { note } : {}) };
    } catch (err) {
      if (controller.signal.aborted) {
        deps.logger.info(`kubelet log of ${entry.name}: debug pod ${pod} cancelled (deleted by its runner)`);
        return { kind: 'cancelled' };
      }
      const message = errorText(err);
      deps.logger.warn(`kubelet log of ${entry.name} through debug pod ${pod}: ${message}`);
      return { kind: 'failed', message };
    } finally {
      sub.dispose();
    }
  });
}
