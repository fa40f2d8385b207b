// The shapes of what node access collects: a CRI snapshot and the node probes. They live in core because
// the diagnostics rules (src/core/diagnose) and the PLEG model read them; src/infra produces them.

import type {
  CriContainer,
  CriContainerStatus,
  CriPodSandbox,
  CriPodSandboxStatus,
  CriRuntimeCondition,
} from '../parse/criTypes';
import type { DockerInfo, LoadAverage, LoadVerdict, ProcessStateRow } from '../parse/probes';

export interface CriCallTiming {
  method: string;
  /** The sandbox or container the call was about. */
  id?: string;
  ms: number;
  ok: boolean;
  error?: { code: number; codeName: string; message: string };
}

export interface SnapshotError {
  method: string;
  id?: string;
  code: number;
  codeName: string;
  message: string;
  ms: number;
}

export type SnapshotFinding =
  | { kind: 'runtimeUnresponsive'; message: string; methods: string[] }
  | { kind: 'runtimeUnreachable'; message: string; methods: string[] }
  | { kind: 'hungShim'; sandboxId: string; podName: string; podNamespace: string; message: string }
  | { kind: 'slowCalls'; message: string; methods: string[] };

export interface CriSnapshot {
  /** ISO time the snapshot started. */
  time: string;
  source: string;
  runtime?: { name: string; version: string; apiVersion: string };
  status?: { conditions: CriRuntimeCondition[] };
  sandboxes: CriPodSandbox[];
  containers: CriContainer[];
  sandboxStatuses: CriPodSandboxStatus[];
  containerStatuses: CriContainerStatus[];
  stats?: { id: string; name: string; cpuUsageCoreNanoSeconds?: string; memoryWorkingSetBytes?: string }[];
  timings: CriCallTiming[];
  errors: SnapshotError[];
  findings: SnapshotFinding[];
  durationMs: number;
  /** The snapshot's total time budget and, when it ran out, the calls that were never answered. */
  budget?: SnapshotBudget;
}

export interface SnapshotBudget {
  ms: number;
  exhausted: boolean;
  /** Calls cut by the budget (in flight) or never started, by method, with the ids they were about. */
  notRead: { method: string; ids: string[] }[];
}

export type ProbeOutcome<T> =
  | { status: 'ok'; value: T; durationMs: number }
  | { status: 'absent'; durationMs: number }
  | { status: 'timeout'; durationMs: number }
  | { status: 'failed'; error: string; durationMs: number };

export interface NodeProbeReport {
  host: string;
  runtimeProcesses: ProbeOutcome<ProcessStateRow[]>;
  load: ProbeOutcome<{ loadavg: LoadAverage; cpus: number; verdict: LoadVerdict }>;
  dStateProcesses: ProbeOutcome<ProcessStateRow[]>;
  systemd: ProbeOutcome<{ version: number; full: string }>;
  uptimeSeconds: ProbeOutcome<number>;
  kernel: ProbeOutcome<string>;
  kubeletVersion: ProbeOutcome<string>;
  containerdVersion: ProbeOutcome<{ version: string; revision?: string }>;
  /**
   * On a node running dockerd: the daemon the kubelet uses (its --docker-endpoint, else docker's default)
   * and the two calls the seeds time by hand against it. Absent where no dockerd runs (or in bundles
   * written before these probes).
   */
  docker?: DockerProbes;
}

export interface DockerProbes {
  endpoint: string;
  /** `docker ps`: how many containers run; a timeout is dockerd not answering. */
  ps: ProbeOutcome<{ containers: number }>;
  /** `docker info`: the server version, storage and cgroup drivers. */
  info: ProbeOutcome<DockerInfo>;
}
