// What PLEG Doctor reads from the kubelet's HTTP endpoints through the API server's node proxy
// (/metrics, /configz, /healthz?verbose, /debug/pprof/goroutine?debug=2), once parsed. The parsers live
// beside this file (prometheusText.ts, kubeletMetrics.ts, kubeletConfigz.ts, healthz.ts, goroutineDump.ts);
// the diagnostics rules in src/core/diagnose read only these shapes.

/** A Prometheus histogram, cumulative buckets as exposed (le ascending, the last one +Inf). */
export interface HistogramSummary {
  count: number;
  /** Seconds (or the metric's unit). */
  sum: number;
  buckets: { le: number; count: number }[];
}

/** Per CRI operation type (`operation_type` label: list_podsandbox, list_containers, podsandbox_status, …). */
export interface RuntimeOperationMetrics {
  total?: number;
  errors?: number;
  duration?: HistogramSummary;
}

export interface KubeletMetricsSummary {
  /** From `kubelet_node_name{node="…"}` when present. */
  nodeName?: string;
  /** `kubelet_pleg_last_seen_seconds`: unix seconds of the start of the last successful relist (1.18+). */
  plegLastSeenSeconds?: number;
  /** `kubelet_pleg_relist_duration_seconds` (1.14+), or the legacy microseconds summary converted to seconds. */
  plegRelistDuration?: HistogramSummary;
  /** `kubelet_pleg_relist_interval_seconds`. */
  plegRelistInterval?: HistogramSummary;
  /**
   * `kubelet_pleg_pod_relist_duration_seconds` (1.36+): the on-demand per-pod relists (generic.go relistPod,
   * which holds the global relist's lock while it runs).
   */
  plegPodRelistDuration?: HistogramSummary;
  /**
   * component-base's `kubernetes_feature_enabled{name,stage}` gauge (1 = on), by gate name; absent when the
   * kubelet does not export it.
   */
  featureGates?: Record<string, boolean>;
  /** `kubelet_pleg_discard_events` (a counter without `_total`). */
  plegDiscardEvents?: number;
  /** `kubelet_evented_pleg_connection_{error,success}_count` (1.27+). */
  eventedPleg?: { connectionErrors: number; connectionSuccesses: number };
  /** `kubelet_running_pods` (or the 1.17–1.18 `kubelet_running_pod_count`). */
  runningPods?: number;
  /** `kubelet_running_containers` by `container_state` (running, exited, created, unknown). */
  runningContainers?: Record<string, number>;
  /** `kubelet_runtime_operations_total`, `…_errors_total`, `…_duration_seconds`, by operation_type. */
  runtimeOperations: Record<string, RuntimeOperationMetrics>;
  /** True when only the ≤1.13 names were found (…_latency_microseconds, kubelet_runtime_operations). */
  legacyNames: boolean;
  /** How many samples the text held (a sanity figure for the report). */
  sampleCount: number;
  /** What the body says about when it was served (it carries no timestamp): see core/diagnose/clock. */
  served?: MetricsServedFacts;
}

/** Figures of a /metrics body that bound the moment it was served. */
export interface MetricsServedFacts {
  /** `go_memstats_last_gc_time_seconds`: unix seconds of the last Go GC before the body was gathered. */
  lastGcSeconds?: number;
  /** `process_start_time_seconds`. */
  processStartSeconds?: number;
  /** `go_gc_gogc_percent` (client_golang 1.12+): negative when GOGC=off, which also stops forced GCs. */
  gogcPercent?: number;
  /** Sum of `kubelet_http_requests_total{method="GET",path="metrics"}` over server types: this body answered that request. */
  metricsRequests?: number;
}

/** The parts of `/configz` → `kubeletconfig` that matter for PLEG. */
export interface KubeletConfigz {
  /** `runtimeRequestTimeout` parsed from its Go duration (default 2m when absent). */
  runtimeRequestTimeoutMs: number;
  /** True when the field was absent and the default was assumed. */
  runtimeRequestTimeoutDefaulted: boolean;
  containerRuntimeEndpoint?: string;
  featureGates: Record<string, boolean>;
  /** nodeStatusUpdateFrequency: how often the kubelet evaluates (and may post) its node status. */
  nodeStatusUpdateFrequencyMs?: number;
  maxPods?: number;
  syncFrequencyMs?: number;
  cgroupDriver?: string;
  enableDebuggingHandlers?: boolean;
  enableProfilingHandler?: boolean;
  enableSystemLogQuery?: boolean;
}

/** `/healthz?verbose`: `[+]ping ok`, `[-]syncloop failed: reason withheld`, then a status line. */
export interface HealthzReport {
  /** True when every check passed (the body's last line says "healthz check passed"). */
  healthy: boolean;
  checks: { name: string; ok: boolean; detail?: string }[];
}

/** One goroutine of a `debug=2` dump. */
export interface GoroutineInfo {
  id: number;
  /** e.g. "select", "chan send", "IO wait", "running". */
  state: string;
  /** From "[select, 2 minutes]"; absent when the runtime printed no wait time. */
  waitMinutes?: number;
  /** Function names, innermost first, e.g. "k8s.io/kubernetes/pkg/kubelet/pleg.(*GenericPLEG).Relist". */
  functions: string[];
}

/** What a goroutine dump says about PLEG. */
export interface GoroutineSummary {
  total: number;
  /** The goroutine running the generic relist, if it is in the dump. */
  relist?: {
    id: number;
    state: string;
    waitMinutes?: number;
    /**
     * Where it waits: the CRI method it is blocked in ("ListPodSandbox", "ListContainers",
     * "PodSandboxStatus", "ContainerStatus", …), "chan send" (the pre-1.14 deadlock), or "idle" (sleeping
     * between relists, the healthy case), or "other".
     */
    blockedIn: string;
  };
  /** Goroutines waiting inside a CRI client call, by method. */
  criBlocked: { method: string; count: number; maxWaitMinutes?: number }[];
}
