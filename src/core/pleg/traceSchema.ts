// The oracle trace format (test/fixtures/pleg-oracle/README.md), validated from untyped JSON with errors
// that name the offending field.

import type { CriContainerEvent, CriContainerEventType } from './evented';
import { CRI_CONTAINER_EVENT_TYPES } from './evented';
import type { ContainerState, RuntimeContainer, RuntimePod } from './types';

export interface TraceConfig {
  channelCapacity: number;
  useCache: boolean;
  relistPeriodMs: number;
  relistThresholdMs: number;
  eventedPLEGFeatureGate: boolean;
  eventedPLEGInUse: boolean;
  evented: boolean;
  /** Feature gate PLEGOnDemandRelist (1.36 corpus only; default false). */
  onDemandRelist: boolean;
}

/** processRelistQueue's `hang`: the step's first GetPod takes `ms` while relistPod holds the relist lock. */
export interface RelistHang {
  ms: number;
  /** Call Healthy() during the hang. */
  healthy: boolean;
  /** Start a global relist during the hang (it waits for the lock, then runs at the post-hang instant). */
  globalRelist: boolean;
}

export type ConsumeSpec = 'all' | 'none' | number;

export type TraceStep =
  | {
      op: 'relist';
      at: number;
      pods?: RuntimePod[];
      getPodsError?: string;
      podStatusErrors?: Readonly<Record<string, string>>;
      consume: ConsumeSpec;
    }
  | { op: 'healthy'; at: number }
  | { op: 'eventedHealthy'; at: number }
  | { op: 'consume'; at: number; consume: ConsumeSpec }
  | { op: 'updateRelistDuration'; at: number; relistPeriodMs: number; relistThresholdMs: number }
  | { op: 'criEvent'; at: number; event: CriContainerEvent }
  | { op: 'setRuntime'; at: number; pods: RuntimePod[] }
  | { op: 'requestRelist'; at: number; podUIDs: string[]; count: number; consume: ConsumeSpec }
  | {
      op: 'processRelistQueue';
      at: number;
      /** Requests to serve; undefined = until the queue is empty. */
      max?: number;
      pods?: RuntimePod[];
      podStatusErrors?: Readonly<Record<string, string>>;
      getPodError?: string;
      consume: ConsumeSpec;
      hang?: RelistHang;
    };

export interface Trace {
  name?: string;
  description?: string;
  config: TraceConfig;
  steps: TraceStep[];
}

export class TraceError extends Error {
  constructor(readonly path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = 'TraceError';
  }
}

type Obj = Record<string, unknown>;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`;
  if (typeof v === 'object') return 'an object';
  return String(v);
}

function obj(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new TraceError(path, `expected an object, got ${describe(v)}`);
  return v as Obj;
}

function arr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) throw new TraceError(path, `expected an array, got ${describe(v)}`);
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new TraceError(path, `expected a string, got ${describe(v)}`);
  return v;
}

function num(v: unknown, path: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new TraceError(path, `expected a finite number, got ${describe(v)}`);
  return v;
}

function nonNegInt(v: unknown, path: string): number {
  const n = num(v, path);
  if (!Number.isInteger(n) || n < 0) throw new TraceError(path, `expected a non-negative integer, got ${n}`);
  return n;
}

function positive(v: unknown, path: string): number {
  const n = num(v, path);
  if (n <= 0) throw new TraceError(path, `expected a positive number, got ${n}`);
  return n;
}

function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new TraceError(path, `expected true or false, got ${describe(v)}`);
  return v;
}

function optional<T>(o: Obj, key: string, path: string, parse: (v: unknown, p: string) => T, fallback: T): T {
  return o[key] === undefined ? fallback : parse(o[key], `${path}.${key}`);
}

const STATES: readonly ContainerState[] = ['running', 'exited', 'unknown', 'created'];

function container(v: unknown, path: string): RuntimeContainer {
  const o = obj(v, path);
  const state = str(o.state, `${path}.state`);
  if (!(STATES as readonly string[]).includes(state)) {
    throw new TraceError(`${path}.state`, `expected one of ${STATES.join(', ')}, got "${state}"`);
  }
  return { id: str(o.id, `${path}.id`), state: state as ContainerState };
}

function pod(v: unknown, path: string): RuntimePod {
  const o = obj(v, path);
  const p: RuntimePod = {
    uid: str(o.uid, `${path}.uid`),
    name: optional(o, 'name', path, str, ''),
    namespace: optional(o, 'namespace', path, str, ''),
    sandboxes: optional(o, 'sandboxes', path, arr, []).map((c, i) => container(c, `${path}.sandboxes[${i}]`)),
    containers: optional(o, 'containers', path, arr, []).map((c, i) => container(c, `${path}.containers[${i}]`)),
  };
  if (o.ips !== undefined) p.ips = arr(o.ips, `${path}.ips`).map((ip, i) => str(ip, `${path}.ips[${i}]`));
  if (o.statusTimestampMs !== undefined) p.statusTimestampMs = num(o.statusTimestampMs, `${path}.statusTimestampMs`);
  return p;
}

function consume(v: unknown, path: string): ConsumeSpec {
  if (v === 'all' || v === 'none') return v;
  if (typeof v === 'number') return nonNegInt(v, path);
  throw new TraceError(path, `expected "all", "none" or a count, got ${describe(v)}`);
}

function criEvent(v: unknown, path: string): CriContainerEvent {
  const o = obj(v, path);
  const type = str(o.type, `${path}.type`);
  if (!(CRI_CONTAINER_EVENT_TYPES as readonly string[]).includes(type)) {
    throw new TraceError(`${path}.type`, `expected one of ${CRI_CONTAINER_EVENT_TYPES.join(', ')}, got "${type}"`);
  }
  let createdAt: number | bigint;
  if (typeof o.createdAt === 'string' && /^-?\d+$/u.test(o.createdAt)) createdAt = BigInt(o.createdAt);
  else createdAt = Math.trunc(num(o.createdAt, `${path}.createdAt`));
  return {
    type: type as CriContainerEventType,
    containerId: str(o.containerId, `${path}.containerId`),
    createdAt,
    pod: o.pod === null || o.pod === undefined ? null : pod(o.pod, `${path}.pod`),
  };
}

function statusErrors(v: unknown, path: string): Record<string, string> {
  const errs = obj(v, path);
  const out: Record<string, string> = {};
  for (const [uid, msg] of Object.entries(errs)) out[uid] = str(msg, `${path}.${uid}`);
  return out;
}

function pods(v: unknown, path: string): RuntimePod[] {
  return arr(v, path).map((p, i) => pod(p, `${path}[${i}]`));
}

function hang(v: unknown, path: string): RelistHang {
  const o = obj(v, path);
  return {
    ms: nonNegInt(o.ms, `${path}.ms`),
    healthy: optional(o, 'healthy', path, bool, false),
    globalRelist: optional(o, 'globalRelist', path, bool, false),
  };
}

function requestedUids(o: Obj, path: string): string[] {
  if (o.podUID !== undefined && o.podUIDs !== undefined) throw new TraceError(`${path}.podUIDs`, 'give podUID or podUIDs, not both');
  if (o.podUID !== undefined) return [str(o.podUID, `${path}.podUID`)];
  if (o.podUIDs === undefined) throw new TraceError(`${path}.podUID`, 'missing (expected podUID or podUIDs)');
  return arr(o.podUIDs, `${path}.podUIDs`).map((u, i) => str(u, `${path}.podUIDs[${i}]`));
}

function step(v: unknown, path: string): TraceStep {
  const o = obj(v, path);
  const op = str(o.op, `${path}.op`);
  const at = num(o.at, `${path}.at`);
  switch (op) {
    case 'relist': {
      const s: TraceStep = { op, at, consume: optional(o, 'consume', path, consume, 'all') };
      if (o.pods !== undefined) s.pods = pods(o.pods, `${path}.pods`);
      if (o.getPodsError !== undefined) s.getPodsError = str(o.getPodsError, `${path}.getPodsError`);
      if (o.podStatusErrors !== undefined) s.podStatusErrors = statusErrors(o.podStatusErrors, `${path}.podStatusErrors`);
      return s;
    }
    case 'setRuntime':
      if (o.pods === undefined) throw new TraceError(`${path}.pods`, 'missing');
      return { op, at, pods: pods(o.pods, `${path}.pods`) };
    case 'requestRelist':
      return {
        op,
        at,
        podUIDs: requestedUids(o, path),
        count: optional(o, 'count', path, nonNegInt, 1),
        consume: optional(o, 'consume', path, consume, 'all'),
      };
    case 'processRelistQueue': {
      const s: TraceStep = { op, at, consume: optional(o, 'consume', path, consume, 'all') };
      if (o.max !== undefined) s.max = nonNegInt(o.max, `${path}.max`);
      if (o.pods !== undefined) s.pods = pods(o.pods, `${path}.pods`);
      if (o.podStatusErrors !== undefined) s.podStatusErrors = statusErrors(o.podStatusErrors, `${path}.podStatusErrors`);
      if (o.getPodError !== undefined) s.getPodError = str(o.getPodError, `${path}.getPodError`);
      if (o.hang !== undefined) s.hang = hang(o.hang, `${path}.hang`);
      return s;
    }
    case 'healthy':
    case 'eventedHealthy':
      return { op, at };
    case 'consume':
      if (o.consume === undefined) throw new TraceError(`${path}.consume`, 'missing');
      return { op, at, consume: consume(o.consume, `${path}.consume`) };
    case 'updateRelistDuration':
      return {
        op,
        at,
        relistPeriodMs: positive(o.relistPeriodMs, `${path}.relistPeriodMs`),
        relistThresholdMs: positive(o.relistThresholdMs, `${path}.relistThresholdMs`),
      };
    case 'criEvent':
      return { op, at, event: criEvent(o.event, `${path}.event`) };
    default:
      throw new TraceError(
        `${path}.op`,
        `unknown op "${op}" (expected relist, healthy, consume, updateRelistDuration, criEvent, eventedHealthy, setRuntime, requestRelist or processRelistQueue)`,
      );
  }
}

/**
 * JSON.parse for trace files. A CRI event's createdAt is an int64 of nanoseconds (about 1.7e18), beyond the
 * 2^53 a JSON number keeps exactly, and EventedPLEG compares it to the nanosecond: those literals are read as
 * digit strings (which `parseTrace` accepts) before JSON.parse can round them.
 */
export function parseTraceJson(text: string): unknown {
  return JSON.parse(text.replace(/("createdAt"\s*:\s*)(-?\d{16,})(?=\s*[,}\]])/gu, '$1"$2"'));
}

/** Accepts a bare trace or a `{trace, result}` oracle file. */
export function parseTrace(input: unknown): Trace {
  const root = obj(input, 'input');
  const isWrapped = root.trace !== undefined;
  const t = obj(isWrapped ? root.trace : root, isWrapped ? 'trace' : 'input');
  const base = 'trace';
  if (t.steps === undefined) throw new TraceError(`${base}.steps`, 'missing (expected a trace or a {trace, result} file)');
  const c = optional(t, 'config', base, obj, {});
  const cp = `${base}.config`;
  const config: TraceConfig = {
    channelCapacity: optional(c, 'channelCapacity', cp, nonNegInt, 1000),
    useCache: optional(c, 'useCache', cp, bool, true),
    relistPeriodMs: optional(c, 'relistPeriodMs', cp, positive, 1000),
    relistThresholdMs: optional(c, 'relistThresholdMs', cp, positive, 180_000),
    eventedPLEGFeatureGate: optional(c, 'eventedPLEGFeatureGate', cp, bool, false),
    eventedPLEGInUse: optional(c, 'eventedPLEGInUse', cp, bool, false),
    evented: optional(c, 'evented', cp, bool, false),
    onDemandRelist: optional(c, 'onDemandRelist', cp, bool, false),
  };
  const steps = arr(t.steps, `${base}.steps`).map((s, i) => step(s, `${base}.steps[${i}]`));
  const trace: Trace = { config, steps };
  if (typeof t.name === 'string') trace.name = t.name;
  if (typeof t.description === 'string') trace.description = t.description;
  return trace;
}
