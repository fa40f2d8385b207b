// What a demo node's kubelet is doing right now, read back from the Node object the stand-in serves (so
// the endpoints stay consistent with whatever the script, or the e2e's flip, last wrote) plus the demo
// script's role for the node's history. The Ready message is the anchor: a PLEG message's "last seen
// active X ago" at the last heartbeat fixes when the hung relist started. On a Ready node, PLEGAtRisk=True is:
// its prediction (when the kubelet posts NotReady, its first status tick after the threshold) dates the
// slow relist's start, to within a status tick.

import type { KubeNode } from '../../core/kube/objects';
import { parseReadyMessage } from '../../core/parse/readyMessage';
import { parseGoDurationSeconds } from '../../core/util/goDuration';
import { AT_RISK, CRASHLOOP, FLAP, PLEG_THRESHOLD_S, RUNTIME_DOWN_AFTER_S, STATUS_TICK_S, findDemoNode } from '../demoCluster';
import { PLEG_AT_RISK, readAtRisk } from '../../core/npd/atRiskCondition';
import type { DemoRole } from '../demoCluster';

export type KubeletCondition =
  /** Relists run every second and finish in milliseconds. */
  | { kind: 'healthy' }
  /** One relist has been hanging since `sinceS` (unix s): a stuck shim making PodSandboxStatus wait out its deadline. */
  | { kind: 'stuckRelist'; sinceS: number }
  /** containerd is dead since `sinceS`: every CRI call fails at once with Unavailable (connection refused). */
  | { kind: 'runtimeDown'; sinceS: number };

export interface KubeletState {
  nodeName: string;
  nowS: number;
  /** When this kubelet started (unix s). */
  startS: number;
  condition: KubeletCondition;
  role: DemoRole | undefined;
  /** Hung relists that already finished (each ≈ `hungRelistS`), from earlier flapping cycles. */
  earlierHungRelists: number;
  hungRelistS: number;
  /** Earlier runtime crashes (each `CRASHLOOP.downS` of failing calls) since the kubelet started. */
  earlierRuntimeDowns: number;
  runtimeTimeoutS: number;
  pods: number;
  containers: number;
  kubeletVersion: string;
  runtimeVersion: string;
}

/**
 * The demo's kubelets restart every RESTART_PERIOD_S after the node's creation, and the first scrape of a
 * period already sees MIN_UPTIME_S of history: counters grow steadily between scrapes (a start time that
 * moved with "now" would freeze them) and reset only at a restart, as a real kubelet's do.
 */
const RESTART_PERIOD_S = 5 * 3600;
const MIN_UPTIME_S = 3600;

/** The hung relists of the demo's flapper (and the stuck node's earlier ones): FLAP.relistLeadS before the stall to its end. */
export const HUNG_RELIST_S = FLAP.stallS + FLAP.relistLeadS;
export const RUNTIME_REQUEST_TIMEOUT_S = 120;

function timeOf(value: string | Date | undefined): number | undefined {
  if (value === undefined) return undefined;
  const t = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(t) ? undefined : t / 1000;
}

/** undefined when the kubelet cannot be reached (Ready=Unknown: the API server's proxy answers 503). */
export function kubeletStateOf(node: KubeNode, now: Date): KubeletState | undefined {
  const name = node.metadata?.name ?? '';
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready || ready.status === 'Unknown') return undefined;
  const nowS = now.getTime() / 1000;
  const created = timeOf(node.metadata?.creationTimestamp) ?? 0;
  const startS = nowS - MIN_UPTIME_S - mod(nowS - created, RESTART_PERIOD_S);
  const role = findDemoNode(name)?.node.role;

  let condition: KubeletCondition = { kind: 'healthy' };
  if (ready.status === 'False') {
    const parsed = parseReadyMessage(ready.message ?? '');
    const stale = parsed.errors.find((e) => e.kind === 'pleg-stale');
    const down = parsed.errors.some((e) => e.kind === 'runtime-down');
    const heartbeat = timeOf(ready.lastHeartbeatTime) ?? nowS;
    const transition = timeOf(ready.lastTransitionTime) ?? nowS;
    if (down) {
      // The kubelet reports the runtime down after 30 s without a successful Status call.
      condition = { kind: 'runtimeDown', sinceS: transition - RUNTIME_DOWN_AFTER_S };
    } else if (stale?.lastSeenAgo !== undefined) {
      condition = { kind: 'stuckRelist', sinceS: heartbeat - parseGoDurationSeconds(stale.lastSeenAgo) };
    }
  }

  if (ready.status === 'True') {
    const risk = readAtRisk((node.status?.conditions ?? []).filter((c) => c.type === PLEG_AT_RISK) as Record<string, unknown>[], []);
    const since = timeOf(risk?.since);
    if (risk?.status === 'True' && risk.predictedS !== undefined && since !== undefined) {
      // NotReady at `since + predicted`, the first status tick after the crossing: mid-tick before it.
      condition = { kind: 'stuckRelist', sinceS: since + risk.predictedS - PLEG_THRESHOLD_S - STATUS_TICK_S / 2 };
    }
  }

  const uptime = nowS - startS;
  const flapCycle = role === 'pleg-at-risk' ? AT_RISK.healthyS + AT_RISK.slowS : FLAP.healthyS + FLAP.stallS;
  const crashCycle = CRASHLOOP.upS + CRASHLOOP.downS;
  // Completed cycles before the current one; the flapper has always flapped, so at least one earlier hung relist.
  const earlierHungRelists = role === 'pleg-flapper' || role === 'pleg-at-risk' || condition.kind === 'stuckRelist' ? Math.max(1, Math.floor(uptime / flapCycle) - 1) : 0;
  const earlierRuntimeDowns = role === 'runtime-crashloop' ? Math.max(1, Math.floor(uptime / crashCycle) - 1) : 0;
  const pods = 5 + (hash(name) % 9);
  return {
    nodeName: name,
    nowS,
    startS,
    condition,
    role,
    earlierHungRelists,
    hungRelistS: role === 'pleg-at-risk' ? AT_RISK.slowS : HUNG_RELIST_S,
    earlierRuntimeDowns,
    runtimeTimeoutS: RUNTIME_REQUEST_TIMEOUT_S,
    pods,
    containers: pods + 3,
    kubeletVersion: node.status?.nodeInfo?.kubeletVersion ?? 'v1.32.4',
    runtimeVersion: node.status?.nodeInfo?.containerRuntimeVersion ?? 'containerd://1.7.24',
  };
}

function mod(a: number, m: number): number {
  return ((a % m) + m) % m;
}

/** A small stable hash, so per-node figures differ but never change between scrapes. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
