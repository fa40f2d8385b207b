// Readings several checks share: the Ready message as an evidence line, which CRI operations belong to
// GetPods and which to GetPodStatus, whether a duration looks like a CRI deadline, and the "/metrics hangs
// while /healthz answers" signature of docs/pleg-health.md (the recorded freeze).

import type { CheckContext, OperationView } from './checkContext';
import type { HistogramSummary } from '../parse/kubeletEndpointTypes';
import type { EvidenceLine } from './diagnosis';
import { age, plural, quoted, seconds } from './textFormat';

const MIN_SAMPLES_FOR_P99 = 20;

/** GetPods = ListPodSandbox + ListContainers (docs/kubelet-metrics.md). */
export const LIST_OPERATIONS = ['list_podsandbox', 'list_containers'] as const;
/** GetPodStatus's per-pod calls. */
export const STATUS_OPERATIONS = ['podsandbox_status', 'container_status'] as const;

export function readyLine(ctx: CheckContext): EvidenceLine {
  const c = ctx.classification;
  const reason = c.readyReason !== undefined ? ` (${c.readyReason})` : '';
  const since = c.since !== undefined ? ` since ${c.since}` : '';
  return { origin: 'node', text: `Ready=${c.readyStatus}${reason}${since}: ${quoted(c.message)}` };
}

/** A call that took this long waited out (most of) the CRI deadline. */
export function isDeadlineLike(ctx: CheckContext, durationSeconds: number): boolean {
  return durationSeconds >= (ctx.runtimeRequestTimeoutMs / 1000) * 0.9;
}

export function operation(ctx: CheckContext, name: string): OperationView | undefined {
  return ctx.operations.get(name);
}

/** "`kubelet_runtime_operations_errors_total{operation_type="x"}` rose by 3 in 5s (now 7)". */
export function errorsLine(ctx: CheckContext, op: OperationView): EvidenceLine {
  const metric = quoted(`kubelet_runtime_operations_errors_total{operation_type="${op.name}"}`);
  if (op.errorsDelta === 0) {
    const window = ctx.intervalSeconds !== undefined ? ` in ${seconds(ctx.intervalSeconds)}` : ' between the scrapes';
    return { origin: 'metrics', text: `${metric} = ${op.errors ?? '?'} since the kubelet started (none new${window})` };
  }
  if (op.errorsDelta !== undefined) {
    const window = ctx.intervalSeconds !== undefined ? ` in ${seconds(ctx.intervalSeconds)}` : ' between the scrapes';
    return { origin: 'metricsLater', text: `${metric} rose by ${op.errorsDelta}${window} (now ${op.errors ?? '?'})` };
  }
  return { origin: 'metrics', text: `${metric} = ${op.errors ?? '?'} since the kubelet started` };
}

export function durationLine(op: OperationView): EvidenceLine {
  const metric = quoted(`kubelet_runtime_operations_duration_seconds{operation_type="${op.name}"}`);
  const describe = (h: HistogramSummary | undefined, p99: number | undefined): string => {
    const count = h?.count ?? 0;
    const mean = count > 0 && h !== undefined ? `, mean ${seconds(h.sum / count)}` : '';
    // A quantile of a handful of samples is an interpolation artefact, not a figure worth quoting.
    const quantile = p99 !== undefined && count >= MIN_SAMPLES_FOR_P99 ? `, p99 ${seconds(p99)}` : '';
    return `${plural(count, 'sample')}${mean}${quantile}`;
  };
  if (op.window === 'interval' && (op.duration?.count ?? 0) > 0) {
    return { origin: 'metricsLater', text: `${metric}: ${describe(op.duration, op.p99Seconds)} between the scrapes` };
  }
  const none = op.window === 'interval' ? 'no calls between the scrapes; ' : '';
  return { origin: 'metrics', text: `${metric}: ${none}${describe(op.cumulative, op.window === 'interval' ? undefined : op.p99Seconds)} since the kubelet started` };
}

/** Mean duration of an operation's samples in its window. */
export function meanSeconds(op: OperationView | undefined): number | undefined {
  const d = op?.duration;
  return d !== undefined && d.count > 0 ? d.sum / d.count : undefined;
}

/** docs/pleg-health.md (the recorded freeze): every /metrics scrape hangs (collectors call the runtime) while /healthz answers. */
export function metricsHangWhileHealthzAnswers(ctx: CheckContext): boolean {
  const e = ctx.evidence;
  const metricsHung = e.metrics?.status === 'timeout' || e.metricsLater?.status === 'timeout';
  return metricsHung && e.healthz?.status === 'ok';
}

export function metricsHangLine(ctx: CheckContext): EvidenceLine {
  const m = ctx.evidence.metrics?.status === 'timeout' ? ctx.evidence.metrics : ctx.evidence.metricsLater;
  const deadline = m?.status === 'timeout' ? seconds(m.deadlineMs / 1000) : 'the deadline';
  const h = ctx.evidence.healthz;
  const healthzMs = h?.status === 'ok' ? ` in ${Math.round(h.ms)} ms` : '';
  return { origin: 'metrics', text: `/metrics did not answer within ${deadline} while /healthz?verbose answered${healthzMs}` };
}

/** How long ago the last relist started, as the clock allows: one figure, a range, or a lower bound. */
export function plegAgeText(ctx: CheckContext): string | undefined {
  const r = ctx.plegAge;
  if (r === undefined) return undefined;
  if (r.unknownBecause !== undefined) return 'an unknown time ago';
  if (r.collectorClock) return `${age(r.minSeconds)} ago`;
  if (r.maxSeconds === undefined) return `at least ${age(r.minSeconds)} ago`;
  const [from, to] = [age(r.minSeconds), age(r.maxSeconds)];
  return from === to ? `${from} ago` : `between ${from} and ${to} ago`;
}

/**
 * What "now" is in an age against ctx.now: the collection, or for a folder without the collector's clock the
 * newest time its evidence proves (so such ages are lower bounds).
 */
export function referenceWord(ctx: CheckContext): string {
  if (ctx.evidence.captureClock === undefined) return 'collection';
  return `${ctx.now.toISOString()}, the newest time the folder's evidence proves`;
}

export function plegAgeLine(ctx: CheckContext): EvidenceLine | undefined {
  const text = plegAgeText(ctx);
  const v = ctx.metrics?.plegLastSeenSeconds;
  if (text === undefined || v === undefined || ctx.plegAge === undefined) return undefined;
  return { origin: 'metrics', text: `${quoted('kubelet_pleg_last_seen_seconds')} = ${v}: the last successful relist started ${text} (clock: ${ctx.plegAge.clock})` };
}

export function relistGoroutineLine(ctx: CheckContext): EvidenceLine | undefined {
  const r = ctx.goroutines?.relist;
  if (r === undefined) return undefined;
  const wait = r.waitMinutes !== undefined ? `, ${r.waitMinutes} minutes` : '';
  return { origin: 'goroutines', text: `relist goroutine ${r.id} [${r.state}${wait}] blocked in ${quoted(r.blockedIn)}` };
}

/**
 * The relist goroutine blocked in one of `methods` for at least a minute. Go prints a wait time only from
 * one minute on, so a dump that catches a healthy relist mid-call (no wait time) does not count.
 */
export function relistStuckIn(ctx: CheckContext, methods: readonly string[]): boolean {
  const r = ctx.goroutines?.relist;
  return r !== undefined && methods.includes(r.blockedIn) && r.waitMinutes !== undefined && r.waitMinutes >= 1;
}

export function runtimeVersionText(ctx: CheckContext): string | undefined {
  return ctx.classification.versions.runtime;
}
