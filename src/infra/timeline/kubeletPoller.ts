// The kubelet's side of the live timeline, through the API server: /metrics over the node proxy (a scrape
// that gets no answer within its deadline is recorded as 'hung': a frozen runtime makes the kubelet's
// collectors block) and the Node object (its Ready condition, kubelet version and pod capacity).

import type { Fetched } from '../../core/diagnose/evidence';
import type { KubeNode } from '../../core/kube/objects';
import type { KubeletSampler } from '../../core/timeline/kubeletSampler';
import type { KubeletSample, SessionAtRisk, SessionReady } from '../../core/timeline/session';
import { PLEG_AT_RISK } from '../../core/npd/atRiskCondition';
import { fetchKubeletEndpoint, type KubeletEndpoint } from '../diagnose/fetchKubeletEndpoint';
import type { KubeGateway } from '../kube/gateway';
import { timeoutSignal } from '../../core/util/deadlineSignal';
import { errorText } from '../../core/util/errorText';

const METRICS_ENDPOINT: KubeletEndpoint<string> = { path: '/metrics', parse: (body) => body };

export interface KubeletPollTarget {
  gateway: KubeGateway;
  context: string;
  node: string;
  /** Deadline of one scrape / Node GET. */
  timeoutMs: number;
}

/** Scrapes /metrics once through the node proxy and turns it into a sample (relative to the sampler's t = 0). */
export async function scrapeKubelet(target: KubeletPollTarget, sampler: KubeletSampler, signal: AbortSignal): Promise<KubeletSample> {
  const epochMs = Date.now();
  const fetched = await fetchKubeletEndpoint(METRICS_ENDPOINT, { gateway: target.gateway, context: target.context, node: target.node, timeoutMs: target.timeoutMs, signal });
  return sampleOfScrape(fetched, sampler, epochMs);
}

/** One /metrics answer, however it was fetched (node proxy, or the kubelet's own port for the agent), as a sample. */
export function sampleOfScrape(fetched: Fetched<string>, sampler: KubeletSampler, epochMs: number): KubeletSample {
  switch (fetched.status) {
    case 'ok':
      return sampler.sample({ epochMs, outcome: 'ok', text: fetched.value, scrapeMs: fetched.ms });
    case 'timeout':
      return sampler.sample({ epochMs, outcome: 'hung', detail: `/metrics gave no answer within ${fetched.deadlineMs} ms`, scrapeMs: fetched.ms });
    case 'forbidden':
      return sampler.sample({ epochMs, outcome: 'forbidden', detail: fetched.message, scrapeMs: fetched.ms });
    case 'unavailable':
    case 'failed':
      return sampler.sample({ epochMs, outcome: 'error', detail: fetched.message, scrapeMs: fetched.ms });
    case 'skipped':
      return sampler.sample({ epochMs, outcome: 'error', detail: fetched.reason });
  }
}

export interface NodeReading {
  ready?: Omit<SessionReady, 'atMs'>;
  /** node-problem-detector's PLEGAtRisk, when the Node has it (read from the same Node object: no other request). */
  atRisk?: Omit<SessionAtRisk, 'atMs'>;
  /** The Ready condition's lastHeartbeatTime: it changes with every status post the kubelet makes. */
  heartbeat?: string;
  kubeletVersion?: string;
  containerRuntimeVersion?: string;
  maxPods?: number;
}

export function readNode(node: KubeNode): NodeReading {
  const out: NodeReading = {};
  const c = node.status?.conditions?.find((x) => x.type === 'Ready');
  if (c !== undefined) {
    const status = c.status === 'True' || c.status === 'False' ? c.status : 'Unknown';
    out.ready = { status, reason: c.reason ?? '', message: c.message ?? '' };
    // Kept so a session that starts on a node already NotReady can say since when (core/timeline/headline.ts).
    const transition = c.lastTransitionTime;
    if (transition !== undefined) out.ready.lastTransitionTime = transition instanceof Date ? transition.toISOString() : transition;
    const beat = c.lastHeartbeatTime;
    if (beat !== undefined) out.heartbeat = beat instanceof Date ? beat.toISOString() : beat;
  }
  const risk = node.status?.conditions?.find((x) => x.type === PLEG_AT_RISK);
  if (risk !== undefined) {
    const time = (v: string | Date | undefined): string | undefined => (v instanceof Date ? v.toISOString() : v);
    const transition = time(risk.lastTransitionTime);
    const beat = time(risk.lastHeartbeatTime);
    out.atRisk = {
      status: risk.status === 'True' || risk.status === 'False' ? risk.status : 'Unknown',
      reason: risk.reason ?? '',
      message: risk.message ?? '',
      ...(transition !== undefined ? { lastTransitionTime: transition } : {}),
      ...(beat !== undefined ? { lastHeartbeatTime: beat } : {}),
    };
  }
  const version = node.status?.nodeInfo?.kubeletVersion;
  if (version !== undefined && version !== '') out.kubeletVersion = version;
  const runtime = node.status?.nodeInfo?.containerRuntimeVersion;
  if (runtime !== undefined && runtime !== '') out.containerRuntimeVersion = runtime;
  const pods = Number(node.status?.capacity?.['pods']);
  if (Number.isInteger(pods) && pods > 0) out.maxPods = pods;
  return out;
}

/** GET the Node within the deadline; undefined (with the reason) when it cannot be read. */
export async function fetchNode(target: KubeletPollTarget, signal: AbortSignal): Promise<{ node: KubeNode } | { error: string }> {
  const timeout = timeoutSignal(target.timeoutMs);
  try {
    return { node: await target.gateway.getNode(target.context, target.node, AbortSignal.any([signal, timeout])) };
  } catch (err) {
    if (signal.aborted) throw err;
    if (timeout.aborted) return { error: `GET node ${target.node} gave no answer within ${target.timeoutMs} ms` };
    return { error: errorText(err) };
  }
}
