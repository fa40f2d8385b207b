// The container runtime's view of a node, normalized: the same shapes whether they came from CRI gRPC
// (src/infra/cri) or from `crictl -o json` (src/core/parse/criJson.ts). Field names follow the CRI
// runtime.v1 API in camelCase, like crictl's JSON. Nanosecond timestamps stay decimal strings: they
// exceed 2^53, and the PLEG model compares them exactly.

export type CriSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
export type CriContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';
export type CriNamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

export interface CriPodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface CriContainerMetadata {
  name: string;
  attempt: number;
}

export interface CriPodSandbox {
  id: string;
  metadata: CriPodSandboxMetadata;
  state: CriSandboxState;
  /** Nanoseconds since the epoch, decimal. */
  createdAtNs: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runtimeHandler: string;
}

export interface CriContainer {
  id: string;
  podSandboxId: string;
  metadata: CriContainerMetadata;
  image: string;
  imageRef: string;
  state: CriContainerState;
  createdAtNs: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface CriPodSandboxStatus {
  id: string;
  metadata: CriPodSandboxMetadata;
  state: CriSandboxState;
  createdAtNs: string;
  ip: string;
  additionalIps: string[];
  namespaceOptions?: { network: CriNamespaceMode; pid: CriNamespaceMode; ipc: CriNamespaceMode };
  labels: Record<string, string>;
  annotations: Record<string, string>;
  runtimeHandler: string;
  /** Verbose-only runtime details (containerd: pid, processStatus, netNamespaceClosed, …), JSON-decoded. */
  info: Record<string, unknown>;
}

export interface CriContainerStatus {
  id: string;
  metadata: CriContainerMetadata;
  state: CriContainerState;
  createdAtNs: string;
  /** "0" when not started / not finished. */
  startedAtNs: string;
  finishedAtNs: string;
  exitCode: number;
  image: string;
  imageRef: string;
  reason: string;
  message: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  logPath: string;
  info: Record<string, unknown>;
}

export interface CriVersion {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface CriRuntimeCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}

export interface CriRuntimeStatus {
  conditions: CriRuntimeCondition[];
  info: Record<string, unknown>;
}

export interface CriContainerStats {
  id: string;
  name: string;
  timestampNs: string;
  cpuUsageCoreNanoSeconds?: string;
  memoryWorkingSetBytes?: string;
}

/** Decodes the values of a CRI `info` map, which runtimes fill with JSON documents; non-JSON stays a string. */
export function decodeInfoMap(raw: Record<string, string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    try {
      out[key] = JSON.parse(value);
    } catch {
      out[key] = value;
    }
  }
  return out;
}

/** Nanoseconds (decimal string) to epoch milliseconds; precision below 1 ms is dropped on purpose. */
export function nsToMs(ns: string): number {
  if (!/^\d+$/.test(ns)) throw new Error(`not a nanosecond timestamp: ${JSON.stringify(ns)}`);
  return Number(BigInt(ns) / 1_000_000n);
}
