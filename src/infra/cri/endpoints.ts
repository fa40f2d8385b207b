// Where is the CRI socket on this node? In the order docs/node-access.md gives: the endpoint from the
// kubelet's /configz (when the caller has it), the kubelet's --container-runtime-endpoint flag, crictl's
// config, then the well-known sockets of containerd, CRI-O, cri-dockerd and the legacy dockershim.

import type { RemoteHost } from '../remote';

export const DEFAULT_ENDPOINTS = [
  'unix:///run/containerd/containerd.sock',
  'unix:///run/crio/crio.sock',
  'unix:///var/run/cri-dockerd.sock',
  'unix:///var/run/dockershim.sock',
] as const;

export type EndpointSource = 'configz' | 'kubeletFlag' | 'crictlYaml' | 'default';

export interface DetectedEndpoint {
  /** As configured, e.g. unix:///run/containerd/containerd.sock */
  endpoint: string;
  /** The socket path on the node. */
  socketPath: string;
  source: EndpointSource;
  /** What was looked at, in order, for the log and for "not found" messages. */
  tried: string[];
}

/** unix:///a/b, unix:/a/b and a bare absolute path all mean /a/b; anything else is not a local socket. */
export function endpointToSocketPath(endpoint: string): string | undefined {
  const trimmed = endpoint.trim();
  const match = /^unix:(?:\/\/)?(\/.*)$/.exec(trimmed);
  if (match?.[1]) return match[1];
  return trimmed.startsWith('/') ? trimmed : undefined;
}

/** --NAME=X or --NAME X from the kubelet's `ps -o args=` lines. */
export function kubeletFlagValue(psArgs: string, name: string): string | undefined {
  const flag = new RegExp(`(?:^|\\s)--${name.replace(/[^a-z-]/gu, '')}(?:=|\\s+)(\\S+)`, 'u');
  for (const line of psArgs.split('\n')) {
    const match = flag.exec(line);
    if (match?.[1]) return match[1].replace(/^["']|["']$/g, '');
  }
  return undefined;
}

/** --container-runtime-endpoint=X or --container-runtime-endpoint X from `ps -o args=` lines. */
export function parseKubeletRuntimeEndpoint(psArgs: string): string | undefined {
  return kubeletFlagValue(psArgs, 'container-runtime-endpoint');
}

/**
 * The docker daemon a dockershim kubelet (≤ 1.23) talks to: its `--docker-endpoint` flag, else dockershim's
 * default `unix:///var/run/docker.sock` (cmd/kubelet/app/options/container_runtime.go, DockerEndpoint).
 */
export function kubeletDockerEndpoint(psArgs: string): string {
  return kubeletFlagValue(psArgs, 'docker-endpoint') ?? 'unix:///var/run/docker.sock';
}

/** `runtime-endpoint: unix:///…` from /etc/crictl.yaml (a flat YAML file; no YAML parser needed). */
export function parseCrictlYamlEndpoint(yaml: string): string | undefined {
  for (const line of yaml.split('\n')) {
    const match = /^\s*runtime-endpoint\s*:\s*["']?([^"'\s#]+)["']?/.exec(line);
    if (match?.[1]) return match[1];
  }
  return undefined;
}

export async function detectRuntimeEndpoint(
  host: RemoteHost,
  options: { configzEndpoint?: string; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<DetectedEndpoint> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const exec = (argv: string[]) => host.exec(argv, { timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
  const tried: string[] = [];
  const accept = (endpoint: string, source: EndpointSource): DetectedEndpoint | undefined => {
    const socketPath = endpointToSocketPath(endpoint);
    if (!socketPath) {
      tried.push(`${source}: ${endpoint} is not a unix socket endpoint`);
      return undefined;
    }
    return { endpoint: endpoint.startsWith('unix:') ? endpoint : `unix://${socketPath}`, socketPath, source, tried };
  };

  if (options.configzEndpoint) {
    tried.push(`configz: ${options.configzEndpoint}`);
    const found = accept(options.configzEndpoint, 'configz');
    if (found) return found;
  }
  const ps = await exec(['ps', '-o', 'args=', '-C', 'kubelet']);
  const flag = ps.exitCode === 0 ? parseKubeletRuntimeEndpoint(ps.stdout) : undefined;
  tried.push(flag ? `kubelet flag: ${flag}` : 'kubelet flag: none (no kubelet process or no --container-runtime-endpoint)');
  if (flag) {
    const found = accept(flag, 'kubeletFlag');
    if (found) return found;
  }
  const yaml = await exec(['cat', '/etc/crictl.yaml']);
  const fromYaml = yaml.exitCode === 0 ? parseCrictlYamlEndpoint(yaml.stdout) : undefined;
  tried.push(fromYaml ? `/etc/crictl.yaml: ${fromYaml}` : '/etc/crictl.yaml: none');
  if (fromYaml) {
    const found = accept(fromYaml, 'crictlYaml');
    if (found) return found;
  }
  for (const endpoint of DEFAULT_ENDPOINTS) {
    const socketPath = endpointToSocketPath(endpoint) as string;
    const test = await exec(['test', '-S', socketPath]);
    tried.push(`${socketPath}: ${test.exitCode === 0 ? 'socket' : 'absent'}`);
    if (test.exitCode === 0) return { endpoint, socketPath, source: 'default', tried };
  }
  throw new Error(`no CRI endpoint found on ${host.description}; looked at: ${tried.join('; ')}`);
}
