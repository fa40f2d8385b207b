// One debug pod's life (core/nodeAccess/debugPodSpec.ts makes the manifest): create → wait until it has
// run to the end → read its log → delete it (grace 0) and wait until it is gone. Every step has a deadline
// and honours the caller's signal; whatever happens after the create was sent (an abort, a failure, a
// deadline), the pod is deleted in `finally`, with a deadline of its own that does not depend on the
// caller's (already aborted) signal. Each step is logged.

import type { DebugPodManifest } from '../../../core/nodeAccess/debugPodSpec';
import type { Logger } from '../../../core/util/logger';
import { timeoutSignal } from '../../../core/util/deadlineSignal';
import { errorText } from '../../../core/util/errorText';
import { KubeRequestError } from '../../kube/createGateway';
import type { PodsApi, PodSummary } from '../../kube/podsApi';

export interface DebugPodTimeouts {
  /** How long the pod may take, from the create to a final phase (default: activeDeadlineSeconds + 30 s). */
  completionMs?: number;
  /** Between two reads of the pod's status. */
  pollMs: number;
  /** The deletion and the wait for the pod to be gone. */
  deleteMs: number;
  /** The log is cut off (and the run fails) beyond this size. */
  maxLogBytes: number;
}

export const DEFAULT_DEBUG_POD_TIMEOUTS: DebugPodTimeouts = { pollMs: 1_000, deleteMs: 30_000, maxLogBytes: 16 * 1024 * 1024 };

export interface DebugPodOutcome {
  pod: PodSummary;
  /** The container's log (its stdout and stderr, as the kubelet wrote them). */
  log: string;
  /** Whether the deletion was confirmed (the pod is gone). */
  deleted: boolean;
}

/** The pod could not do its job; `pod` and `log` (when read) say how it ended. */
export class DebugPodError extends Error {
  override readonly name = 'DebugPodError';
  constructor(
    message: string,
    readonly pod?: PodSummary,
    readonly log?: string,
  ) {
    super(message);
  }
}

/** The caller's signal fired; the pod was deleted (or its deletion failed, which is logged). */
export class DebugPodAbortedError extends Error {
  override readonly name = 'DebugPodAbortedError';
}

/** Waiting reasons the kubelet gives that will not resolve by themselves within a one-shot pod's life. */
const HOPELESS_WAITING = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

/**
 * While Pending, the pod's events are read every this many polls: the kubelet reports a hostPath it cannot
 * mount (a --cri-socket that is not a socket on the node) only as a FailedMount event ("MountVolume.SetUp
 * failed for volume …: hostPath type check failed: … is not a socket file"), retrying until the deadline.
 */
const EVENT_EVERY_POLLS = 3;

/**
 * The kubelet's pod worker waits for a pod's volumes up to podAttachAndMountTimeout, 2m3s
 * (pkg/kubelet/volumemanager/volume_manager.go, WaitForAttachAndMount), and only then handles its deletion;
 * the API server keeps the pod until the kubelet confirms. After a FailedMount the deletion is waited for
 * that long, with a margin.
 */
const MOUNT_WAIT_DELETE_MS = 135_000;

/** What the wait learnt, for the error at the deadline and for how long the deletion may take. */
interface Seen {
  pod?: PodSummary;
  mountFailed?: boolean;
}

/** "Failed (DeadlineExceeded: Pod was active on the node longer than …); container snapshot: exit 1 (Error)". */
export function describePodEnd(pod: PodSummary): string {
  const parts = [`${pod.phase ?? 'phase unknown'}${pod.reason !== undefined ? ` (${pod.reason}${pod.message !== undefined ? `: ${pod.message}` : ''})` : ''}`];
  for (const c of pod.containers) {
    if (c.terminated !== undefined) {
      parts.push(`container ${c.name}: exit ${c.terminated.exitCode ?? '?'}${c.terminated.reason !== undefined ? ` (${c.terminated.reason})` : ''}${c.terminated.message !== undefined ? `: ${c.terminated.message}` : ''}`);
    } else if (c.waiting !== undefined) {
      parts.push(`container ${c.name}: waiting (${c.waiting.reason ?? 'no reason'}${c.waiting.message !== undefined ? `: ${c.waiting.message}` : ''})`);
    }
  }
  return parts.join('; ');
}

/** A gateway error in words, with the API server's own text when it says more (PodSecurity's refusal does). */
function apiErrorText(err: unknown): string {
  if (err instanceof KubeRequestError) {
    const detail = err.error.detail;
    return detail !== undefined && !err.error.message.includes(detail) ? `${err.error.message}: ${detail}` : err.error.message;
  }
  return errorText(err);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The pod's final summary, or an error naming why it will never get there. `seen` keeps the last read. */
async function waitForEnd(api: PodsApi, ns: string, name: string, pollMs: number, signal: AbortSignal, logger: Logger, seen: Seen): Promise<PodSummary> {
  let lastPhase: string | undefined;
  let polls = 0;
  let eventsReadable = true;
  for (;;) {
    const pod = await api.getPod(ns, name, signal);
    if (pod !== undefined) seen.pod = pod;
    if (pod === undefined) throw new DebugPodError(`pod ${ns}/${name} disappeared before it finished (deleted by someone else?)`);
    if (pod.phase !== lastPhase) {
      logger.info(`debug pod ${ns}/${name}: ${pod.phase ?? 'no phase yet'}`);
      lastPhase = pod.phase;
    }
    if (pod.phase === 'Succeeded' || pod.phase === 'Failed') return pod;
    const stuck = pod.containers.find((c) => c.waiting?.reason !== undefined && HOPELESS_WAITING.has(c.waiting.reason));
    if (stuck !== undefined) throw new DebugPodError(`pod ${ns}/${name} cannot start: ${describePodEnd(pod)}`, pod);
    polls++;
    if (pod.phase === 'Pending' && eventsReadable && polls % EVENT_EVERY_POLLS === 0) {
      try {
        const failed = (await api.podEvents(ns, name, signal)).find((e) => e.type === 'Warning' && e.reason === 'FailedMount');
        if (failed !== undefined) {
          seen.mountFailed = true;
          throw new DebugPodError(`pod ${ns}/${name} cannot start: ${failed.reason}: ${failed.message ?? 'no message'}`, pod);
        }
      } catch (err) {
        if (err instanceof DebugPodError || signal.aborted) throw err;
        // Reading events is optional (`list events`): without it a mount that fails is only seen at the deadline.
        eventsReadable = false;
        logger.warn(`debug pod ${ns}/${name}: cannot read its events (${apiErrorText(err)}); a pod that cannot mount the socket is only noticed at its deadline`);
      }
    }
    await sleep(pollMs, signal);
  }
}

async function deleteAndConfirm(api: PodsApi, ns: string, name: string, t: DebugPodTimeouts, logger: Logger): Promise<boolean> {
  const deadline = timeoutSignal(t.deleteMs);
  try {
    logger.info(`debug pod ${ns}/${name}: deleting (grace 0)`);
    await api.deletePod(ns, name, 0, deadline);
    // A pod on a live node goes once the kubelet confirms; on an unreachable node the API server keeps it
    // until the node controller's eviction, which is why the wait has its own deadline.
    for (;;) {
      if ((await api.getPod(ns, name, deadline)) === undefined) {
        logger.info(`debug pod ${ns}/${name}: deleted`);
        return true;
      }
      await sleep(Math.min(t.pollMs, 500), deadline);
    }
  } catch (err) {
    logger.error(
      `debug pod ${ns}/${name}: could not confirm its deletion within ${t.deleteMs} ms (${deadline.aborted ? 'deadline passed' : apiErrorText(err)}); remove it with: kubectl delete pod -n ${ns} ${name}`,
    );
    return false;
  }
}

/**
 * Creates the pod, waits for it to finish, reads its log, deletes it. Resolves for a pod that Succeeded or
 * Failed with a log (the caller decides what the log means); rejects with DebugPodError (naming the pod's
 * end and carrying its log), DebugPodAbortedError, or the API's error. Never returns before the deletion
 * was attempted.
 */
export async function runDebugPod(api: PodsApi, manifest: DebugPodManifest, options: { logger: Logger; signal: AbortSignal; timeouts?: Partial<DebugPodTimeouts> }): Promise<DebugPodOutcome> {
  const t: DebugPodTimeouts = { ...DEFAULT_DEBUG_POD_TIMEOUTS, ...options.timeouts };
  const { logger } = options;
  const ns = manifest.metadata.namespace;
  const name = manifest.metadata.name;
  const container = manifest.spec.containers[0]?.name ?? '';
  const completionMs = t.completionMs ?? (manifest.spec.activeDeadlineSeconds + 30) * 1000;
  const completion = timeoutSignal(completionMs);
  const signal = AbortSignal.any([options.signal, completion]);
  const seen: Seen = {};
  const failure = (err: unknown): unknown => {
    if (options.signal.aborted) return new DebugPodAbortedError(`debug pod ${ns}/${name}: ${errorText(options.signal.reason)}`);
    if (completion.aborted) {
      const last = seen.pod;
      // The kubelet starts no pod while its PLEG is unhealthy (pkg/kubelet/kubelet.go, syncLoop: "skipping pod
      // synchronization", docs/kubelet-messages.md L1), so on a node in that state a debug pod stays Pending.
      const pending = last === undefined || last.phase === undefined || last.phase === 'Pending';
      return new DebugPodError(
        `debug pod ${ns}/${name} did not finish within ${completionMs} ms (last seen: ${last !== undefined ? describePodEnd(last) : 'never read'})${pending ? "; a kubelet whose PLEG is not healthy starts no pods: reach this node through the agent or SSH" : ''}`,
        last,
      );
    }
    return err instanceof DebugPodError ? err : new DebugPodError(`debug pod ${ns}/${name}: ${apiErrorText(err)}`);
  };
  if (options.signal.aborted) throw failure(undefined);

  logger.info(`debug pod ${ns}/${name}: creating on node ${manifest.spec.nodeName} (image ${manifest.spec.containers[0]?.image ?? '?'})`);
  try {
    await api.createPod(ns, manifest, signal);
  } catch (err) {
    // An answer 4xx says nothing was created (409: the name is someone else's pod, never to be deleted).
    // Anything else (an abort, a deadline, a reset connection) may have reached the API server: delete in
    // case it did.
    const refused = err instanceof KubeRequestError && err.error.httpStatus !== undefined && err.error.httpStatus >= 400 && err.error.httpStatus < 500;
    if (!refused) await deleteAndConfirm(api, ns, name, t, logger);
    throw failure(err);
  }
  let deleteTried = false;
  try {
    const pod = await waitForEnd(api, ns, name, t.pollMs, signal, logger, seen);
    logger.info(`debug pod ${ns}/${name}: ${describePodEnd(pod)}; reading its log`);
    let log: string;
    try {
      log = await api.readPodLog(ns, name, container, { maxBytes: t.maxLogBytes, signal });
    } catch (err) {
      throw new DebugPodError(`debug pod ${ns}/${name} ended ${describePodEnd(pod)}, and its log could not be read: ${apiErrorText(err)}`, pod);
    }
    deleteTried = true;
    const deleted = await deleteAndConfirm(api, ns, name, t, logger);
    return { pod, log, deleted };
  } catch (err) {
    throw failure(err);
  } finally {
    if (!deleteTried) {
      if (seen.mountFailed === true && t.deleteMs < MOUNT_WAIT_DELETE_MS) {
        logger.info(`debug pod ${ns}/${name}: the kubelet finishes its wait for the pod's volumes (up to 2m3s) before it lets the pod go; waiting up to ${MOUNT_WAIT_DELETE_MS / 1000} s`);
        await deleteAndConfirm(api, ns, name, { ...t, deleteMs: MOUNT_WAIT_DELETE_MS }, logger);
      } else await deleteAndConfirm(api, ns, name, t, logger);
    }
  }
}
