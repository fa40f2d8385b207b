// The kubelet log for a diagnosis, bounded three ways: a window (`--since`), a byte cap and a deadline.
// Over SSH first when the node side is allowed (`journalctl -u kubelet`, src/infra/ssh/kubeletJournal.ts),
// else and as the fallback through the kubelet's NodeLogQuery (src/infra/kube/kubeletLogQuery.ts), which
// is not asked at all when /configz shows the kubelet cannot serve it (enableSystemLogQuery not true, or
// the NodeLogQuery gate set false). A log that was cut still counts, with the cut said; a log that could
// not be read is the source's status, never a tool error. Only the caller's abort rejects.

import type { Fetched } from '../../core/diagnose/evidence';
import { kubeletLogEvidence, type KubeletLogEvidence, type KubeletLogOrigin } from '../../core/diagnose/kubeletLog';
import type { KubeletConfigz } from '../../core/parse/kubeletEndpointTypes';
import { journalWindow, megabytes, type JournalOutcome, type JournalWindow } from '../../core/parse/kubeletLogJournal';
import type { KubeGateway } from '../kube/gateway';
import { queryKubeletLog } from '../kube/kubeletLogQuery';
import { proxyAbortError } from '../kube/nodeProxy';
import { nextTurn } from './cpuTurns';
import { errorText } from '../../core/util/errorText';

export const DEFAULT_LOG_WINDOW_MINUTES = 30;
/** A busy -v=4 kubelet writes a few MB in 30 minutes; past this the log is cut at a whole line. */
export const DEFAULT_LOG_MAX_BYTES = 16 * 1024 * 1024;

export interface JournalFetch {
  window: JournalWindow;
  timeoutMs: number;
  maxBytes: number;
  signal: AbortSignal;
}

export interface KubeletLogPlan {
  windowMinutes: number;
  maxBytes: number;
  timeoutMs: number;
  /** `journalctl -u kubelet` on the node (rejects when no command could run: unreachable, auth, …). */
  ssh?: (fetch: JournalFetch) => Promise<JournalOutcome>;
  /** Ask the kubelet's NodeLogQuery through the node proxy (when there is no SSH way or it failed). */
  nodeLogQuery: boolean;
}

/** The default log read: the last DEFAULT_LOG_WINDOW_MINUTES, up to DEFAULT_LOG_MAX_BYTES, without SSH. */
export function defaultKubeletLogPlan(timeoutMs: number, nodeLogQuery: boolean): KubeletLogPlan {
  return { windowMinutes: DEFAULT_LOG_WINDOW_MINUTES, maxBytes: DEFAULT_LOG_MAX_BYTES, timeoutMs, nodeLogQuery };
}

export interface LogRequest {
  gateway: KubeGateway;
  context: string;
  node: string;
  signal: AbortSignal;
  /** The /configz answer of the same collection: it says whether the NodeLogQuery can work. */
  configz: Promise<Fetched<KubeletConfigz>>;
  nowMs: number;
}

export interface CollectedLog {
  fetched: Fetched<KubeletLogEvidence>;
  /** The text the evidence was read from, for a bundle. */
  text?: string;
}

/** Why the kubelet cannot answer a NodeLogQuery, by its running configuration; undefined when it may. */
export function nodeLogQueryRefusal(configz: KubeletConfigz | undefined): string | undefined {
  if (configz === undefined) return undefined;
  if (configz.enableSystemLogQuery !== true) return 'the kubelet’s configuration has no enableSystemLogQuery: true (/configz), so it serves no journal';
  if (configz.featureGates['NodeLogQuery'] === false) return 'the kubelet runs with the NodeLogQuery feature gate off (/configz)';
  return undefined;
}

function capText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${megabytes(bytes)} MB` : `${Math.round(bytes / 1024)} KB`;
}

function windowText(how: string, minutes: number): string {
  return `${how}, last ${minutes} min`;
}

function message(err: unknown): string {
  return errorText(err);
}

async function evidenceOf(text: string, origin: KubeletLogOrigin, window: string, cut: string | undefined, ms: number, signal: AbortSignal): Promise<CollectedLog> {
  // Reading a long log is CPU work: take a turn so that other nodes' answers are not held up.
  await nextTurn();
  if (signal.aborted) throw proxyAbortError(signal.reason);
  const value = kubeletLogEvidence(text, { origin, window, contemporaneous: true, ...(cut !== undefined ? { cut } : {}) });
  return { fetched: { status: 'ok', value, ms }, text };
}

async function overSsh(plan: KubeletLogPlan, ssh: NonNullable<KubeletLogPlan['ssh']>, request: LogRequest): Promise<CollectedLog | { failure: string; timedOut: boolean; ms: number }> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  let outcome: JournalOutcome;
  try {
    outcome = await ssh({ window: journalWindow(request.nowMs, plan.windowMinutes), timeoutMs: plan.timeoutMs, maxBytes: plan.maxBytes, signal: request.signal });
  } catch (err) {
    if (request.signal.aborted) throw err;
    return { failure: `SSH: ${message(err)}`, timedOut: false, ms: ms() };
  }
  if (outcome.kind === 'failed') {
    const why = outcome.timedOut ? `journalctl gave nothing within ${plan.timeoutMs} ms` : `journalctl exit ${String(outcome.exitCode)}${outcome.stderr !== '' ? `: ${outcome.stderr.split('\n')[0] ?? ''}` : ''}`;
    return { failure: `SSH: ${why}`, timedOut: outcome.timedOut, ms: ms() };
  }
  const cut = outcome.truncated ? `cut at the ${capText(plan.maxBytes)} cap` : outcome.timedOut ? `journalctl stopped at the ${plan.timeoutMs} ms deadline` : undefined;
  return evidenceOf(outcome.text, 'ssh', windowText('journalctl -u kubelet over SSH', plan.windowMinutes), cut, ms(), request.signal);
}

async function throughNodeLogQuery(plan: KubeletLogPlan, request: LogRequest): Promise<CollectedLog> {
  const configz = await request.configz;
  const refusal = nodeLogQueryRefusal(configz.status === 'ok' ? configz.value : undefined);
  if (refusal !== undefined) return { fetched: { status: 'skipped', reason: `NodeLogQuery: ${refusal}` } };
  const result = await queryKubeletLog(request.gateway, request.context, request.node, request.nowMs - plan.windowMinutes * 60_000, {
    timeoutMs: plan.timeoutMs,
    maxBytes: plan.maxBytes,
    signal: request.signal,
  });
  switch (result.kind) {
    case 'log':
      return evidenceOf(result.text, 'nodelogquery', windowText('NodeLogQuery /logs/?query=kubelet', plan.windowMinutes), undefined, result.ms, request.signal);
    case 'timeout':
      return { fetched: { status: 'timeout', ms: result.ms, deadlineMs: plan.timeoutMs } };
    case 'forbidden':
      return { fetched: { status: 'forbidden', message: `NodeLogQuery: ${result.message}`, ms: result.ms } };
    case 'not-enabled':
      return {
        fetched: {
          status: 'unavailable',
          message: `NodeLogQuery: the kubelet ${result.listing ? 'answered with its /var/log listing' : `answered HTTP ${result.httpStatus}`}: it serves its journal only with the NodeLogQuery feature gate and enableSystemLogQuery: true`,
          httpStatus: result.httpStatus,
          ms: result.ms,
        },
      };
    case 'failed':
      return { fetched: { status: 'failed', message: `NodeLogQuery: ${result.message}`, ms: result.ms } };
  }
}

/** The kubelet log by the plan's ways, in order; the first that gives a log wins. */
export async function collectKubeletLog(plan: KubeletLogPlan, request: LogRequest): Promise<CollectedLog> {
  let sshFailure: string | undefined;
  if (plan.ssh !== undefined) {
    const got = await overSsh(plan, plan.ssh, request);
    if ('fetched' in got) return got;
    sshFailure = got.failure;
    if (!plan.nodeLogQuery) {
      return { fetched: got.timedOut ? { status: 'timeout', ms: got.ms, deadlineMs: plan.timeoutMs } : { status: 'failed', message: got.failure, ms: got.ms } };
    }
  }
  if (!plan.nodeLogQuery) return { fetched: { status: 'skipped', reason: 'neither SSH nor the NodeLogQuery is allowed for this node' } };
  const viaQuery = await throughNodeLogQuery(plan, request);
  if (sshFailure === undefined || viaQuery.fetched.status === 'ok') return viaQuery;
  // Both ways failed: say both, keeping the NodeLogQuery's status (a 403 there is an RBAC gap to report).
  const f = viaQuery.fetched;
  switch (f.status) {
    case 'skipped':
      return { fetched: { status: 'failed', message: `${sshFailure}; ${f.reason}`, ms: 0 } };
    case 'timeout':
      return { fetched: { status: 'failed', message: `${sshFailure}; NodeLogQuery: no answer within ${f.deadlineMs} ms`, ms: f.ms } };
    case 'failed':
    case 'forbidden':
    case 'unavailable':
      return { fetched: { ...f, message: `${sshFailure}; ${f.message}` } };
  }
}
