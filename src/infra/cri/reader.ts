// What the rest of the product needs from a container runtime: the read-only CRI calls the kubelet's PLEG
// and status manager make. Implemented over gRPC (criClient.ts) and over `crictl` (transports/crictl.ts).

import type {
  CriContainer,
  CriContainerStats,
  CriContainerStatus,
  CriContainerState,
  CriPodSandbox,
  CriPodSandboxStatus,
  CriRuntimeStatus,
  CriVersion,
} from '../../core/parse/criTypes';
import type { CriCallTiming } from '../../core/node/nodeSnapshotTypes';

export interface CriCallOptions {
  /** Per-call deadline; the reader's default applies when absent. */
  deadlineMs?: number;
  signal?: AbortSignal;
}

export type { CriCallTiming } from '../../core/node/nodeSnapshotTypes';

export interface ContainerListFilter {
  podSandboxId?: string;
  state?: CriContainerState;
}

export interface CriReader {
  /** e.g. "grpc unix:///run/containerd/containerd.sock via plegtest@10.0.0.5:22". */
  readonly description: string;
  version(options?: CriCallOptions): Promise<CriVersion>;
  status(options?: CriCallOptions & { verbose?: boolean }): Promise<CriRuntimeStatus>;
  listPodSandbox(options?: CriCallOptions): Promise<CriPodSandbox[]>;
  listContainers(options?: CriCallOptions & { filter?: ContainerListFilter }): Promise<CriContainer[]>;
  podSandboxStatus(id: string, options?: CriCallOptions & { verbose?: boolean }): Promise<CriPodSandboxStatus>;
  containerStatus(id: string, options?: CriCallOptions & { verbose?: boolean }): Promise<CriContainerStatus>;
  listContainerStats(options?: CriCallOptions): Promise<CriContainerStats[]>;
  /** Every call's latency and outcome, as it completes. */
  onCall(listener: (timing: CriCallTiming) => void): () => void;
  close(): void;
}

export const DEFAULT_CRI_DEADLINE_MS = 5_000;
