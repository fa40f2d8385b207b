// "Open Kubelet Log from Node" through a debug pod: plan the pod (image, journal directories, window, the
// words that confirm it), run it (runDebugPod: create, wait, read its log, delete) and split its log into
// the journal, byte for byte `journalctl -u kubelet -o short-precise`'s, and the summary line the pod's
// `pleg-doctor kubelet-journal` wrote last. The caller shows plan.confirmation and only then runs it.
//
// For the editor: planDebugPodKubeletLog and readKubeletLogThroughDebugPod take a PodsApi
// (gateway.podsApi(context)), an AbortSignal and a Logger; onStage gets each step in words ("creating on
// node …", "Running", "reading its log", "deleted"). The result's `outcome` is the SSH path's JournalOutcome
// (src/infra/ssh/kubeletJournal.ts), so the log reader and the language server take it the same way.

import { wayLabel } from '../../../core/nodeAccess/accessWay';
import { debugPodConfirmation, debugPodManifest, KUBELET_LOG_MAX_BYTES } from '../../../core/nodeAccess/debugPodSpec';
import type { DebugPodManifest } from '../../../core/nodeAccess/debugPodSpec';
import { splitJournalLog, type JournalSummaryLine } from '../../../core/journal/journalSummaryLine';
import type { JournalOutcome, JournalWindow } from '../../../core/parse/kubeletLogJournal';
import type { Logger } from '../../../core/util/logger';
import type { PodsApi } from '../../kube/podsApi';
import { DebugPodSetupError, randomSuffix, resolveDebugImage, type DebugPodPlan } from './debugPodSnapshot';
import { DebugPodError, describePodEnd, runDebugPod, type DebugPodTimeouts } from './runDebugPod';

/**
 * journald's persistent journal: where the kubelet's log is on nodes that keep the journal (Storage=auto with
 * the directory present, as node images ship it). A node with a volatile journal only has /run/log/journal:
 * pass that instead. A directory the node does not have fails the pod's mount, with the kubelet's reason.
 */
export const DEFAULT_NODE_JOURNAL_DIRS: readonly string[] = ['/var/log/journal'];

export interface KubeletLogPlanRequest {
  node: string;
  namespace: string;
  image?: string;
  window: JournalWindow;
  journalDirs?: readonly string[];
  /** The pod's activeDeadlineSeconds; the reader inside stops 15 s before it. */
  deadlineSeconds: number;
  /** Output cap inside the pod (at most KUBELET_LOG_MAX_BYTES, the default). */
  maxBytes?: number;
}

/** Reads what it needs (the agent DaemonSet's image), creates nothing. */
export async function planDebugPodKubeletLog(api: PodsApi, req: KubeletLogPlanRequest, signal: AbortSignal): Promise<DebugPodPlan> {
  const { image, from } = await resolveDebugImage(api, req.namespace, req.image, signal);
  let manifest;
  try {
    manifest = debugPodManifest({
      node: req.node,
      namespace: req.namespace,
      image,
      run: {
        kind: 'kubelet-log',
        sinceEpochMs: req.window.sinceEpochMs,
        untilEpochMs: req.window.untilEpochMs,
        journalDirs: [...(req.journalDirs ?? DEFAULT_NODE_JOURNAL_DIRS)],
        maxBytes: req.maxBytes ?? KUBELET_LOG_MAX_BYTES,
        // Room for Node to start and for the summary line before the kubelet stops the pod.
        readDeadlineMs: Math.max(1_000, (req.deadlineSeconds - 15) * 1000),
      },
      deadlineSeconds: req.deadlineSeconds,
      suffix: randomSuffix(),
    });
  } catch (err) {
    throw new DebugPodSetupError((err as Error).message);
  }
  return { manifest, confirmation: debugPodConfirmation(manifest), imageFrom: from };
}

export interface DebugPodKubeletLog {
  /** As the SSH path returns it: the journal's text, cut or not, and what the reader said on stderr. */
  outcome: JournalOutcome & { kind: 'journal' };
  summary: JournalSummaryLine;
  access: { way: 'debug-pod'; label: string; pod: string; image: string };
  /** Whether the pod's deletion was confirmed. */
  deleted: boolean;
}

function tail(log: string, lines = 20): string {
  return log.trimEnd().split('\n').slice(-lines).join('\n');
}

/** A logger that also hands each step to `onStage` (the editor's progress notification). */
function staged(logger: Logger, onStage: ((stage: string) => void) | undefined): Logger {
  if (onStage === undefined) return logger;
  return {
    ...logger,
    info: (m) => {
      logger.info(m);
      onStage(m);
    },
  };
}

/**
 * Runs the planned pod and returns the journal it printed. A pod that ended without the summary line (it
 * could not run the reader, or was stopped first) is a DebugPodError with the pod's end and its log's tail;
 * one that exited 1 (some journal files unreadable) is returned, the files named in the outcome's stderr.
 */
export async function readKubeletLogThroughDebugPod(
  api: PodsApi,
  manifest: DebugPodManifest,
  options: { logger: Logger; signal: AbortSignal; onStage?: (stage: string) => void; timeouts?: Partial<DebugPodTimeouts> },
): Promise<DebugPodKubeletLog> {
  const outcome = await runDebugPod(api, manifest, {
    logger: staged(options.logger, options.onStage),
    signal: options.signal,
    ...(options.timeouts !== undefined ? { timeouts: options.timeouts } : {}),
  });
  const pod = `${manifest.metadata.namespace}/${manifest.metadata.name}`;
  const split = splitJournalLog(outcome.log);
  if (split.summary === undefined) {
    throw new DebugPodError(`debug pod ${pod} ended ${describePodEnd(outcome.pod)} without the journal's summary line in its log; its last lines:\n${tail(outcome.log) || '(empty log)'}`, outcome.pod, outcome.log);
  }
  const s = split.summary;
  const exitCode = outcome.pod.containers[0]?.terminated?.exitCode ?? null;
  return {
    outcome: {
      kind: 'journal',
      text: split.journal,
      truncated: s.truncated,
      timedOut: s.timedOut,
      exitCode,
      // The reader's own warnings (unreadable files, compressed entries, a cut), as journalctl's stderr would be.
      stderr: split.notes.join('\n'),
    },
    summary: s,
    access: { way: 'debug-pod', label: wayLabel('debug-pod', `${pod} on ${manifest.spec.nodeName}`), pod, image: manifest.spec.containers[0]?.image ?? '' },
    deleted: outcome.deleted,
  };
}
