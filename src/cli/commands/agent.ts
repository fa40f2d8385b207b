// `pleg-doctor agent`: the node agent of a DaemonSet pod (issue #28). Runs until SIGTERM/SIGINT, then exits
// 0 after closing its port and aborting the calls in flight. What it reads, from where and with which
// permission: docs/agent.md; the wiring: src/infra/agent/runAgent.ts.

import { existsSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import packageJson from '../../../package.json';
import { errorText } from '../../core/util/errorText';
import { apiServerUrl, IN_CLUSTER_CONTEXT, inClusterKubeconfig, SERVICE_ACCOUNT_DIR } from '../../infra/agent/inCluster';
import { isLoopbackHost } from '../../infra/agent/kubeletDirect';
import { runAgent } from '../../infra/agent/runAgent';
import type { KubeGateway } from '../../infra/kube/gateway';
import type { KubeGatewayOptions } from '../../infra/kube/createGateway';
import { serviceAccountKubeClient } from '../../infra/kube/kubeClient';
import { durationOption, parseCommandArgs } from '../args';
import { CliUsageError, type CliCommand } from '../io';
import { stderrLogger } from '../stderrLogger';

export const AGENT_USAGE = `Usage: pleg-doctor agent [--listen 0.0.0.0:9787] [--node-name NAME] [--cri-socket PATH]
                         [--kubelet-config PATH] [--kubelet-url URL] [--token-file PATH] [--period 1s]

Runs on a node (a DaemonSet pod with hostNetwork) until SIGTERM or SIGINT: the PLEG Timeline's live model
on the runtime's local CRI socket (serial calls like the kubelet's relist, each with the runtime request
timeout, one call in flight at most), the kubelet's /metrics from its own port with the pod's
service-account token (nodes/metrics), the kubelet's settings from its config file, the Node's Ready
condition through the API server. Serves /metrics (Prometheus), /v1/session[?since=CURSOR],
/v1/diagnosis and /healthz on one port.

Options:
  --listen HOST:PORT       where to serve (default 0.0.0.0:9787)
  --node-name NAME         this node (default: $NODE_NAME, else the hostname)
  --cri-socket PATH        the runtime's socket (default: the first that exists of
                           /run/containerd/containerd.sock, /var/run/dockershim.sock, /var/run/crio/crio.sock)
  --kubelet-config PATH    the kubelet's config file, read-only (default /var/lib/kubelet/config.yaml)
  --kubelet-url URL        the kubelet's HTTPS port (default https://127.0.0.1:10250)
  --kubelet-ca PATH        verify the kubelet's serving certificate against this CA bundle (default: not
                           verified, which is allowed for a loopback --kubelet-url only)
  --token-file PATH        the service-account token sent to the kubelet and the API server
                           (default ${SERVICE_ACCOUNT_DIR}/token)
  --api-server URL         the API server (default: in-cluster KUBERNETES_SERVICE_HOST/PORT, or
                           $PLEG_DOCTOR_API_SERVER); a hostNetwork pod on a cluster without kube-proxy
                           needs it, e.g. https://127.0.0.1:6443
  --ca-file PATH           the API server's CA (default ${SERVICE_ACCOUNT_DIR}/ca.crt)
  --period DURATION        relist period (default 1s, the kubelet's)
  --kubelet-scrape-interval DURATION
                           between two scrapes of the kubelet's /metrics (default 30s)
  --diagnosis-period DURATION
                           between two node-side diagnoses (default 2m)
  --retain DURATION        how much of the session /v1/session keeps (default 15m)
  -h, --help               show this help

Exit codes: 0 stopped by SIGTERM or SIGINT (a DaemonSet pod's normal end, where other commands give 130 interrupted);
1 the port cannot be opened; 2 bad options.
`;

const OPTIONS = {
  listen: { type: 'string' },
  'node-name': { type: 'string' },
  'cri-socket': { type: 'string' },
  'kubelet-config': { type: 'string' },
  'kubelet-url': { type: 'string' },
  'kubelet-ca': { type: 'string' },
  'token-file': { type: 'string' },
  'api-server': { type: 'string' },
  'ca-file': { type: 'string' },
  period: { type: 'string' },
  'kubelet-scrape-interval': { type: 'string' },
  'diagnosis-period': { type: 'string' },
  retain: { type: 'string' },
} as const;

/** The sockets the contract names, in order (containerd, the 1.22 dockershim, CRI-O). */
export const DEFAULT_CRI_SOCKETS = ['/run/containerd/containerd.sock', '/var/run/dockershim.sock', '/var/run/crio/crio.sock'];

export interface AgentArgs {
  listen: { host: string; port: number };
  node: string;
  criSocket: string;
  kubeletConfig: string;
  kubeletUrl: URL;
  kubeletCa?: string;
  tokenFile: string;
  apiServer?: string;
  caFile: string;
  periodMs: number;
  kubeletScrapeMs: number;
  diagnosisPeriodMs: number;
  retainMs: number;
}

function listenOf(text: string): { host: string; port: number } {
  const m = /^(.*):(\d{1,5})$/u.exec(text);
  const port = Number(m?.[2]);
  if (m === null || !(port >= 0 && port <= 65535)) throw new CliUsageError(`agent: --listen must be HOST:PORT, e.g. 0.0.0.0:9787, got ${JSON.stringify(text)}`);
  return { host: (m[1] ?? '').replace(/^\[|\]$/gu, '') || '0.0.0.0', port };
}

export function parseAgentArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, exists: (path: string) => boolean = existsSync): AgentArgs | 'help' {
  const parsed = parseCommandArgs(argv, { command: 'agent', options: OPTIONS });
  if (parsed.help) return 'help';
  const v = parsed.values;
  const node = v['node-name'] ?? env['NODE_NAME'] ?? hostname();
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/u.test(node)) throw new CliUsageError(`agent: the node name ${JSON.stringify(node)} is not a valid Kubernetes node name (--node-name or NODE_NAME)`);
  const criSocket = v['cri-socket'] ?? DEFAULT_CRI_SOCKETS.find((p) => exists(p));
  if (criSocket === undefined || criSocket === '') throw new CliUsageError(`agent: no CRI socket: none of ${DEFAULT_CRI_SOCKETS.join(', ')} exists; give --cri-socket PATH`);
  let kubeletUrl: URL;
  try {
    kubeletUrl = new URL(v['kubelet-url'] ?? 'https://127.0.0.1:10250');
  } catch {
    throw new CliUsageError(`agent: --kubelet-url must be a URL such as https://127.0.0.1:10250, got ${JSON.stringify(v['kubelet-url'])}`);
  }
  if (kubeletUrl.protocol !== 'https:') throw new CliUsageError(`agent: --kubelet-url must be https (the kubelet's authenticated port), got ${kubeletUrl.href}`);
  // Without a CA the kubelet's certificate is not checked: only where the token cannot leave the node.
  if (v['kubelet-ca'] === undefined && !isLoopbackHost(kubeletUrl.hostname)) {
    throw new CliUsageError(`agent: --kubelet-url ${kubeletUrl.host} is not a loopback address: give --kubelet-ca so that the token is only sent to a verified kubelet`);
  }
  const args: AgentArgs = {
    listen: listenOf(v.listen ?? '0.0.0.0:9787'),
    node,
    criSocket,
    kubeletConfig: v['kubelet-config'] ?? '/var/lib/kubelet/config.yaml',
    kubeletUrl,
    tokenFile: v['token-file'] ?? join(SERVICE_ACCOUNT_DIR, 'token'),
    caFile: v['ca-file'] ?? join(SERVICE_ACCOUNT_DIR, 'ca.crt'),
    periodMs: durationOption('agent', 'period', v.period ?? '1s', 100),
    kubeletScrapeMs: durationOption('agent', 'kubelet-scrape-interval', v['kubelet-scrape-interval'] ?? '30s', 1_000),
    diagnosisPeriodMs: durationOption('agent', 'diagnosis-period', v['diagnosis-period'] ?? '2m', 1_000),
    retainMs: durationOption('agent', 'retain', v.retain ?? '15m', 10_000),
  };
  if (v['kubelet-ca'] !== undefined) args.kubeletCa = v['kubelet-ca'];
  if (v['api-server'] !== undefined) args.apiServer = v['api-server'];
  return args;
}

export function createAgentCommand(createGateway: (options: KubeGatewayOptions) => KubeGateway): CliCommand {
  return async (argv, io) => {
    const args = parseAgentArgs(argv, io.env);
    if (args === 'help') {
      io.stdout.write(AGENT_USAGE);
      return 0;
    }
    // A daemon's log: where it serves and what it could not read, info lines included.
    const logger = stderrLogger(io, 'agent', true);
    let ca: Buffer | undefined;
    if (args.kubeletCa !== undefined) {
      try {
        ca = readFileSync(args.kubeletCa);
      } catch (err) {
        throw new CliUsageError(`agent: cannot read --kubelet-ca ${args.kubeletCa}: ${errorText(err)}`);
      }
    }
    let server: ReturnType<typeof apiServerUrl>;
    try {
      server = apiServerUrl({ env: io.env, ...(args.apiServer !== undefined ? { apiServer: args.apiServer } : {}) });
    } catch (err) {
      throw new CliUsageError(`agent: ${errorText(err)}`);
    }
    const gateway =
      'url' in server
        ? createGateway({
            logger,
            kubeconfigTexts: [{ file: 'in-cluster config', text: inClusterKubeconfig(server.url, args) }],
            createClient: (ctx) => Promise.resolve(serviceAccountKubeClient(ctx.info.server, args)),
          })
        : undefined;
    if ('none' in server) logger.warn(server.none);
    try {
      await runAgent({
        node: args.node,
        criSocket: args.criSocket,
        kubelet: { url: args.kubeletUrl, tokenFile: args.tokenFile, ...(ca !== undefined ? { ca } : {}) },
        kubeletConfigFile: args.kubeletConfig,
        periodMs: args.periodMs,
        ...(gateway !== undefined ? { api: { gateway, context: IN_CLUSTER_CONTEXT } } : {}),
        listen: args.listen,
        diagnosisPeriodMs: args.diagnosisPeriodMs,
        retainMs: args.retainMs,
        kubeletScrapeMs: args.kubeletScrapeMs,
        version: packageJson.version,
        logger,
        signal: io.signal,
      });
    } finally {
      gateway?.dispose();
    }
    return 0;
  };
}
