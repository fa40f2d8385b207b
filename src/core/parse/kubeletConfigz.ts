// The kubelet's /configz: `{"kubeletconfig":{…}}` (kubelets before 1.8 wrapped it in "componentconfig").
// It is the running, defaulted configuration, so a field missing here was missing in the kubelet too;
// only runtimeRequestTimeout gets its documented default, because the PLEG arithmetic needs it.

import type { KubeletConfigz } from './kubeletEndpointTypes';
import { parseGoDurationNs } from '../util/goDuration';

export class KubeletConfigzError extends Error {
  override readonly name = 'KubeletConfigzError';
}

/** The kubelet's default runtimeRequestTimeout (2m). */
export const DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS = 120_000;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}` : `a ${typeof v}`;
}

export function parseKubeletConfigz(text: string): KubeletConfigz {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (err) {
    const head = text.trimStart().slice(0, 60);
    throw new KubeletConfigzError(`configz: not JSON (${(err as Error).message}); body starts ${JSON.stringify(head)}`);
  }
  if (!isObject(root)) throw new KubeletConfigzError(`configz: expected an object, got ${describe(root)}`);
  const wrapper = Object.hasOwn(root, 'kubeletconfig') ? 'kubeletconfig' : Object.hasOwn(root, 'componentconfig') ? 'componentconfig' : undefined;
  if (wrapper === undefined) {
    const keys = Object.keys(root).slice(0, 5).join(', ');
    throw new KubeletConfigzError(`configz: no "kubeletconfig" object (top-level keys: ${keys === '' ? 'none' : keys})`);
  }
  const config = root[wrapper];
  if (!isObject(config)) throw new KubeletConfigzError(`configz: ${wrapper} is ${describe(config)}, expected an object`);
  return readKubeletConfiguration(config, `configz: ${wrapper}`);
}

/**
 * The fields PLEG Doctor reads from a KubeletConfiguration object (kubelet.config.k8s.io/v1beta1, the JSON
 * names of pkg/kubelet/apis/config/v1beta1 types.go): as /configz serves it, or as the kubelet's config file
 * holds it (core/agent/kubeletConfigFile.ts). `where` prefixes every complaint.
 */
export function readKubeletConfiguration(config: Record<string, unknown>, where0: string): KubeletConfigz {
  const field = (name: string): unknown => (Object.hasOwn(config, name) ? config[name] : undefined);
  const where = (name: string): string => `${where0}.${name}`;

  const str = (name: string): string | undefined => {
    const v = field(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw new KubeletConfigzError(`${where(name)} is ${describe(v)}, expected a string`);
    return v;
  };
  const bool = (name: string): boolean | undefined => {
    const v = field(name);
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') throw new KubeletConfigzError(`${where(name)} is ${describe(v)}, expected true or false`);
    return v;
  };
  const durationMs = (name: string): number | undefined => {
    const v = str(name);
    if (v === undefined) return undefined;
    let ns: bigint;
    try {
      ns = parseGoDurationNs(v);
    } catch (err) {
      throw new KubeletConfigzError(`${where(name)}: ${(err as Error).message}`);
    }
    return Number(ns / 1_000_000n) + Number(ns % 1_000_000n) / 1e6;
  };

  const timeoutMs = durationMs('runtimeRequestTimeout');
  const result: KubeletConfigz = {
    runtimeRequestTimeoutMs: timeoutMs ?? DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
    runtimeRequestTimeoutDefaulted: timeoutMs === undefined,
    featureGates: featureGates(field('featureGates'), where('featureGates')),
  };
  const endpoint = str('containerRuntimeEndpoint');
  if (endpoint !== undefined) result.containerRuntimeEndpoint = endpoint;
  const statusEvery = durationMs('nodeStatusUpdateFrequency');
  if (statusEvery !== undefined && statusEvery > 0) result.nodeStatusUpdateFrequencyMs = statusEvery;
  const maxPods = field('maxPods');
  if (maxPods !== undefined) {
    if (typeof maxPods !== 'number' || !Number.isInteger(maxPods)) throw new KubeletConfigzError(`${where('maxPods')} is ${describe(maxPods)}, expected an integer`);
    result.maxPods = maxPods;
  }
  const syncMs = durationMs('syncFrequency');
  if (syncMs !== undefined) result.syncFrequencyMs = syncMs;
  const cgroupDriver = str('cgroupDriver');
  if (cgroupDriver !== undefined) result.cgroupDriver = cgroupDriver;
  const debugging = bool('enableDebuggingHandlers');
  if (debugging !== undefined) result.enableDebuggingHandlers = debugging;
  const profiling = bool('enableProfilingHandler');
  if (profiling !== undefined) result.enableProfilingHandler = profiling;
  const logQuery = bool('enableSystemLogQuery');
  if (logQuery !== undefined) result.enableSystemLogQuery = logQuery;
  return result;
}

function featureGates(v: unknown, where: string): Record<string, boolean> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw new KubeletConfigzError(`${where} is ${describe(v)}, expected an object of gate names`);
  const entries = Object.entries(v).map(([gate, on]): [string, boolean] => {
    if (typeof on !== 'boolean') throw new KubeletConfigzError(`${where}.${gate} is ${describe(on)}, expected true or false`);
    return [gate, on];
  });
  // fromEntries defines own properties, so a gate named "__proto__" cannot reach the prototype.
  return Object.fromEntries(entries);
}
