// The demo cluster's script: which nodes exist in which context, and what each one's kubelet reports at
// any moment. Pure: a moment is computed from the demo's time origin and "now", so the demo can be
// replayed, tested at chosen instants, and frozen by the e2e test.
//
// The timing follows the kubelet (docs/pleg-health.md: the path and the recorded freeze): status is recomputed every
// 10 s, posted when it changed or every 5 min otherwise; PLEG turns unhealthy only when the last relist
// started strictly more than 3 min ago; "container runtime is down" needs 30 s without a CRI Status.

import { formatGoDuration } from '../core/util/goDuration';
import type { KubeEvent } from '../core/kube/objects';
import { kubeTime, makeNode, withCordoned, withLeaseLost, withRuntimeDown } from './nodeFactory';
import { AT_RISK_REASON, NOT_AT_RISK_REASON, PLEG_AT_RISK } from '../core/npd/atRiskCondition';
import { DEFAULT_WITHIN_SECONDS } from '../core/npd/npdVerdict';
import { formatPrediction } from '../core/npd/npdPrediction';
import type { FullNode } from './nodeFactory';

export type DemoRole = 'healthy' | 'pleg-stuck' | 'pleg-flapper' | 'pleg-at-risk' | 'runtime-crashloop' | 'cordoned' | 'lease-lost';

export interface DemoNodeSpec {
  name: string;
  role: DemoRole;
  zone: string;
  /** Seconds between this node's status ticks and the demo's time origin, so nodes don't post in lockstep. */
  tickPhaseSeconds: number;
}

/** What the kubelet (or, for Unknown, the node controller) wrote into the Ready condition. */
export interface ReadyView {
  status: 'True' | 'False' | 'Unknown';
  reason: 'KubeletReady' | 'KubeletNotReady' | 'NodeStatusUnknown';
  message: string;
}

/** node-problem-detector's PLEGAtRisk condition (deploy/node-problem-detector/pleg-doctor-monitor.json). */
export interface AtRiskView {
  status: 'True' | 'False';
  reason: typeof AT_RISK_REASON | typeof NOT_AT_RISK_REASON;
  message: string;
  /** Epoch ms: when NPD wrote this status and message (lastTransitionTime), and its last sync (lastHeartbeatTime). */
  transitionMs: number;
  heartbeatMs: number;
}

/** The Ready condition and heartbeat the API shows for a node at one moment. */
export interface NodeMoment {
  ready: ReadyView;
  /** Epoch ms of the Ready condition's last transition; null when it has not changed since the node registered. */
  readyTransitionMs: number | null;
  /** Epoch ms of the last status the kubelet posted. */
  heartbeatMs: number;
  /** PLEGAtRisk, on the node that runs node-problem-detector with our monitor (the at-risk role). */
  atRisk?: AtRiskView;
}

export const READY_MESSAGE = 'kubelet is posting ready status';
export const LEASE_LOST_MESSAGE = 'Kubelet stopped posting node status.';

export interface DemoContextSpec {
  context: string;
  cluster: string;
  nodes: DemoNodeSpec[];
}

export const STATUS_TICK_S = 10;
export const STATUS_REPORT_S = 300;
export const PLEG_THRESHOLD_S = 180;
export const RUNTIME_DOWN_AFTER_S = 30;
/** node-monitor-grace-period on 1.32+. */
export const NODE_GRACE_S = 50;

/**
 * The flapper: relists are fine for `healthy` s, then one relist hangs for `stall` s (a stuck shim making
 * GetPodStatus wait out the 2 min runtimeRequestTimeout, twice). It goes NotReady once the hung relist is
 * more than 3 min old, and Ready again when it returns: NotReady for about `stall` − 180 s per cycle.
 */
export const FLAP = { healthyS: 120, stallS: 235, relistLeadS: 0.9 } as const;
/**
 * The stuck node: its relist has been hanging since `beforeS` before the demo's origin and does not come
 * back while the demo runs. The relist works through pods whose shims are wedged, one after another, and
 * each of their PodSandboxStatus calls waits out the 2 min runtimeRequestTimeout; with dozens of such pods
 * that takes hours, so PLEG stays unhealthy (NotReady since `beforeS` − 180 s before the origin).
 */
export const STUCK = { beforeS: 420 } as const;
/**
 * The node at risk: its runtime has slowed so that one relist in each cycle hangs `slowS` s, just under the
 * 3 min threshold, after `healthyS` s of quick ones. PLEG never turns unhealthy, but while that relist hangs
 * pleg-doctor's agent predicts a NotReady (a relist overdue by more than `overdueS`: core/timeline/predict.ts)
 * and node-problem-detector, running the plugin every `invokeS` s, sets PLEGAtRisk=True with the plugin's
 * message once that NotReady is at most the plugin's bound away (DEFAULT_WITHIN_SECONDS); the first run
 * after the relist returns sets it back to False.
 */
export const AT_RISK = { healthyS: 120, slowS: 170, relistLeadS: 0.9, invokeS: 10, overdueS: 5 } as const;
/** The NPD heartbeat period (--k8s-exporter-heartbeat-period default): an unchanged condition is re-sent this often. */
export const NPD_HEARTBEAT_S = 300;
/**
 * Where the at-risk node's slow relist is at the origin: 50 s in, so that 40 s later, when the e2e freezes
 * the demo, the NotReady it would cause is under the plugin's 2 minutes away and PLEGAtRisk is True.
 */
const AT_RISK_START_U = AT_RISK.healthyS + 50;
/** The crash-looping runtime: containerd runs `upS`, dies, and systemd brings it back after `downS`. */
export const CRASHLOOP = { upS: 60, downS: 170 } as const;
/** The lease-lost node's kubelet stopped posting this long before the demo's origin. */
export const LEASE_LOST_BEFORE_S = 600;

/**
 * Where in its cycle each scripted node is at the origin: the flapper's hung relist is ~91 s old, so it
 * crosses the threshold about 90 s in (after the page has loaded, so the newcomer sees it flip).
 */
const FLAP_START_U = FLAP.healthyS + 90;
const CRASHLOOP_START_U = CRASHLOOP.upS + 50;

function pool(prefix: string, count: number, zones: string[], roles: Record<number, DemoRole>): DemoNodeSpec[] {
  const nodes: DemoNodeSpec[] = [];
  for (let i = 1; i <= count; i++) {
    nodes.push({
      name: `${prefix}-${String(i).padStart(2, '0')}`,
      role: roles[i] ?? 'healthy',
      zone: zones[(i - 1) % zones.length] ?? 'eu-west-1a',
      tickPhaseSeconds: Math.round(((i * 3.7) % STATUS_TICK_S) * 10) / 10,
    });
  }
  return nodes;
}

export const DEMO_CONTEXTS: readonly DemoContextSpec[] = [
  {
    context: 'prod-eu',
    cluster: 'prod-eu',
    nodes: pool('prod-eu-node', 12, ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'], {
      3: 'runtime-crashloop',
      5: 'pleg-flapper',
      7: 'pleg-stuck',
      9: 'pleg-at-risk',
      11: 'lease-lost',
    }),
  },
  {
    context: 'staging',
    cluster: 'staging',
    nodes: pool('staging-node', 5, ['eu-west-1a', 'eu-west-1b'], { 4: 'cordoned' }),
  },
];

export function plegReadyView(agoNs: bigint): ReadyView {
  return {
    status: 'False',
    reason: 'KubeletNotReady',
    message: `PLEG is not healthy: pleg was last seen active ${formatGoDuration(agoNs)} ago; threshold is 3m0s`,
  };
}

export const RUNTIME_DOWN_VIEW: ReadyView = { status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' };
export const READY_VIEW: ReadyView = { status: 'True', reason: 'KubeletReady', message: READY_MESSAGE };
export const LEASE_LOST_VIEW: ReadyView = { status: 'Unknown', reason: 'NodeStatusUnknown', message: LEASE_LOST_MESSAGE };

/** Deterministic scheduling noise in [0, 1), so durations carry nanoseconds like a real kubelet's. */
function noise(seed: string, n: number): number {
  let h = 0x811c9dc5;
  const s = `${seed}#${n}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 0x1_0000_0000;
}

function mod(a: number, m: number): number {
  return ((a % m) + m) % m;
}

/** What the kubelet computes for Ready at demo second `t` (a status tick), by role. */
export function readyViewAt(node: DemoNodeSpec, t: number): ReadyView {
  switch (node.role) {
    case 'healthy':
    case 'cordoned':
    case 'pleg-at-risk':
      return READY_VIEW;
    case 'lease-lost':
      return t >= -LEASE_LOST_BEFORE_S + NODE_GRACE_S ? LEASE_LOST_VIEW : READY_VIEW;
    case 'pleg-stuck': {
      const ago = t + STUCK.beforeS + noise(node.name, Math.round(t)) * 0.01;
      return ago <= PLEG_THRESHOLD_S ? READY_VIEW : plegReadyView(BigInt(Math.round(ago * 1e9)));
    }
    case 'runtime-crashloop': {
      const cycle = CRASHLOOP.upS + CRASHLOOP.downS;
      const u = mod(t + CRASHLOOP_START_U, cycle);
      return u - CRASHLOOP.upS > RUNTIME_DOWN_AFTER_S ? RUNTIME_DOWN_VIEW : READY_VIEW;
    }
    case 'pleg-flapper': {
      const cycle = FLAP.healthyS + FLAP.stallS;
      const shifted = t + FLAP_START_U;
      const u = mod(shifted, cycle);
      if (u < FLAP.healthyS) return READY_VIEW;
      const cycleIndex = Math.floor(shifted / cycle);
      // The hung relist started just before the stall; the tick itself runs a little late.
      const relistStart = FLAP.healthyS - FLAP.relistLeadS - noise(node.name, cycleIndex) * 0.05;
      const ago = u - relistStart + noise(node.name, Math.round(t)) * 0.01;
      if (ago <= PLEG_THRESHOLD_S) return READY_VIEW;
      return plegReadyView(BigInt(Math.round(ago * 1e9)));
    }
  }
}

/** The demo second the at-risk node's slow relist of demo second `t`'s cycle started. */
function slowRelistStart(t: number): number {
  const cycle = AT_RISK.healthyS + AT_RISK.slowS;
  const offset = AT_RISK.healthyS - AT_RISK.relistLeadS - AT_RISK_START_U;
  return Math.floor((t - offset) / cycle) * cycle + offset;
}

/** The kubelet's NotReady post a slow relist started at demo second `start` would cause: its first status tick past the threshold. */
function notReadyPostAt(node: DemoNodeSpec, start: number): number {
  const crossing = start + PLEG_THRESHOLD_S;
  return Math.floor((crossing - node.tickPhaseSeconds) / STATUS_TICK_S + 1) * STATUS_TICK_S + node.tickPhaseSeconds;
}

/**
 * Whether the plugin reports a problem at demo second `t`: the agent predicts a NotReady (the slow relist is
 * overdue and has not returned) and that NotReady is within the plugin's default bound.
 */
function pluginReports(node: DemoNodeSpec, t: number): boolean {
  const start = slowRelistStart(t);
  const late = t - start;
  return late > AT_RISK.overdueS && late < AT_RISK.slowS && notReadyPostAt(node, start) - t <= DEFAULT_WITHIN_SECONDS;
}

/**
 * PLEGAtRisk at demo second `t`, as NPD writes it: the plugin runs every `invokeS` s; a run whose result
 * differs from the condition's status writes status, reason, message and lastTransitionTime
 * (custom_plugin_monitor.go generateStatus); the condition manager syncs then and every NPD_HEARTBEAT_S
 * after, each sync stamping lastHeartbeatTime (problem_client.go SetConditions). The message predicts the
 * kubelet's NotReady post: its first status tick after the relist passes the 3 min threshold.
 */
export function atRiskViewAt(node: DemoNodeSpec, originMs: number, t: number): AtRiskView {
  const phase = mod(node.tickPhaseSeconds + 3, AT_RISK.invokeS);
  const lastRun = Math.floor((t - phase) / AT_RISK.invokeS) * AT_RISK.invokeS + phase;
  const status = pluginReports(node, lastRun);
  // Back to the run that flipped the status (a cycle is far shorter than this many runs).
  let flip = lastRun;
  while (pluginReports(node, flip - AT_RISK.invokeS) === status && flip - lastRun > -3600) flip -= AT_RISK.invokeS;
  const at = (s: number): number => originMs + s * 1000;
  const heartbeatS = flip + Math.floor((t - flip) / NPD_HEARTBEAT_S) * NPD_HEARTBEAT_S;
  if (!status) return { status: 'False', reason: NOT_AT_RISK_REASON, message: 'pleg-doctor predicts no PLEG NotReady', transitionMs: at(flip), heartbeatMs: at(heartbeatS) };
  const notReadyAt = notReadyPostAt(node, slowRelistStart(flip));
  return { status: 'True', reason: AT_RISK_REASON, message: `${formatPrediction(notReadyAt - flip)}: runtime-hung`, transitionMs: at(flip), heartbeatMs: at(heartbeatS) };
}

function sameView(a: ReadyView, b: ReadyView): boolean {
  return a.status === b.status && a.reason === b.reason && a.message === b.message;
}

/** How far back the transition search looks; longer than any scripted cycle. */
const LOOKBACK_TICKS = 100;

/** The node's Ready condition and heartbeat as the API shows them at epoch ms `nowMs`. */
export function nodeMomentAt(node: DemoNodeSpec, originMs: number, nowMs: number): NodeMoment {
  const t = (nowMs - originMs) / 1000;
  const at = (s: number): number => originMs + s * 1000;

  if (node.role === 'lease-lost') {
    // The kubelet posted its last status, then the node controller waited out the grace period.
    const stopS = -LEASE_LOST_BEFORE_S;
    const ready = readyViewAt(node, t);
    return { ready, readyTransitionMs: ready.status === 'Unknown' ? at(stopS + NODE_GRACE_S) : null, heartbeatMs: at(stopS) };
  }

  const tick = Math.floor((t - node.tickPhaseSeconds) / STATUS_TICK_S) * STATUS_TICK_S + node.tickPhaseSeconds;
  const ready = readyViewAt(node, tick);
  if (node.role === 'pleg-stuck' && ready.status === 'False') {
    // NotReady for longer than the lookback: the transition is the first tick past the threshold, and the
    // message changes on every tick, so every tick is posted.
    const crossS = PLEG_THRESHOLD_S - STUCK.beforeS;
    const firstTick = Math.floor((crossS - node.tickPhaseSeconds) / STATUS_TICK_S) * STATUS_TICK_S + node.tickPhaseSeconds;
    const transition = readyViewAt(node, firstTick).status === 'False' ? firstTick : firstTick + STATUS_TICK_S;
    return { ready, readyTransitionMs: at(transition), heartbeatMs: at(tick) };
  }
  let transition: number | undefined;
  let lastChange: number | undefined;
  let current = ready;
  for (let k = 1; k <= LOOKBACK_TICKS; k++) {
    const prev = readyViewAt(node, tick - k * STATUS_TICK_S);
    if (lastChange === undefined && !sameView(prev, current)) lastChange = tick - (k - 1) * STATUS_TICK_S;
    if (prev.status !== ready.status) {
      transition = tick - (k - 1) * STATUS_TICK_S;
      break;
    }
    current = prev;
  }
  // Without a change the kubelet still posts every 5 min (nodeStatusReportFrequency).
  const reportTick = Math.floor((tick - node.tickPhaseSeconds) / STATUS_REPORT_S) * STATUS_REPORT_S + node.tickPhaseSeconds;
  const heartbeatS = Math.max(lastChange ?? -Infinity, reportTick);
  const moment: NodeMoment = { ready, readyTransitionMs: transition === undefined ? null : at(transition), heartbeatMs: at(heartbeatS) };
  if (node.role === 'pleg-at-risk') moment.atRisk = atRiskViewAt(node, originMs, t);
  return moment;
}

/** The node's creation reference: stable for a given origin, so only status fields change over time. */
function baseNode(node: DemoNodeSpec, originMs: number): FullNode {
  const base = makeNode({ name: node.name, zone: node.zone, now: new Date(originMs - 3_600_000), imageCount: 24 });
  return node.role === 'cordoned' ? withCordoned(base, new Date(originMs - 5_400_000)) : base;
}

/** Applies a moment to the node object: condition, taints, heartbeats. */
export function buildDemoNode(node: DemoNodeSpec, originMs: number, moment: NodeMoment): FullNode {
  let obj = baseNode(node, originMs);
  const transitionAt = new Date(moment.readyTransitionMs ?? originMs);
  switch (moment.ready.status) {
    case 'True':
      break;
    case 'False':
      // The factory sets the status, reason and the not-ready taints; the message is the script's own.
      obj = withRuntimeDown(obj, { at: transitionAt });
      break;
    case 'Unknown':
      obj = withLeaseLost(obj, transitionAt);
      break;
  }
  const heartbeat = kubeTime(new Date(moment.heartbeatMs));
  const risk = moment.atRisk;
  if (risk !== undefined && obj.status !== undefined) {
    // NPD's condition goes after the kubelet's (its patch adds it to the list) with the fields NPD sets.
    obj.status.conditions = [
      ...(obj.status.conditions ?? []),
      { type: PLEG_AT_RISK, status: risk.status, lastHeartbeatTime: kubeTime(new Date(risk.heartbeatMs)), lastTransitionTime: kubeTime(new Date(risk.transitionMs)), reason: risk.reason, message: risk.message },
    ];
  }
  for (const c of obj.status?.conditions ?? []) {
    if (c.type === PLEG_AT_RISK) continue;
    c.lastHeartbeatTime = heartbeat;
    if (c.type === 'Ready') {
      c.status = moment.ready.status;
      c.reason = moment.ready.reason;
      c.message = moment.ready.message;
      if (moment.readyTransitionMs !== null) c.lastTransitionTime = kubeTime(transitionAt);
    }
  }
  return obj;
}

export function demoNodeAt(node: DemoNodeSpec, originMs: number, nowMs: number): FullNode {
  return buildDemoNode(node, originMs, nodeMomentAt(node, originMs, nowMs));
}

/** The node's object once its PLEG has been stuck `agoS` (> 180) seconds: what the e2e flips a node to. */
export function plegNotReadyNodeAt(node: DemoNodeSpec, originMs: number, nowMs: number, agoS: number): FullNode {
  const agoNs = BigInt(Math.round(agoS * 1e9)) + BigInt(Math.round(noise(node.name, nowMs) * 1e8));
  return buildDemoNode(node, originMs, {
    ready: plegReadyView(agoNs),
    readyTransitionMs: nowMs - (agoS - PLEG_THRESHOLD_S) * 1000,
    heartbeatMs: nowMs,
  });
}

/** The event the kubelet (or, for Unknown, the node controller) records when Ready changes. */
export function readyEvent(node: DemoNodeSpec, ready: ReadyView, atMs: number, seq: number): KubeEvent {
  const st = ready.status === 'True' ? 'NodeReady' : 'NodeNotReady';
  const fromController = ready.status === 'Unknown';
  const stamp = kubeTime(new Date(atMs));
  return {
    metadata: { name: `${node.name}.${(atMs * 1000 + seq).toString(16)}`, namespace: 'default' },
    involvedObject: { kind: 'Node', name: node.name },
    reason: st,
    message: `Node ${node.name} status is now: ${st}`,
    type: 'Normal',
    count: 1,
    source: fromController ? { component: 'node-controller' } : { component: 'kubelet', host: node.name },
    firstTimestamp: stamp,
    lastTimestamp: stamp,
    reportingComponent: fromController ? 'node-controller' : 'kubelet',
  };
}

/**
 * The Ready transitions a node's script made in (fromMs, toMs], oldest first, each with the condition it
 * changed to: what the kubelet (or node controller) recorded as NodeReady / NodeNotReady events. The demo
 * seeds an hour of them at start, as a cluster that has been running would have.
 */
export function readyTransitions(node: DemoNodeSpec, originMs: number, fromMs: number, toMs: number): { atMs: number; ready: ReadyView }[] {
  const out: { atMs: number; ready: ReadyView }[] = [];
  const fromS = (fromMs - originMs) / 1000;
  const toS = (toMs - originMs) / 1000;
  let k = Math.floor((fromS - node.tickPhaseSeconds) / STATUS_TICK_S);
  let previous = nodeMomentAt(node, originMs, originMs + (k * STATUS_TICK_S + node.tickPhaseSeconds) * 1000).ready.status;
  for (k++; k * STATUS_TICK_S + node.tickPhaseSeconds <= toS; k++) {
    const tickMs = originMs + (k * STATUS_TICK_S + node.tickPhaseSeconds) * 1000;
    const moment = nodeMomentAt(node, originMs, tickMs);
    if (moment.ready.status === previous) continue;
    previous = moment.ready.status;
    const atMs = moment.readyTransitionMs ?? tickMs;
    if (atMs > fromMs && atMs <= toMs) out.push({ atMs, ready: moment.ready });
  }
  return out;
}

export function findDemoNode(name: string): { context: DemoContextSpec; node: DemoNodeSpec } | undefined {
  for (const context of DEMO_CONTEXTS) {
    const node = context.nodes.find((n) => n.name === name);
    if (node) return { context, node };
  }
  return undefined;
}
