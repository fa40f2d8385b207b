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
import type { CriContainerEvent } from '../../core/pleg/evented';

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

export interface ContainerEventsOptions {
  /** Bound on opening the stream (connection and response headers); the open stream has no deadline. */
  openDeadlineMs: number;
  signal: AbortSignal;
  onEvent(event: CriContainerEvent): void;
  /** The runtime accepted the stream. */
  onOpen?(): void;
}

/** An open GetContainerEvents stream. */
export interface ContainerEventsStream {
  /** Resolves when the runtime ends the stream cleanly (EOF); rejects with CriError when it fails. */
  readonly done: Promise<void>;
  /** Back-pressure: stop/restart taking events (the runtime is held back by HTTP/2 flow control). */
  pause(): void;
  resume(): void;
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
  /** RuntimeService/GetContainerEvents; absent where the transport cannot stream (crictl). */
  containerEvents?(options: ContainerEventsOptions): ContainerEventsStream;
  /** Every call's latency and outcome, as it completes. */
  onCall(listener: (timing: CriCallTiming) => void): () => void;
  close(): void;
}

export const DEFAULT_CRI_DEADLINE_MS = 5_000;
