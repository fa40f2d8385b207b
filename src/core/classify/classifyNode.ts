// Why is this node NotReady? Pure, total: any input (even not a Node at all) yields a classification, and
// problems with the input become `warnings` instead of exceptions.
//
// Verdict rules (Ready condition first, then the errors found in its message):
// - Ready=True → `ready`, whatever else is set (pressure, NetworkUnavailable and cordon become flags),
//   unless node-problem-detector's PLEGAtRisk=True: then `pleg-at-risk`, "PLEG at risk · NotReady in ~1m25s"
//   (src/core/npd/atRiskCondition.ts counts down from when NPD wrote its prediction). On a NotReady node
//   the kubelet's own verdict wins and PLEGAtRisk stays in `atRisk` for the tooltip.
// - Ready=Unknown, or an R8 message ("Kubelet stopped posting node status.") → `lease-lost`.
// - Ready=False: PLEG stale (R1) or EventedPLEG full (R3) → `pleg`, even next to "container runtime is
//   down": the PLEG error is what the user came for, the others stay in `errors`.
// - "pleg has yet to be successful" (R2) and "container runtime status check may not have completed yet"
//   (R4, pending) are what every kubelet says for its first seconds (docs/root-causes.md, cause 11: flag only
//   if it lasts > 3 min). So they give `startup` while the Ready transition is less than 3 min old, and
//   `pleg` (R2) / `runtime-down` (R4 pending: the runtime has not answered one Status call in 3 min) once
//   it is older. With no usable transition time we cannot tell a transient, so we flag (and warn).
// - "container runtime is down" / "container runtime not ready" → `runtime-down`; the network form of R5
//   or NetworkUnavailable=True → `network`; anything else → `not-ready-other`.

import type { KubeNode } from '../kube/objects';
import { parseReadyMessage } from '../parse/readyMessage';
import { GoDurationError, meansNeverRelisted, parseGoDurationNs, formatGoDuration } from '../util/goDuration';
import type { NodeClassification, PressureCondition, ReadyError, Verdict } from './types';
import { errorText } from '../util/errorText';
import { atRiskCountdown, countdownText, readAtRisk } from '../npd/atRiskCondition';

/** How long R2 / "may not have completed yet" may last before it is no longer a startup transient. */
export const STARTUP_GRACE_SECONDS = 180;

const PRESSURES: readonly PressureCondition[] = ['MemoryPressure', 'DiskPressure', 'PIDPressure'];

type Rec = Record<string, unknown>;

function asRecord(v: unknown): Rec | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Rec) : undefined;
}

function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Accepts the string form (JSON) and Date objects (client-node). */
function asTimestamp(v: unknown, what: string, warnings: string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  const ms = v instanceof Date ? v.getTime() : typeof v === 'string' ? Date.parse(v) : Number.NaN;
  if (Number.isNaN(ms)) {
    warnings.push(`${what} is not a valid timestamp: ${JSON.stringify(v instanceof Date ? String(v) : v)}`);
    return undefined;
  }
  return new Date(ms).toISOString();
}

/** Exact decimal nanoseconds → the nearest double (226752815514n → 226.752815514, not 226.75281551400002). */
export function nanosToSeconds(ns: bigint): number {
  const neg = ns < 0n;
  const abs = neg ? -ns : ns;
  const text = `${abs / 1_000_000_000n}.${(abs % 1_000_000_000n).toString().padStart(9, '0')}`;
  return neg ? -Number(text) : Number(text);
}

/** Parses a Go duration into seconds; `null` for "never" (the max duration and anything above). */
export function plegDurationSeconds(text: string): { seconds: number | null } | { error: string } {
  // Hours beyond int64 nanoseconds do not parse, yet still mean "never".
  const hours = /^(\d+)h/u.exec(text);
  if (hours?.[1] !== undefined && meansNeverRelisted({ seconds: Number(hours[1]) * 3600 })) return { seconds: null };
  try {
    const ns = parseGoDurationNs(text);
    if (meansNeverRelisted({ ns })) return { seconds: null };
    return { seconds: nanosToSeconds(ns) };
  } catch (e) {
    return { error: e instanceof GoDurationError ? e.message : String(e) };
  }
}

interface ReadyPick {
  condition: Rec | undefined;
  conditions: Rec[];
}

function pickConditions(node: Rec, warnings: string[]): ReadyPick {
  const status = asRecord(node['status']);
  const raw = status?.['conditions'];
  if (raw !== undefined && raw !== null && !Array.isArray(raw)) warnings.push('status.conditions is not a list');
  const conditions = (Array.isArray(raw) ? raw : []).map(asRecord).filter((c): c is Rec => c !== undefined);
  const readies = conditions.filter((c) => c['type'] === 'Ready');
  if (readies.length > 1) {
    warnings.push(`${readies.length} Ready conditions; using the one with the latest heartbeat`);
    const time = (c: Rec): number => {
      const t = c['lastHeartbeatTime'] ?? c['lastTransitionTime'];
      const ms = t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN;
      return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
    };
    readies.sort((a, b) => time(b) - time(a));
  }
  return { condition: readies[0], conditions };
}

function normalizeStatus(v: unknown, warnings: string[]): NodeClassification['readyStatus'] | 'invalid' {
  if (v === 'True' || v === 'False' || v === 'Unknown') return v;
  if (typeof v === 'string') {
    const fixed = ['True', 'False', 'Unknown'].find((s) => s.toLowerCase() === v.trim().toLowerCase());
    if (fixed !== undefined) {
      warnings.push(`Ready status "${v}" is not spelled as Kubernetes does; read as "${fixed}"`);
      return fixed as 'True' | 'False' | 'Unknown';
    }
  }
  warnings.push(`Ready condition has an invalid status ${JSON.stringify(v) ?? 'undefined'}`);
  return 'invalid';
}

function formatTaint(t: Rec): string | undefined {
  const key = asString(t['key']);
  if (key === undefined) return undefined;
  const value = asString(t['value']);
  const effect = asString(t['effect']);
  return `${key}${value !== undefined && value !== '' ? `=${value}` : ''}${effect !== undefined ? `:${effect}` : ''}`;
}

function podCount(v: unknown, what: string, warnings: string[]): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/u.test(v.trim())) return Number(v.trim());
  warnings.push(`${what} is not a whole number: ${JSON.stringify(v)}`);
  return undefined;
}

function roundedDuration(seconds: number): string {
  return formatGoDuration(BigInt(Math.floor(seconds)) * 1_000_000_000n);
}

function has(errors: ReadyError[], kind: ReadyError['kind']): boolean {
  return errors.some((e) => e.kind === kind);
}

/** Classifies one Node. Never throws. */
export function classifyNode(node: KubeNode, now: Date): NodeClassification {
  try {
    return classify(node as unknown, now);
  } catch (e) {
    // Only reachable through a bug; the tree must still show the node, so report it as a warning.
    const rec = asRecord(node as unknown);
    const name = asString(asRecord(rec?.['metadata'])?.['name']) ?? '';
    return {
      name,
      verdict: 'not-ready-other',
      summary: 'Could not classify this node',
      message: `PLEG Doctor failed to classify this node: ${errorText(e)}`,
      readyStatus: 'missing',
      cordoned: false,
      pressures: [],
      errors: [],
      versions: {},
      pods: {},
      taints: [],
      warnings: [`internal error while classifying: ${errorText(e)}`],
    };
  }
}

function classify(input: unknown, now: Date): NodeClassification {
  const warnings: string[] = [];
  const node = asRecord(input);
  if (node === undefined) warnings.push(`expected a Node object, got ${Array.isArray(input) ? 'a list' : typeof input}`);
  const n = node ?? {};
  const kind = n['kind'];
  if (kind !== undefined && kind !== 'Node') warnings.push(`object kind is ${JSON.stringify(kind)}, not "Node"`);

  const metadata = asRecord(n['metadata']);
  const name = asString(metadata?.['name']) ?? '';
  if (name === '') warnings.push('the Node has no metadata.name');
  const spec = asRecord(n['spec']);
  const status = asRecord(n['status']);

  const unschedulable = spec?.['unschedulable'];
  const cordoned = unschedulable === true;
  if (unschedulable !== undefined && typeof unschedulable !== 'boolean') {
    warnings.push(`spec.unschedulable is not a boolean: ${JSON.stringify(unschedulable)}`);
  }

  const rawTaints = spec?.['taints'];
  const taints = (Array.isArray(rawTaints) ? rawTaints : [])
    .map(asRecord)
    .filter((t): t is Rec => t !== undefined)
    .map(formatTaint)
    .filter((t): t is string => t !== undefined);

  const nodeInfo = asRecord(status?.['nodeInfo']);
  const versions: NodeClassification['versions'] = {};
  const setVersion = (key: keyof NodeClassification['versions'], field: string): void => {
    const v = asString(nodeInfo?.[field]);
    if (v !== undefined && v !== '') versions[key] = v;
  };
  setVersion('kubelet', 'kubeletVersion');
  setVersion('runtime', 'containerRuntimeVersion');
  setVersion('kernel', 'kernelVersion');
  setVersion('osImage', 'osImage');

  const pods: NodeClassification['pods'] = {};
  const capacity = podCount(asRecord(status?.['capacity'])?.['pods'], 'status.capacity.pods', warnings);
  const allocatable = podCount(asRecord(status?.['allocatable'])?.['pods'], 'status.allocatable.pods', warnings);
  if (capacity !== undefined) pods.capacity = capacity;
  if (allocatable !== undefined) pods.allocatable = allocatable;

  const { condition: ready, conditions } = pickConditions(n, warnings);
  const pressures = PRESSURES.filter((p) => conditions.some((c) => c['type'] === p && c['status'] === 'True'));
  const networkUnavailable = conditions.some((c) => c['type'] === 'NetworkUnavailable' && c['status'] === 'True');

  const atRisk = readAtRisk(conditions, warnings);
  const base = { name, cordoned, pressures, versions, pods, taints, warnings, ...(atRisk !== undefined ? { atRisk } : {}) };
  const flags = (summary: string): string =>
    [summary, ...(cordoned ? ['cordoned'] : []), ...pressures, ...(networkUnavailable ? ['NetworkUnavailable'] : [])].join(
      ' · ',
    );

  if (ready === undefined) {
    const message =
      conditions.length === 0
        ? 'The Node has no status conditions: the kubelet has never reported its status.'
        : 'The Node has no Ready condition (its other conditions are present).';
    if (conditions.length > 0) warnings.push('no Ready condition among status.conditions');
    const out: NodeClassification = {
      ...base,
      verdict: networkUnavailable ? 'network' : 'not-ready-other',
      summary: flags(conditions.length === 0 ? 'No status conditions' : 'No Ready condition'),
      message,
      readyStatus: 'missing',
      errors: [],
    };
    if (networkUnavailable) out.networkUnavailable = true;
    return out;
  }

  const readyStatusRaw = normalizeStatus(ready['status'], warnings);
  const readyStatus = readyStatusRaw === 'invalid' ? 'Unknown' : readyStatusRaw;
  const reason = asString(ready['reason']);
  const rawMessage = ready['message'];
  if (rawMessage !== undefined && typeof rawMessage !== 'string') warnings.push('the Ready message is not a string');
  const kubeletMessage = asString(rawMessage) ?? '';
  const since = asTimestamp(ready['lastTransitionTime'], 'the Ready lastTransitionTime', warnings);
  const lastHeartbeat = asTimestamp(ready['lastHeartbeatTime'], 'the Ready lastHeartbeatTime', warnings);
  const parsed = parseReadyMessage(kubeletMessage);
  const errors = parsed.errors;

  const out: NodeClassification = {
    ...base,
    verdict: 'not-ready-other',
    summary: '',
    message: kubeletMessage !== '' ? kubeletMessage : `Ready=${readyStatus} with no message${reason !== undefined ? ` (reason ${reason})` : ''}.`,
    readyStatus,
    errors,
  };
  if (reason !== undefined && reason !== '') out.readyReason = reason;
  if (since !== undefined) out.since = since;
  if (lastHeartbeat !== undefined) out.lastHeartbeat = lastHeartbeat;
  if (networkUnavailable) out.networkUnavailable = true;

  // PLEG figures are extracted whatever the verdict: a Ready=Unknown node keeps its last kubelet message.
  const stale = errors.find((e) => e.kind === 'pleg-stale');
  if (stale !== undefined) {
    if (stale.lastSeenAgo !== undefined) {
      const ago = plegDurationSeconds(stale.lastSeenAgo);
      if ('error' in ago) warnings.push(`PLEG "last seen active" duration: ${ago.error}`);
      else out.plegLastSeenAgoSeconds = ago.seconds;
    }
    if (stale.threshold !== undefined) {
      const thr = plegDurationSeconds(stale.threshold);
      if ('error' in thr) warnings.push(`PLEG threshold duration: ${thr.error}`);
      else if (thr.seconds === null) warnings.push(`PLEG threshold "${stale.threshold}" is out of range`);
      else out.plegThresholdSeconds = thr.seconds;
    }
  } else if (has(errors, 'pleg-never')) {
    out.plegLastSeenAgoSeconds = null;
  }

  const ageSeconds = since !== undefined ? (now.getTime() - Date.parse(since)) / 1000 : undefined;
  const verdict = decide(readyStatusRaw, errors, parsed.lease, networkUnavailable, ageSeconds, warnings);
  out.verdict = verdict === 'ready' && atRisk?.status === 'True' ? 'pleg-at-risk' : verdict;
  out.summary = flags(summarize(out.verdict, out, ageSeconds, now));
  return out;
}

function decide(
  status: NodeClassification['readyStatus'] | 'invalid',
  errors: ReadyError[],
  lease: 'stopped' | 'never' | undefined,
  networkUnavailable: boolean,
  ageSeconds: number | undefined,
  warnings: string[],
): Verdict {
  if (status === 'True') return 'ready';
  if (status === 'invalid') return 'not-ready-other';
  if (status === 'Unknown' || lease !== undefined) return 'lease-lost';
  const recent = ageSeconds !== undefined && ageSeconds <= STARTUP_GRACE_SECONDS;
  const startupForm = has(errors, 'pleg-never') || has(errors, 'runtime-status-pending');
  if (startupForm && ageSeconds === undefined) {
    warnings.push('no Ready lastTransitionTime: cannot tell a startup transient from a lasting failure');
  }
  if (has(errors, 'pleg-stale') || has(errors, 'evented-pleg-full')) return 'pleg';
  if (has(errors, 'pleg-never') && !recent) return 'pleg';
  if (has(errors, 'runtime-down') || has(errors, 'runtime-not-ready')) return 'runtime-down';
  if (has(errors, 'runtime-status-pending') && !recent) return 'runtime-down';
  if (startupForm) return 'startup';
  if (has(errors, 'network-not-ready') || networkUnavailable) return 'network';
  return 'not-ready-other';
}

function summarize(verdict: Verdict, c: NodeClassification, ageSeconds: number | undefined, now: Date): string {
  const forHow = ageSeconds !== undefined && ageSeconds >= 0 ? ` for ${roundedDuration(ageSeconds)}` : '';
  switch (verdict) {
    case 'ready':
      return 'Ready';
    case 'pleg-at-risk':
      return c.atRisk === undefined ? 'PLEG at risk' : `PLEG at risk · ${countdownText(atRiskCountdown(c.atRisk, now))}`;
    case 'pleg': {
      const ago = c.plegLastSeenAgoSeconds;
      if (has(c.errors, 'evented-pleg-full') && !has(c.errors, 'pleg-stale')) {
        return 'EventedPLEG not healthy · event channel full';
      }
      const stale = c.errors.find((e) => e.kind === 'pleg-stale');
      if (ago === null && stale !== undefined) return 'PLEG not healthy · never relisted';
      if (ago === null || ago === undefined) {
        // No figure: R2 (never), or a duration we could not read (then show the kubelet's text).
        return stale !== undefined
          ? `PLEG not healthy · last relist ${stale.lastSeenAgo ?? '?'} ago`
          : `PLEG not healthy · no successful relist since kubelet start${forHow}`;
      }
      const thr = c.plegThresholdSeconds !== undefined ? ` (threshold ${roundedDuration(c.plegThresholdSeconds)})` : '';
      return `PLEG not healthy · last relist ${roundedDuration(ago)} ago${thr}`;
    }
    case 'runtime-down':
      return has(c.errors, 'runtime-down')
        ? 'Container runtime down'
        : has(c.errors, 'runtime-not-ready')
          ? 'Container runtime not ready'
          : `Container runtime never answered its status check${forHow}`;
    case 'startup':
      return `Kubelet starting${forHow}`;
    case 'network':
      return has(c.errors, 'network-not-ready') ? 'Network not ready' : 'NotReady · network unavailable';
    case 'lease-lost':
      return c.message.includes('never posted') ? 'Kubelet never posted status' : `Kubelet stopped posting status${forHow}`;
    case 'not-ready-other': {
      const first = c.errors[0];
      if (first?.kind === 'shutting-down') return 'Node shutting down';
      if (first?.kind === 'capacity-missing') return 'NotReady · missing node capacity';
      return `NotReady${c.readyReason !== undefined ? ` · ${c.readyReason}` : ''}`;
    }
  }
}
