// The demo cluster's kubelets behind the API stand-in's node proxy: /metrics, /configz, /healthz (and
// ?verbose) and /debug/pprof/goroutine?debug=2 for every demo node, generated from the node's current
// object (src/demo/kubelet/kubeletState.ts) so that a diagnosis of the demo reads the same story as the
// node's Ready condition. A node whose kubelet is unreachable (Ready=Unknown) gets the API server's 503.

import type { KubeNode } from '../core/kube/objects';
import type { NodeProxyAnswer, NodeProxyHandler } from './apiServer/server';
import { goroutineDumpBody } from './kubelet/goroutineBody';
import { kubeletStateOf } from './kubelet/kubeletState';
import type { KubeletState } from './kubelet/kubeletState';
import { kubeletMetricsBody } from './kubelet/metricsBody';

const TEXT = 'text/plain; charset=utf-8';
const PROMETHEUS = 'text/plain; version=0.0.4; charset=utf-8; escaping=underscores';

export function kubeletConfigzBody(state: KubeletState): string {
  const kubeletconfig = {
    enableServer: true,
    staticPodPath: '/etc/kubernetes/manifests',
    podLogsDir: '/var/log/pods',
    syncFrequency: '1m0s',
    fileCheckFrequency: '20s',
    httpCheckFrequency: '20s',
    address: '0.0.0.0',
    port: 10250,
    enableDebuggingHandlers: true,
    enableContentionProfiling: false,
    healthzPort: 10248,
    healthzBindAddress: '127.0.0.1',
    nodeStatusUpdateFrequency: '10s',
    nodeStatusReportFrequency: '5m0s',
    nodeLeaseDurationSeconds: 40,
    cgroupsPerQOS: true,
    cgroupDriver: 'systemd',
    cpuManagerPolicy: 'none',
    runtimeRequestTimeout: `${Math.floor(state.runtimeTimeoutS / 60)}m${state.runtimeTimeoutS % 60}s`,
    maxPods: 110,
    podPidsLimit: -1,
    serializeImagePulls: true,
    featureGates: { RotateKubeletServerCertificate: true },
    enableProfilingHandler: true,
    enableDebugFlagsHandler: true,
    enableSystemLogHandler: true,
    enableSystemLogQuery: false,
    containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
    logging: { format: 'text', flushFrequency: '5s', verbosity: 2, options: { text: { infoBufferSize: '0' }, json: { infoBufferSize: '0' } } },
  };
  return JSON.stringify({ kubeletconfig });
}

/** The sync loop keeps running in every scripted state (a hung relist does not block it), so all checks pass. */
export function kubeletHealthzBody(verbose: boolean): string {
  if (!verbose) return 'ok';
  return '[+]ping ok\n[+]log ok\n[+]syncloop ok\nhealthz check passed\n';
}

export function kubeletAnswer(state: KubeletState, path: string, query: URLSearchParams): NodeProxyAnswer {
  switch (path) {
    case '/metrics':
      return { body: kubeletMetricsBody(state), contentType: PROMETHEUS };
    case '/configz':
      return { body: kubeletConfigzBody(state), contentType: 'application/json' };
    case '/healthz':
      return { body: kubeletHealthzBody(query.has('verbose')), contentType: TEXT };
    case '/debug/pprof/goroutine':
      if (query.get('debug') === '2') return { body: goroutineDumpBody(state), contentType: TEXT };
      // debug=0 is a gzipped protobuf profile; the demo only serves the text dump.
      return { status: 400, body: 'the demo kubelet serves only ?debug=2\n', contentType: TEXT };
    default:
      return { status: 404, body: '404 page not found\n', contentType: TEXT };
  }
}

/**
 * The stand-in's node proxy hook for demo nodes. `lookup` returns the node object the stand-in serves
 * right now; undefined (no such node, or Ready=Unknown) gives the 503 a real API server answers when it
 * cannot reach the kubelet.
 */
export function demoKubeletProxy(lookup: (node: string) => KubeNode | undefined, now: () => Date = () => new Date()): NodeProxyHandler {
  return (nodeName, path, query) => {
    const node = lookup(nodeName);
    if (!node) return undefined;
    const state = kubeletStateOf(node, now());
    if (!state) return undefined;
    return kubeletAnswer(state, path, query);
  };
}
