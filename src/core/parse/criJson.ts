// Parses CRI objects in their JSON form into the normalized types of criTypes.ts. Two producers share
// this shape: `crictl … -o json` (the exec fallback) and protobufjs's toObject of a gRPC reply (camelCase,
// int64 as decimal strings, enums as names). Differences handled here: crictl's inspect/inspectp print
// timestamps as RFC 3339 with nanoseconds and the verbose `info` as decoded JSON, while gRPC gives
// nanosecond integers and an info map of JSON strings. Every malformed input names the field at fault.

import type {
  CriContainer,
  CriContainerMetadata,
  CriContainerState,
  CriContainerStats,
  CriContainerStatus,
  CriNamespaceMode,
  CriPodSandbox,
  CriPodSandboxMetadata,
  CriPodSandboxStatus,
  CriRuntimeCondition,
  CriRuntimeStatus,
  CriSandboxState,
  CriVersion,
} from './criTypes';
import { decodeInfoMap } from './criTypes';

export class CriJsonError extends Error {
  override readonly name = 'CriJsonError';
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: unknown, where: string): Json {
  if (!isObject(value)) throw new CriJsonError(`${where}: expected an object, got ${describe(value)}`);
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

function str(o: Json, key: string, where: string, fallback?: string): string {
  const value = o[key];
  if (typeof value === 'string') return value;
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  throw new CriJsonError(`${where}.${key}: expected a string, got ${describe(value)}`);
}

function int(o: Json, key: string, where: string, fallback?: number): number {
  const value = o[key];
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  throw new CriJsonError(`${where}.${key}: expected an integer, got ${describe(value)}`);
}

function stringMap(o: Json, key: string, where: string): Record<string, string> {
  const value = o[key];
  if (value === undefined || value === null) return {};
  const m = obj(value, `${where}.${key}`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m)) {
    if (typeof v !== 'string') throw new CriJsonError(`${where}.${key}[${JSON.stringify(k)}]: expected a string, got ${describe(v)}`);
    out[k] = v;
  }
  return out;
}

const SANDBOX_STATES: readonly CriSandboxState[] = ['SANDBOX_READY', 'SANDBOX_NOTREADY'];
const CONTAINER_STATES: readonly CriContainerState[] = ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'];
const NAMESPACE_MODES: readonly CriNamespaceMode[] = ['POD', 'CONTAINER', 'NODE', 'TARGET'];

/** Enums arrive as names (crictl, toObject) or, from older tools and verbose info, as numbers. */
function enumValue<T extends string>(o: Json, key: string, values: readonly T[], where: string): T {
  const value = o[key] ?? values[0];
  if (typeof value === 'number' && values[value] !== undefined) return values[value];
  if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
  throw new CriJsonError(`${where}.${key}: unknown value ${describe(value)} (expected one of ${values.join(', ')})`);
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A CRI timestamp as nanoseconds since the epoch (decimal string). Accepts an int64 (number or string)
 * or crictl's RFC 3339 rendering; times before the epoch (Go's zero time) mean "unset" and become "0".
 */
export function timestampToNs(value: unknown, where: string): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'number' && Number.isInteger(value)) return value <= 0 ? '0' : BigInt(value).toString();
  if (typeof value !== 'string') throw new CriJsonError(`${where}: expected a timestamp, got ${describe(value)}`);
  if (/^-?\d+$/.test(value)) return value.startsWith('-') ? '0' : BigInt(value).toString();
  const match = RFC3339.exec(value);
  if (!match) throw new CriJsonError(`${where}: not a timestamp: ${JSON.stringify(value)}`);
  const seconds = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(seconds)) throw new CriJsonError(`${where}: invalid date ${JSON.stringify(value)}`);
  if (seconds < 0) return '0';
  const fraction = (match[2] ?? '').padEnd(9, '0');
  return (BigInt(seconds / 1000) * 1_000_000_000n + BigInt(fraction)).toString();
}

function sandboxMetadata(value: unknown, where: string): CriPodSandboxMetadata {
  const m = obj(value ?? {}, where);
  return {
    name: str(m, 'name', where, ''),
    uid: str(m, 'uid', where, ''),
    namespace: str(m, 'namespace', where, ''),
    attempt: int(m, 'attempt', where, 0),
  };
}

function containerMetadata(value: unknown, where: string): CriContainerMetadata {
  const m = obj(value ?? {}, where);
  return { name: str(m, 'name', where, ''), attempt: int(m, 'attempt', where, 0) };
}

function imageName(value: unknown, where: string): string {
  if (value === undefined || value === null) return '';
  return str(obj(value, where), 'image', where, '');
}

/**
 * Verbose `info`: gRPC sends a map of JSON strings; containerd puts everything under one key "info", and
 * crictl prints that key's decoded document directly. Both end up as crictl shows them.
 */
function infoOf(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  const m = obj(value, where);
  const allStrings = Object.values(m).every((v) => typeof v === 'string');
  const decoded = allStrings ? decodeInfoMap(m as Record<string, string>) : { ...m };
  const keys = Object.keys(decoded);
  const only = decoded['info'];
  return keys.length === 1 && isObject(only) ? { ...only } : decoded;
}

export function parsePodSandbox(value: unknown, where = 'pod'): CriPodSandbox {
  const o = obj(value, where);
  return {
    id: str(o, 'id', where),
    metadata: sandboxMetadata(o['metadata'], `${where}.metadata`),
    state: enumValue(o, 'state', SANDBOX_STATES, where),
    createdAtNs: timestampToNs(o['createdAt'], `${where}.createdAt`),
    labels: stringMap(o, 'labels', where),
    annotations: stringMap(o, 'annotations', where),
    runtimeHandler: str(o, 'runtimeHandler', where, ''),
  };
}

export function parseContainer(value: unknown, where = 'container'): CriContainer {
  const o = obj(value, where);
  return {
    id: str(o, 'id', where),
    podSandboxId: str(o, 'podSandboxId', where),
    metadata: containerMetadata(o['metadata'], `${where}.metadata`),
    image: imageName(o['image'], `${where}.image`),
    imageRef: str(o, 'imageRef', where, ''),
    state: enumValue(o, 'state', CONTAINER_STATES, where),
    createdAtNs: timestampToNs(o['createdAt'], `${where}.createdAt`),
    labels: stringMap(o, 'labels', where),
    annotations: stringMap(o, 'annotations', where),
  };
}

/** `{status, info}` as in PodSandboxStatusResponse and `crictl inspectp -o json`. */
export function parsePodSandboxStatus(value: unknown, where = 'inspectp'): CriPodSandboxStatus {
  const response = obj(value, where);
  const s = obj(response['status'], `${where}.status`);
  const w = `${where}.status`;
  const network = isObject(s['network']) ? s['network'] : {};
  const additional = Array.isArray(network['additionalIps']) ? network['additionalIps'] : [];
  const linux = isObject(s['linux']) ? s['linux'] : {};
  const namespaces = isObject(linux['namespaces']) ? linux['namespaces'] : {};
  const options = isObject(namespaces['options']) ? namespaces['options'] : undefined;
  return {
    id: str(s, 'id', w),
    metadata: sandboxMetadata(s['metadata'], `${w}.metadata`),
    state: enumValue(s, 'state', SANDBOX_STATES, w),
    createdAtNs: timestampToNs(s['createdAt'], `${w}.createdAt`),
    ip: str(network, 'ip', `${w}.network`, ''),
    additionalIps: additional.map((ip, i) => str(obj(ip, `${w}.network.additionalIps[${i}]`), 'ip', `${w}.network.additionalIps[${i}]`)),
    ...(options
      ? {
          namespaceOptions: {
            network: enumValue(options, 'network', NAMESPACE_MODES, `${w}.linux.namespaces.options`),
            pid: enumValue(options, 'pid', NAMESPACE_MODES, `${w}.linux.namespaces.options`),
            ipc: enumValue(options, 'ipc', NAMESPACE_MODES, `${w}.linux.namespaces.options`),
          },
        }
      : {}),
    labels: stringMap(s, 'labels', w),
    annotations: stringMap(s, 'annotations', w),
    runtimeHandler: str(s, 'runtimeHandler', w, ''),
    info: infoOf(response['info'], `${where}.info`),
  };
}

/** `{status, info}` as in ContainerStatusResponse and `crictl inspect -o json`. */
export function parseContainerStatus(value: unknown, where = 'inspect'): CriContainerStatus {
  const response = obj(value, where);
  const s = obj(response['status'], `${where}.status`);
  const w = `${where}.status`;
  return {
    id: str(s, 'id', w),
    metadata: containerMetadata(s['metadata'], `${w}.metadata`),
    state: enumValue(s, 'state', CONTAINER_STATES, w),
    createdAtNs: timestampToNs(s['createdAt'], `${w}.createdAt`),
    startedAtNs: timestampToNs(s['startedAt'], `${w}.startedAt`),
    finishedAtNs: timestampToNs(s['finishedAt'], `${w}.finishedAt`),
    exitCode: int(s, 'exitCode', w, 0),
    image: imageName(s['image'], `${w}.image`),
    imageRef: str(s, 'imageRef', w, ''),
    reason: str(s, 'reason', w, ''),
    message: str(s, 'message', w, ''),
    labels: stringMap(s, 'labels', w),
    annotations: stringMap(s, 'annotations', w),
    logPath: str(s, 'logPath', w, ''),
    info: infoOf(response['info'], `${where}.info`),
  };
}

/** `crictl pods -o json` / ListPodSandboxResponse. */
export function parsePodsList(value: unknown): CriPodSandbox[] {
  const o = obj(value, 'pods');
  const items = o['items'] ?? [];
  if (!Array.isArray(items)) throw new CriJsonError(`pods.items: expected an array, got ${describe(items)}`);
  return items.map((item, i) => parsePodSandbox(item, `pods.items[${i}]`));
}

/** `crictl ps -a -o json` / ListContainersResponse. */
export function parseContainersList(value: unknown): CriContainer[] {
  const o = obj(value, 'ps');
  const items = o['containers'] ?? [];
  if (!Array.isArray(items)) throw new CriJsonError(`ps.containers: expected an array, got ${describe(items)}`);
  return items.map((item, i) => parseContainer(item, `ps.containers[${i}]`));
}

function uint64Value(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const v = value['value'];
  if (typeof v === 'string' && /^\d+$/.test(v)) return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return undefined;
}

/** `crictl stats -o json` / ListContainerStatsResponse. */
export function parseStatsList(value: unknown): CriContainerStats[] {
  const o = obj(value, 'stats');
  const items = o['stats'] ?? [];
  if (!Array.isArray(items)) throw new CriJsonError(`stats.stats: expected an array, got ${describe(items)}`);
  return items.map((item, i) => {
    const where = `stats.stats[${i}]`;
    const s = obj(item, where);
    const attributes = obj(s['attributes'], `${where}.attributes`);
    const cpu = isObject(s['cpu']) ? s['cpu'] : {};
    const memory = isObject(s['memory']) ? s['memory'] : {};
    const cpuUsage = uint64Value(cpu['usageCoreNanoSeconds']);
    const workingSet = uint64Value(memory['workingSetBytes']);
    return {
      id: str(attributes, 'id', `${where}.attributes`),
      name: containerMetadata(attributes['metadata'], `${where}.attributes.metadata`).name,
      timestampNs: timestampToNs(cpu['timestamp'] ?? memory['timestamp'], `${where}.cpu.timestamp`),
      ...(cpuUsage !== undefined ? { cpuUsageCoreNanoSeconds: cpuUsage } : {}),
      ...(workingSet !== undefined ? { memoryWorkingSetBytes: workingSet } : {}),
    };
  });
}

/** `crictl info -o json` (its `status` part) / StatusResponse. Extra top-level keys of crictl go to info. */
export function parseRuntimeStatus(value: unknown): CriRuntimeStatus {
  const o = obj(value, 'info');
  const status = obj(o['status'] ?? {}, 'info.status');
  const conditions = status['conditions'] ?? [];
  if (!Array.isArray(conditions)) throw new CriJsonError(`info.status.conditions: expected an array, got ${describe(conditions)}`);
  const parsed: CriRuntimeCondition[] = conditions.map((c, i) => {
    const where = `info.status.conditions[${i}]`;
    const co = obj(c, where);
    const statusValue = co['status'];
    if (statusValue !== undefined && typeof statusValue !== 'boolean') throw new CriJsonError(`${where}.status: expected a boolean, got ${describe(statusValue)}`);
    return { type: str(co, 'type', where), status: statusValue === true, reason: str(co, 'reason', where, ''), message: str(co, 'message', where, '') };
  });
  const info: Record<string, unknown> = isObject(o['info']) ? infoOf(o['info'], 'info.info') : {};
  for (const [key, v] of Object.entries(o)) if (key !== 'status' && key !== 'info') info[key] = v;
  return { conditions: parsed, info };
}

/** `crictl version` (text: "Key:  value" lines) into the VersionResponse fields. */
export function parseCrictlVersion(text: string): CriVersion {
  const fields = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\s*(\w+):\s*(.*?)\s*$/.exec(line);
    if (match?.[1] !== undefined) fields.set(match[1], match[2] ?? '');
  }
  const runtimeName = fields.get('RuntimeName');
  if (runtimeName === undefined) throw new CriJsonError(`crictl version: no "RuntimeName:" line in ${JSON.stringify(text.slice(0, 200))}`);
  return {
    version: fields.get('Version') ?? '',
    runtimeName,
    runtimeVersion: fields.get('RuntimeVersion') ?? '',
    runtimeApiVersion: fields.get('RuntimeApiVersion') ?? '',
  };
}

/** VersionResponse as toObject gives it. */
export function parseVersion(value: unknown): CriVersion {
  const o = obj(value, 'version');
  return {
    version: str(o, 'version', 'version', ''),
    runtimeName: str(o, 'runtimeName', 'version', ''),
    runtimeVersion: str(o, 'runtimeVersion', 'version', ''),
    runtimeApiVersion: str(o, 'runtimeApiVersion', 'version', ''),
  };
}

/** Parses text that must be one JSON document, naming the command on failure (crictl prints errors as text). */
export function parseJsonText(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CriJsonError(`${what}: output is not JSON (${(error as Error).message}): ${JSON.stringify(text.slice(0, 200))}`);
  }
}
