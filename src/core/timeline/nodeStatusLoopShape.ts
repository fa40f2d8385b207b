// What one node-status sync waits on while the runtime hangs, by kubelet version and runtime: the part of
// the node-status loop (nodeStatusLoop.ts) that differs between kubelets. docs/kubelet-node-status.md has
// the sources.
//
// Dockershim kubelets (≤ 1.23, `--container-runtime=docker`) wait longer per sync than the CRI kubelets:
//  - nodestatus.VersionInfo first calls `kl.cadvisor.VersionInfo()`; cAdvisor's manager.go getVersionInfo
//    (v0.39, vendored by 1.22) asks the docker daemon twice, `docker.VersionString()` then
//    `docker.APIVersionString()`, each a `client.ServerVersion(defaultContext())` bounded by cAdvisor's own
//    `dockerTimeout` (10 s, container/docker/docker.go). Both swallow the timeout (the inner `err` shadows
//    the returned one: "Unknown", nil), so the setter goes on to the CRI Version call as usual;
//  - only then `kl.containerRuntime.Version()`, bounded by the runtime request timeout (dockershim's own
//    docker client has the same timeout, so whichever fires first, it is that long);
//  - Run() starts the loop with `wait.Until` (no jitter; JitterUntil came later).
// On the real 1.22.4 node (../shared/k8s-1.22/observed) evaluations while dockerd is stopped come
// 60.02–60.04 s apart with a 30 s timeout and 150.04 s with 2 min: 10 + 10 + timeout + 10.
// A containerd node's cAdvisor finds no docker socket and fails at once, so only a docker runtime waits.

import { parseKubeletVersion } from '../pleg/profiles';

export interface NodeStatusLoopShape {
  id: 'jittered' | 'dockershim';
  /** JitterUntil (NODE_STATUS_LOOP.jitterFactor) or wait.Until (the bare frequency). */
  jittered: boolean;
  /** Calls to the hung daemon a sync makes before the CRI Version call, each bounded by its own timeout (ms). */
  callsBeforeVersionMs: readonly number[];
}

/** cAdvisor's container/docker/docker.go `dockerTimeout`. */
export const CADVISOR_DOCKER_TIMEOUT_MS = 10_000;

/** Kubelets 1.24+ (and any kubelet on a CRI runtime): JitterUntil, the CRI Version call only. */
export const JITTERED_LOOP: NodeStatusLoopShape = { id: 'jittered', jittered: true, callsBeforeVersionMs: [] };

/** Dockershim kubelets (≤ 1.23 on docker): wait.Until, cAdvisor's two docker version calls, then Version. */
export const DOCKERSHIM_LOOP: NodeStatusLoopShape = {
  id: 'dockershim',
  jittered: false,
  callsBeforeVersionMs: [CADVISOR_DOCKER_TIMEOUT_MS, CADVISOR_DOCKER_TIMEOUT_MS],
};

/**
 * The loop shape for a node, from its `nodeInfo.kubeletVersion` and `nodeInfo.containerRuntimeVersion`
 * (e.g. "v1.22.4+k3s1", "docker://20.10.24+dfsg1"). Unknown or unparsable versions keep the current shape.
 */
export function nodeStatusLoopShape(kubeletVersion: string | undefined, containerRuntimeVersion: string | undefined): NodeStatusLoopShape {
  if (kubeletVersion === undefined || containerRuntimeVersion === undefined) return JITTERED_LOOP;
  if (!/^docker:\/\//u.test(containerRuntimeVersion.trim())) return JITTERED_LOOP;
  let minor: number;
  try {
    minor = parseKubeletVersion(kubeletVersion).minor;
  } catch {
    return JITTERED_LOOP;
  }
  // Dockershim was removed in 1.24: a newer kubelet reaching docker goes through cri-dockerd, a CRI runtime.
  return minor <= 23 ? DOCKERSHIM_LOOP : JITTERED_LOOP;
}

/** How long a sync that starts in a hang (and sees no end of it) waits before it evaluates Ready. */
export function hungSyncMs(shape: NodeStatusLoopShape, runtimeRequestTimeoutMs: number): number {
  return shape.callsBeforeVersionMs.reduce((a, b) => a + b, 0) + runtimeRequestTimeoutMs;
}
