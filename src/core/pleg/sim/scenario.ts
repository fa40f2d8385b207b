// A simulation scenario as JSON, and its validation. Durations may be written as milliseconds or as Go
// duration strings (`"2m0s"`, as /configz prints them). parseScenario fills every default and rejects
// anything it does not understand, naming the offending path.

import { GoDurationError, parseGoDurationNs } from '../../util/goDuration';
import { isoToEpochMs } from '../../parse/klogPrefix';
import type { HangWindow } from '../cost/criCall';
import { profileIdForMinor, PLEG_PROFILES } from '../profiles';

/** A latency distribution in ms. A bare number is a constant. */
export type LatencyDist =
  | { kind: 'constant'; ms: number }
  | { kind: 'uniform'; minMs: number; maxMs: number }
  | { kind: 'exponential'; meanMs: number }
  /** Log-normal given by its median and 99th percentile. */
  | { kind: 'lognormal'; medianMs: number; p99Ms: number };

export interface LatencyModel {
  listPodSandbox: LatencyDist;
  listContainers: LatencyDist;
  podSandboxStatus: LatencyDist;
  containerStatus: LatencyDist;
  /** CRI Status (the 5 s runtime check). */
  status: LatencyDist;
  /** CRI Version (called by the node status update). */
  version: LatencyDist;
}

/** Latencies multiplied by `factor` inside the window (a loaded disk, a busy runtime). */
export interface SlowWindow {
  startMs: number;
  durationMs: number;
  factor: number;
}

export interface KubeletSettings {
  runtimeRequestTimeoutMs: number;
  relistPeriodMs: number;
  relistThresholdMs: number;
  nodeStatusUpdateFrequencyMs: number;
  runtimeStatusPeriodMs: number;
  /** baseRuntimeSyncThreshold: no successful Status for this long → `container runtime is down`. */
  runtimeSyncThresholdMs: number;
  housekeepingPeriodMs: number;
  syncTickMs: number;
  channelCapacity: number;
  /** Housekeeping lists pods from the runtime, so a hung runtime blocks the sync loop (fixture README). */
  housekeepingCallsRuntime: boolean;
  /** The node status VersionInfo setter calls CRI Version, so a hung runtime delays every post. */
  nodeStatusCallsRuntime: boolean;
  /**
   * The kubelet runs its dockershim (≤ 1.23 with Docker): before Version, VersionInfo waits on cAdvisor's
   * two docker version calls, 10 s each while dockerd hangs (src/core/timeline/nodeStatusLoopShape.ts).
   */
  dockershim: boolean;
  /** The thread id printed in generated log lines. */
  pid: number;
  /**
   * Feature gate PLEGOnDemandRelist (1.36+; default: the version's default, on in 1.36): after a sync that
   * changed a pod (here: each churn), the kubelet asks for a relist of that pod alone.
   */
  onDemandRelist: boolean;
}

export interface Scenario {
  name: string;
  seed: number;
  durationMs: number;
  kubeletVersion: string;
  /** Wall-clock time of t = 0 (the sync loop's start), for generated log lines. */
  startTime: string;
  startEpochMs: number;
  nodeName: string;
  /** containersPerPod: a range drawn per pod, or an exact count per pod (`perPod`, length = count). */
  pods: { count: number; containersPerPod: { min: number; max: number; perPod?: number[] }; sandboxesPerPod: number };
  churn: { containerRestartsPerHour: number; podReplacementsPerHour: number };
  latency: LatencyModel;
  runtimeHangs: HangWindow[];
  slowdowns: SlowWindow[];
  consumerStalls: Array<{ startMs: number; durationMs: number }>;
  kubelet: KubeletSettings;
  /**
   * The EventedPLEG feature gate (1.26+), on when present: the generic PLEG relists every 300 s with a
   * 10 min threshold, CRI container events reach the pod cache and the channel, and after
   * `maxStreamRetries` failed GetContainerEvents streams the kubelet falls back to the configured
   * relist period and threshold (1 s / 3 min by default).
   */
  eventedPleg: { streamFailuresMs: number[] } | null;
  /** `all`: every relist in the timeline; `notable`: failed, slow (≥ slowRelistMs) or eventful ones only. */
  record: { relists: 'all' | 'notable'; slowRelistMs: number; maxLogLines: number };
}

export class ScenarioError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`scenario ${path}: ${reason}`);
    this.name = 'ScenarioError';
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, path: string, allowed: readonly string[]): Obj {
  if (v === undefined) return {};
  if (!isObj(v)) throw new ScenarioError(path, 'must be an object');
  for (const k of Object.keys(v)) if (!allowed.includes(k)) throw new ScenarioError(`${path}.${k}`, `unknown field (allowed: ${allowed.join(', ')})`);
  return v;
}

function num(v: unknown, path: string, dflt: number | undefined, opts: { min?: number; max?: number; integer?: boolean } = {}): number {
  if (v === undefined) {
    if (dflt === undefined) throw new ScenarioError(path, 'is required');
    return dflt;
  }
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ScenarioError(path, `must be a finite number, got ${JSON.stringify(v)}`);
  if (opts.integer && !Number.isInteger(v)) throw new ScenarioError(path, `must be an integer, got ${v}`);
  if (opts.min !== undefined && v < opts.min) throw new ScenarioError(path, `must be ≥ ${opts.min}, got ${v}`);
  if (opts.max !== undefined && v > opts.max) throw new ScenarioError(path, `must be ≤ ${opts.max}, got ${v}`);
  return v;
}

/** Milliseconds from a number (ms) or a Go duration string. */
function dur(v: unknown, path: string, dflt: number | undefined, min = 0): number {
  if (typeof v === 'string') {
    let ns: bigint;
    try {
      ns = parseGoDurationNs(v);
    } catch (e) {
      if (e instanceof GoDurationError) throw new ScenarioError(path, e.message);
      throw e;
    }
    const ms = Number(ns) / 1e6;
    if (ms < min) throw new ScenarioError(path, `must be ≥ ${min} ms, got ${v}`);
    return ms;
  }
  return num(v, path, dflt, { min });
}

function eventedPleg(v: unknown, kubeletVersion: string): Scenario['eventedPleg'] {
  if (v === undefined) return null;
  const o = obj(v, '$.eventedPleg', ['streamFailures']);
  const minor = Number(/^v?1\.(\d+)/u.exec(kubeletVersion)?.[1]);
  if (minor < 26) throw new ScenarioError('$.eventedPleg', `kubelet ${kubeletVersion} has no EventedPLEG (added in 1.26)`);
  const failures = o['streamFailures'] ?? [];
  if (!Array.isArray(failures)) throw new ScenarioError('$.eventedPleg.streamFailures', 'must be a list of times');
  const streamFailuresMs = failures.map((f, i) => dur(f, `$.eventedPleg.streamFailures[${i}]`, undefined));
  return { streamFailuresMs: streamFailuresMs.sort((a, b) => a - b) };
}

function onDemandRelist(v: unknown, kubeletVersion: string): boolean {
  const minor = Number(/^v?1\.(\d+)/u.exec(kubeletVersion)?.[1]);
  const feature = PLEG_PROFILES[profileIdForMinor(minor)].onDemandRelist;
  const on = bool(v, '$.kubelet.onDemandRelist', feature?.gateDefault ?? false);
  if (on && feature === null) throw new ScenarioError('$.kubelet.onDemandRelist', `kubelet ${kubeletVersion} has no on-demand relist (PLEGOnDemandRelist arrived in 1.36)`);
  return on;
}

function dockershim(v: unknown, kubeletVersion: string): boolean {
  const on = bool(v, '$.kubelet.dockershim', false);
  const minor = Number(/^v?1\.(\d+)/u.exec(kubeletVersion)?.[1]);
  if (on && minor >= 24) throw new ScenarioError('$.kubelet.dockershim', `kubelet ${kubeletVersion} has no dockershim (removed in 1.24)`);
  return on;
}

function bool(v: unknown, path: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new ScenarioError(path, 'must be true or false');
  return v;
}

function str(v: unknown, path: string, dflt: string | undefined): string {
  if (v === undefined) {
    if (dflt === undefined) throw new ScenarioError(path, 'is required');
    return dflt;
  }
  if (typeof v !== 'string' || v === '') throw new ScenarioError(path, 'must be a non-empty string');
  return v;
}

function dist(v: unknown, path: string, dflt: LatencyDist): LatencyDist {
  if (v === undefined) return dflt;
  if (typeof v === 'number' || typeof v === 'string') return { kind: 'constant', ms: dur(v, path, undefined) };
  if (!isObj(v)) throw new ScenarioError(path, 'must be a number of ms, a Go duration or a distribution object');
  switch (v['kind']) {
    case 'constant':
      obj(v, path, ['kind', 'ms']);
      return { kind: 'constant', ms: dur(v['ms'], `${path}.ms`, undefined) };
    case 'uniform': {
      obj(v, path, ['kind', 'minMs', 'maxMs']);
      const minMs = dur(v['minMs'], `${path}.minMs`, undefined);
      const maxMs = dur(v['maxMs'], `${path}.maxMs`, undefined);
      if (maxMs < minMs) throw new ScenarioError(`${path}.maxMs`, 'must be ≥ minMs');
      return { kind: 'uniform', minMs, maxMs };
    }
    case 'exponential':
      obj(v, path, ['kind', 'meanMs']);
      return { kind: 'exponential', meanMs: dur(v['meanMs'], `${path}.meanMs`, undefined) };
    case 'lognormal': {
      obj(v, path, ['kind', 'medianMs', 'p99Ms']);
      const medianMs = dur(v['medianMs'], `${path}.medianMs`, undefined, Number.MIN_VALUE);
      const p99Ms = dur(v['p99Ms'], `${path}.p99Ms`, undefined);
      if (p99Ms < medianMs) throw new ScenarioError(`${path}.p99Ms`, 'must be ≥ medianMs');
      return { kind: 'lognormal', medianMs, p99Ms };
    }
    default:
      throw new ScenarioError(`${path}.kind`, `must be constant, uniform, exponential or lognormal, got ${JSON.stringify(v['kind'])}`);
  }
}

function windows(v: unknown, path: string): Array<{ startMs: number; durationMs: number; rest: Obj }> {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new ScenarioError(path, 'must be an array');
  const out = v.map((w, i) => {
    const p = `${path}[${i}]`;
    const o = obj(w, p, ['startMs', 'durationMs', 'factor', 'note']);
    return { startMs: dur(o['startMs'], `${p}.startMs`, undefined), durationMs: dur(o['durationMs'], `${p}.durationMs`, undefined), rest: o };
  });
  let prevEnd = Number.NEGATIVE_INFINITY;
  out.forEach((w, i) => {
    if (w.startMs < prevEnd) throw new ScenarioError(`${path}[${i}]`, 'windows must be sorted by start and must not overlap');
    prevEnd = w.startMs + w.durationMs;
  });
  return out;
}

const FAST: LatencyDist = { kind: 'lognormal', medianMs: 1, p99Ms: 8 };

export function parseScenario(input: unknown): Scenario {
  const root = obj(input, '$', ['name', 'description', 'seed', 'duration', 'kubeletVersion', 'startTime', 'nodeName', 'pods', 'churn', 'latency', 'runtimeHangs', 'slowdowns', 'consumerStalls', 'kubelet', 'eventedPleg', 'record']);
  if (!isObj(input)) throw new ScenarioError('$', 'must be a JSON object');
  const startTime = str(root['startTime'], '$.startTime', '1970-01-01T00:00:00Z');
  const startEpochMs = isoToEpochMs(startTime);
  if (startEpochMs === undefined) throw new ScenarioError('$.startTime', `must be an RFC 3339 time with a zone, got ${JSON.stringify(startTime)}`);
  const kubeletVersion = str(root['kubeletVersion'], '$.kubeletVersion', '1.32.0');
  if (!/^v?1\.\d+(?:\.\d+)?(?:[-+].*)?$/u.test(kubeletVersion)) throw new ScenarioError('$.kubeletVersion', `not a kubelet version: ${JSON.stringify(kubeletVersion)}`);

  const pods = obj(root['pods'], '$.pods', ['count', 'containersPerPod', 'sandboxesPerPod']);
  let cpp: { min: number; max: number; perPod?: number[] };
  const rawCpp = pods['containersPerPod'];
  const count = num(pods['count'], '$.pods.count', Array.isArray(rawCpp) ? rawCpp.length : 4, { min: 0, max: 10_000, integer: true });
  if (Array.isArray(rawCpp)) {
    const perPod = rawCpp.map((v, i) => num(v, `$.pods.containersPerPod[${i}]`, undefined, { min: 0, integer: true, max: 100 }));
    if (perPod.length !== count) throw new ScenarioError('$.pods.containersPerPod', `lists ${perPod.length} pods but $.pods.count is ${count}`);
    cpp = { min: Math.min(...perPod, 0), max: Math.max(...perPod, 0), perPod };
  } else if (isObj(rawCpp)) {
    obj(rawCpp, '$.pods.containersPerPod', ['min', 'max']);
    cpp = {
      min: num(rawCpp['min'], '$.pods.containersPerPod.min', undefined, { min: 0, integer: true, max: 100 }),
      max: num(rawCpp['max'], '$.pods.containersPerPod.max', undefined, { min: 0, integer: true, max: 100 }),
    };
    if (cpp.max < cpp.min) throw new ScenarioError('$.pods.containersPerPod.max', 'must be ≥ min');
  } else {
    const n = num(rawCpp, '$.pods.containersPerPod', 1, { min: 0, integer: true, max: 100 });
    cpp = { min: n, max: n };
  }
  const churn = obj(root['churn'], '$.churn', ['containerRestartsPerHour', 'podReplacementsPerHour']);
  const lat = obj(root['latency'], '$.latency', ['listPodSandbox', 'listContainers', 'podSandboxStatus', 'containerStatus', 'status', 'version']);
  const k = obj(root['kubelet'], '$.kubelet', [
    'runtimeRequestTimeout',
    'relistPeriod',
    'relistThreshold',
    'nodeStatusUpdateFrequency',
    'runtimeStatusPeriod',
    'runtimeSyncThreshold',
    'housekeepingPeriod',
    'syncTick',
    'channelCapacity',
    'housekeepingCallsRuntime',
    'nodeStatusCallsRuntime',
    'dockershim',
    'pid',
    'onDemandRelist',
  ]);
  const rec = obj(root['record'], '$.record', ['relists', 'slowRelistMs', 'maxLogLines']);
  const relists = rec['relists'] ?? 'all';
  if (relists !== 'all' && relists !== 'notable') throw new ScenarioError('$.record.relists', 'must be "all" or "notable"');

  const hangs = windows(root['runtimeHangs'], '$.runtimeHangs');
  for (const [i, h] of hangs.entries()) if (h.rest['factor'] !== undefined) throw new ScenarioError(`$.runtimeHangs[${i}].factor`, 'only slowdowns have a factor');
  const slow = windows(root['slowdowns'], '$.slowdowns');
  const stalls = windows(root['consumerStalls'], '$.consumerStalls');
  for (const [i, h] of stalls.entries()) if (h.rest['factor'] !== undefined) throw new ScenarioError(`$.consumerStalls[${i}].factor`, 'only slowdowns have a factor');

  return {
    eventedPleg: eventedPleg(root['eventedPleg'], kubeletVersion),
    name: str(root['name'], '$.name', 'scenario'),
    seed: num(root['seed'], '$.seed', 1, { min: 0, max: 0xffffffff, integer: true }),
    durationMs: dur(root['duration'], '$.duration', undefined, 1),
    kubeletVersion,
    startTime,
    startEpochMs,
    nodeName: str(root['nodeName'], '$.nodeName', 'node'),
    pods: {
      count,
      containersPerPod: cpp,
      sandboxesPerPod: num(pods['sandboxesPerPod'], '$.pods.sandboxesPerPod', 1, { min: 1, max: 10, integer: true }),
    },
    churn: {
      containerRestartsPerHour: num(churn['containerRestartsPerHour'], '$.churn.containerRestartsPerHour', 0, { min: 0 }),
      podReplacementsPerHour: num(churn['podReplacementsPerHour'], '$.churn.podReplacementsPerHour', 0, { min: 0 }),
    },
    latency: {
      listPodSandbox: dist(lat['listPodSandbox'], '$.latency.listPodSandbox', FAST),
      listContainers: dist(lat['listContainers'], '$.latency.listContainers', FAST),
      podSandboxStatus: dist(lat['podSandboxStatus'], '$.latency.podSandboxStatus', FAST),
      containerStatus: dist(lat['containerStatus'], '$.latency.containerStatus', FAST),
      status: dist(lat['status'], '$.latency.status', FAST),
      version: dist(lat['version'], '$.latency.version', FAST),
    },
    runtimeHangs: hangs.map((h) => ({ startMs: h.startMs, durationMs: h.durationMs })),
    slowdowns: slow.map((s, i) => ({ startMs: s.startMs, durationMs: s.durationMs, factor: num(s.rest['factor'], `$.slowdowns[${i}].factor`, undefined, { min: 0 }) })),
    consumerStalls: stalls.map((s) => ({ startMs: s.startMs, durationMs: s.durationMs })),
    kubelet: {
      runtimeRequestTimeoutMs: dur(k['runtimeRequestTimeout'], '$.kubelet.runtimeRequestTimeout', 120_000, 1),
      relistPeriodMs: dur(k['relistPeriod'], '$.kubelet.relistPeriod', 1_000, 1),
      relistThresholdMs: dur(k['relistThreshold'], '$.kubelet.relistThreshold', 180_000, 1),
      nodeStatusUpdateFrequencyMs: dur(k['nodeStatusUpdateFrequency'], '$.kubelet.nodeStatusUpdateFrequency', 10_000, 1),
      runtimeStatusPeriodMs: dur(k['runtimeStatusPeriod'], '$.kubelet.runtimeStatusPeriod', 5_000, 1),
      runtimeSyncThresholdMs: dur(k['runtimeSyncThreshold'], '$.kubelet.runtimeSyncThreshold', 30_000, 1),
      housekeepingPeriodMs: dur(k['housekeepingPeriod'], '$.kubelet.housekeepingPeriod', 2_000, 1),
      syncTickMs: dur(k['syncTick'], '$.kubelet.syncTick', 1_000, 1),
      channelCapacity: num(k['channelCapacity'], '$.kubelet.channelCapacity', 1_000, { min: 0, integer: true }),
      housekeepingCallsRuntime: bool(k['housekeepingCallsRuntime'], '$.kubelet.housekeepingCallsRuntime', true),
      nodeStatusCallsRuntime: bool(k['nodeStatusCallsRuntime'], '$.kubelet.nodeStatusCallsRuntime', true),
      dockershim: dockershim(k['dockershim'], kubeletVersion),
      pid: num(k['pid'], '$.kubelet.pid', 1234, { min: 1, integer: true }),
      onDemandRelist: onDemandRelist(k['onDemandRelist'], kubeletVersion),
    },
    record: {
      relists,
      slowRelistMs: num(rec['slowRelistMs'], '$.record.slowRelistMs', 1_000, { min: 0 }),
      maxLogLines: num(rec['maxLogLines'], '$.record.maxLogLines', 20_000, { min: 0, integer: true }),
    },
  };
}
