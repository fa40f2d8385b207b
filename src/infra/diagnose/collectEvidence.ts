// Collects what a diagnosis of one node is made from: the API reads (events, pod count), the kubelet's
// endpoints through the node proxy (/metrics twice, /configz, /healthz?verbose, the goroutine dump) and,
// when allowed, the node side (SSH + CRI snapshot + probes) and the kubelet's log (collectKubeletLog.ts:
// journalctl over SSH, or the kubelet's NodeLogQuery through the node proxy). Sources run in parallel, each with its own
// deadline, and every failure is recorded as that source's status: a /metrics that hangs while /healthz
// answers is the hung-shim signature, not a tool error. Only cancellation rejects.

import type { Fetched, NodeEvidence, NodeSideEvidence } from '../../core/diagnose/evidence';
import type { KubeletLogEvidence } from '../../core/diagnose/kubeletLog';
import type { KubeEvent, KubeNode } from '../../core/kube/objects';
import { parseHealthz } from '../../core/parse/healthz';
import { parseKubeletConfigz } from '../../core/parse/kubeletConfigz';
import type { GoroutineSummary, HealthzReport, KubeletConfigz, KubeletMetricsSummary } from '../../core/parse/kubeletEndpointTypes';
import { summarizeKubeletMetrics } from '../../core/parse/kubeletMetrics';
import { summarizeGoroutineDump } from '../../core/parse/goroutineDump';
import type { Logger } from '../../core/util/logger';
import { KubeRequestError } from '../kube/createGateway';
import type { KubeGateway } from '../kube/gateway';
import { proxyAbortError } from '../kube/nodeProxy';
import { collectKubeletLog, type KubeletLogPlan } from './collectKubeletLog';
import { fetchKubeletEndpoint } from './fetchKubeletEndpoint';
import type { KubeletEndpoint } from './fetchKubeletEndpoint';
import { errorText } from '../../core/util/errorText';

export type EvidenceStage = 'api' | 'kubelet' | 'metricsLater' | 'node';

/** How the kubelet is read: the settings (host) and the flags (CLI) that every caller passes the same way. */
export type EvidenceReading = Pick<CollectEvidenceOptions, 'useNodeProxy' | 'proxyTimeoutMs' | 'metricsIntervalMs'>;

/** The options every caller of collectNodeEvidence builds alike: which node, where, and how it is read. */
export function evidenceTarget(gateway: KubeGateway, context: string, node: KubeNode, reading: EvidenceReading): Pick<CollectEvidenceOptions, 'gateway' | 'context' | 'node'> & EvidenceReading {
  return { gateway, context, node, useNodeProxy: reading.useNodeProxy, proxyTimeoutMs: reading.proxyTimeoutMs, metricsIntervalMs: reading.metricsIntervalMs };
}

export interface CollectEvidenceOptions {
  gateway: KubeGateway;
  context: string;
  node: KubeNode;
  /** false → the four kubelet endpoints are skipped, reason `nodeProxyOffReason`. */
  useNodeProxy: boolean;
  /** What turned the node proxy off, in the caller's words (default: the VS Code setting). */
  nodeProxyOffReason?: string;
  /** Deadline of each kubelet endpoint request. */
  proxyTimeoutMs: number;
  /** Wait between the end of the first /metrics scrape and the start of the second; 0 → metricsLater skipped. */
  metricsIntervalMs: number;
  /** Absent → nodeSide skipped with nodeSideSkipReason. */
  nodeSide?: (signal: AbortSignal) => Promise<NodeSideEvidence>;
  nodeSideSkipReason?: string;
  /** How to read the kubelet's log; absent → kubeletLog skipped with kubeletLogSkipReason. */
  kubeletLog?: KubeletLogPlan;
  kubeletLogSkipReason?: string;
  logger: Logger;
  signal?: AbortSignal;
  onStage?: (stage: EvidenceStage) => void;
  /** Receives each kubelet body as sent, before parsing (for an evidence bundle). */
  onRawBody?: (source: RawBodySource, body: string, httpStatus: number) => void;
  now?: () => Date;
}

export type RawBodySource = 'metrics' | 'metricsLater' | 'configz' | 'healthz' | 'goroutines' | 'kubeletLog';

/** The endpoint with its raw body handed to `sink` first; parsing is unchanged. */
function tapped<T>(endpoint: KubeletEndpoint<T>, source: RawBodySource, sink: CollectEvidenceOptions['onRawBody']): KubeletEndpoint<T> {
  if (sink === undefined) return endpoint;
  return {
    ...endpoint,
    parse: (body, status) => {
      sink(source, body, status);
      return endpoint.parse(body, status);
    },
  };
}

export const NODE_PROXY_OFF_REASON = 'plegDoctor.diagnostics.useNodeProxy is off';
export const DEFAULT_NODE_SIDE_SKIP_REASON = 'node access is not configured for this node';
export const DEFAULT_KUBELET_LOG_SKIP_REASON = 'no way to read it was given (node access or the node proxy)';

export const KUBELET_ENDPOINTS = {
  metrics: { path: '/metrics', parse: (body) => summarizeKubeletMetrics(body) } satisfies KubeletEndpoint<KubeletMetricsSummary>,
  configz: { path: '/configz', parse: (body) => parseKubeletConfigz(body) } satisfies KubeletEndpoint<KubeletConfigz>,
  // The kubelet answers 500 with the same check list when one check fails: that body is the evidence.
  healthz: { path: '/healthz?verbose', parse: (body, status) => parseHealthz(body, status), acceptsStatus: (status) => status === 500 } satisfies KubeletEndpoint<HealthzReport>,
  goroutines: { path: '/debug/pprof/goroutine?debug=2', parse: (body) => summarizeGoroutineDump(body) } satisfies KubeletEndpoint<GoroutineSummary>,
};

function message(err: unknown): string {
  return errorText(err);
}

/** An API read (events, pod count): RBAC refusals are `forbidden`, everything else `failed` with the cause. */
async function apiRead<T>(read: () => Promise<T>, signal: AbortSignal): Promise<Fetched<T>> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    return { status: 'ok', value: await read(), ms: ms() };
  } catch (err) {
    if (signal.aborted) throw err;
    if (err instanceof KubeRequestError && err.error.kind === 'forbidden') return { status: 'forbidden', message: err.error.message, ms: ms() };
    return { status: 'failed', message: message(err), ms: ms() };
  }
}

/** Resolves after `ms`, or rejects as soon as the signal aborts (the timer is cleared either way). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(proxyAbortError(signal.reason));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(proxyAbortError(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function describe(f: Fetched<unknown>): string {
  switch (f.status) {
    case 'ok':
      return `ok in ${f.ms} ms`;
    case 'timeout':
      return `no answer within ${f.deadlineMs} ms`;
    case 'skipped':
      return `skipped: ${f.reason}`;
    case 'failed':
    case 'forbidden':
    case 'unavailable':
      return `${f.status} in ${f.ms} ms: ${f.message}`;
  }
}

export async function collectNodeEvidence(options: CollectEvidenceOptions): Promise<NodeEvidence> {
  const { gateway, context, logger } = options;
  const nodeName = options.node.metadata?.name;
  if (nodeName === undefined || nodeName === '') throw new Error('collectNodeEvidence: the Node object has no metadata.name');
  const collectedAt = (options.now?.() ?? new Date()).toISOString();
  // Our own controller: cancelling it aborts every request, the interval timer and the node side at once.
  const controller = new AbortController();
  const signal = controller.signal;
  const outer = options.signal;
  if (outer?.aborted === true) throw proxyAbortError(outer.reason);

  const log = <T>(source: string, f: Fetched<T>): Fetched<T> => {
    logger.info(`diagnose ${context}/${nodeName}: ${source} ${describe(f)}`);
    return f;
  };
  const stage = (s: EvidenceStage): void => {
    if (!signal.aborted) options.onStage?.(s);
  };

  const work = async (): Promise<NodeEvidence> => {
    stage('api');
    const events = apiRead<KubeEvent[]>(() => gateway.listNodeEvents(context, nodeName, signal), signal).then((f) => log('events', f));
    const podCount = apiRead(() => gateway.countPods(context, nodeName, signal), signal).then((f) => log('podCount', f));

    const request = { gateway, context, node: nodeName, timeoutMs: options.proxyTimeoutMs, signal };
    const skipped = { status: 'skipped', reason: options.nodeProxyOffReason ?? NODE_PROXY_OFF_REASON } as const;
    let metrics: Promise<Fetched<KubeletMetricsSummary>> = Promise.resolve(skipped);
    let metricsLater: Promise<Fetched<KubeletMetricsSummary>> = Promise.resolve(skipped);
    let configz: Promise<Fetched<KubeletConfigz>> = Promise.resolve(skipped);
    let healthz: Promise<Fetched<HealthzReport>> = Promise.resolve(skipped);
    let goroutines: Promise<Fetched<GoroutineSummary>> = Promise.resolve(skipped);
    if (options.useNodeProxy) {
      stage('kubelet');
      const raw = options.onRawBody;
      metrics = fetchKubeletEndpoint(tapped(KUBELET_ENDPOINTS.metrics, 'metrics', raw), request).then((f) => log('metrics', f));
      metricsLater = metrics.then(async (first): Promise<Fetched<KubeletMetricsSummary>> => {
        if (options.metricsIntervalMs <= 0) return log('metricsLater', { status: 'skipped', reason: 'the metrics interval is 0: counters are read once, not as rates' });
        if (first.status !== 'ok') return log('metricsLater', { status: 'skipped', reason: `the first /metrics scrape did not succeed (${first.status})` });
        stage('metricsLater');
        await sleep(options.metricsIntervalMs, signal);
        return log('metricsLater', await fetchKubeletEndpoint(tapped(KUBELET_ENDPOINTS.metrics, 'metricsLater', raw), request));
      });
      configz = fetchKubeletEndpoint(tapped(KUBELET_ENDPOINTS.configz, 'configz', raw), request).then((f) => log('configz', f));
      healthz = fetchKubeletEndpoint(tapped(KUBELET_ENDPOINTS.healthz, 'healthz', raw), request).then((f) => log('healthz', f));
      goroutines = fetchKubeletEndpoint(tapped(KUBELET_ENDPOINTS.goroutines, 'goroutines', raw), request).then((f) => log('goroutines', f));
    } else {
      for (const source of ['metrics', 'metricsLater', 'configz', 'healthz', 'goroutines']) log(source, skipped);
    }

    let nodeSide: Promise<Fetched<NodeSideEvidence>>;
    const side = options.nodeSide;
    if (side === undefined) {
      nodeSide = Promise.resolve(log('nodeSide', { status: 'skipped', reason: options.nodeSideSkipReason ?? DEFAULT_NODE_SIDE_SKIP_REASON }));
    } else {
      stage('node');
      const started = performance.now();
      nodeSide = side(signal).then(
        (value): Fetched<NodeSideEvidence> => log('nodeSide', { status: 'ok', value, ms: Math.round(performance.now() - started) }),
        (err: unknown): Fetched<NodeSideEvidence> => {
          if (signal.aborted) throw err;
          return log('nodeSide', { status: 'failed', message: message(err), ms: Math.round(performance.now() - started) });
        },
      );
    }

    let kubeletLog: Promise<Fetched<KubeletLogEvidence>>;
    const plan = options.kubeletLog;
    if (plan === undefined || (plan.ssh === undefined && !(plan.nodeLogQuery && options.useNodeProxy))) {
      const reason = plan === undefined ? (options.kubeletLogSkipReason ?? DEFAULT_KUBELET_LOG_SKIP_REASON) : `no node access and ${options.nodeProxyOffReason ?? NODE_PROXY_OFF_REASON}`;
      kubeletLog = Promise.resolve(log('kubeletLog', { status: 'skipped', reason }));
    } else {
      const effective: KubeletLogPlan = { ...plan, nodeLogQuery: plan.nodeLogQuery && options.useNodeProxy };
      const nowMs = Date.parse(collectedAt);
      kubeletLog = collectKubeletLog(effective, { gateway, context, node: nodeName, signal, configz, nowMs }).then((got) => {
        if (got.text !== undefined) options.onRawBody?.('kubeletLog', got.text, 200);
        return log('kubeletLog', got.fetched);
      });
    }

    const [e, p, m, ml, c, h, g, n, k] = await Promise.all([events, podCount, metrics, metricsLater, configz, healthz, goroutines, nodeSide, kubeletLog]);
    return {
      context,
      nodeName,
      collectedAt,
      node: options.node,
      events: e,
      podCount: p,
      metrics: m,
      metricsLater: ml,
      metricsIntervalMs: options.metricsIntervalMs,
      configz: c,
      healthz: h,
      goroutines: g,
      nodeSide: n,
      kubeletLog: k,
    };
  };

  if (outer === undefined) return work();
  // Reject at once on cancellation rather than when the slowest source notices: the sources are aborted
  // through `controller`, and their late rejections are swallowed by the settled race below.
  return new Promise<NodeEvidence>((resolve, reject) => {
    const onAbort = (): void => {
      controller.abort(outer.reason);
      logger.info(`diagnose ${context}/${nodeName}: cancelled`);
      reject(proxyAbortError(outer.reason));
    };
    outer.addEventListener('abort', onAbort, { once: true });
    work().then(
      (evidence) => {
        outer.removeEventListener('abort', onAbort);
        resolve(evidence);
      },
      (err: unknown) => {
        outer.removeEventListener('abort', onAbort);
        controller.abort(err);
        reject(signal.aborted && outer.aborted ? proxyAbortError(outer.reason) : err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
