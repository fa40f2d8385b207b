// The shapes of the debug pod's pod requests (podsApi.ts implements them), in a module that imports
// nothing, so gateway.ts can name PodsApi without an import cycle through the client.

export interface ContainerStateSummary {
  name: string;
  waiting?: { reason?: string; message?: string };
  terminated?: { exitCode?: number; reason?: string; message?: string };
}

/** The parts of a Pod the debug pod's client reads. */
export interface PodSummary {
  name: string;
  namespace: string;
  uid?: string;
  node?: string;
  phase?: string;
  reason?: string;
  message?: string;
  created?: string;
  deleting: boolean;
  activeDeadlineSeconds?: number;
  containers: ContainerStateSummary[];
}

export interface PodsApi {
  createPod(namespace: string, manifest: object, signal?: AbortSignal): Promise<PodSummary>;
  /** undefined when the pod does not exist (404). */
  getPod(namespace: string, name: string, signal?: AbortSignal): Promise<PodSummary | undefined>;
  /** `get pods/log` of one container; at most `maxBytes` (a longer log fails naming the cap). */
  readPodLog(namespace: string, name: string, container: string, options: { maxBytes: number; signal?: AbortSignal }): Promise<string>;
  /** DELETE with gracePeriodSeconds; resolves false when the pod was already gone (404). */
  deletePod(namespace: string, name: string, gracePeriodSeconds: number, signal?: AbortSignal): Promise<boolean>;
  listPods(namespace: string, labelSelector: string, signal?: AbortSignal): Promise<PodSummary[]>;
  /** The events about one pod (involvedObject), oldest first as the API lists them. */
  podEvents(namespace: string, name: string, signal?: AbortSignal): Promise<PodEvent[]>;
  /** The images of a DaemonSet's pod template, by container name; undefined when there is no such DaemonSet. */
  daemonSetImages(namespace: string, name: string, signal?: AbortSignal): Promise<{ container: string; image: string }[] | undefined>;
}

/** One core/v1 Event about a pod: what the kubelet says when it cannot start it (FailedMount, …). */
export interface PodEvent {
  type?: string;
  reason?: string;
  message?: string;
}
