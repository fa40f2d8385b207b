// `pleg-doctor timeline --node N … --for 10m --out session.json`: records the live PLEG timeline the
// editor's panel shows (the kubelet's relist model on the node's CRI over SSH, the kubelet's /metrics and
// the Ready condition through the API server) into a session file. Ctrl-C stops early and still writes
// what was recorded. `--from-metrics DIR` turns an evidence folder of saved scrapes into a session instead.

import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { sessionFromMetricsSeries } from '../../core/timeline/fromMetrics';
import { newTimelineSession } from '../../core/timeline/newSession';
import { applySessionDelta, type SessionSettings, type TimelineSession } from '../../core/timeline/session';
import type { KubeletProfileId } from '../../core/pleg/types';
import { profileIdForMinor } from '../../core/pleg/profiles';
import type { Logger } from '../../core/util/logger';
import type { CriReader } from '../../infra/cri/reader';
import { localSocketClient, socketPathOf } from '../../infra/cri/transports/localSocket';
import { selectTransport } from '../../infra/cri/transports/select';
import type { KubeGateway } from '../../infra/kube/gateway';
import { HostKeyUnknownError } from '../../infra/ssh/errors';
import type { SshPool } from '../../infra/ssh/pool';
import { runLiveFeed } from '../../infra/timeline/liveFeed';
import { readMetricsFolder } from '../../infra/timeline/readMetricsFolder';
import { durationOption, parseCommandArgs } from '../args';
import { CliUsageError, type CliCommand, type CliIo } from '../io';
import { chooseContext, CONTEXT_OPTION_HELP, currentContextOf, gatewayOptions, listKubeContexts, type KubeGatewayFactory } from '../kubeContext';
import { hostKeyAdvice, openSshPool, SSH_OPTIONS, SSH_OPTIONS_HELP, sshArgsFrom, sshOptionsGiven, transportKinds, type SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';
import { sshHostOf } from './diagnose';
import { withDeadline } from '../../core/util/deadlineSignal';
import { wayLabel } from '../../core/nodeAccess/accessWay';
import { ACCESS_OPTIONS, ACCESS_OPTIONS_HELP, accessArgsFrom, chooseNodeAccess, DEBUG_POD_NOT_YET, type AccessArgs } from '../accessOption';
import { recordThroughAgent } from './timelineAgent';

export type TimelineGatewayFactory = KubeGatewayFactory;

export const TIMELINE_USAGE = `Usage: pleg-doctor timeline --node NAME [--context NAME] [--access WAY] [--ssh [ssh options]] --for 10m --out FILE
       pleg-doctor timeline --from-metrics DIR --out FILE

Records a node's live PLEG timeline as a session file (the format the editor's PLEG Timeline opens): with
--ssh, every period the node's runtime is listed over SSH and the kubelet's relist is run on it (each
CRI call timed, with the runtime request timeout as its deadline); through the kubeconfig's context
(--context, else its current-context) the kubelet's /metrics (through the API server's node proxy, needs
get on nodes/proxy) and the node's Ready condition are polled. With --ssh --host, no --context and no
--kubeconfig, a kubeconfig that sets no current-context (or none at all) records the runtime alone.
When a pleg-doctor-agent pod runs on the node (deploy/kubernetes), the session is the agent's instead
(the default, or --access agent): its model on the node's runtime, the kubelet's metrics and Ready as the
agent records them (the last 15 min it keeps, then what follows for --for), read through the API
server's pod port-forward (needs list pods and get, create on pods/portforward in its namespace; no SSH,
no nodes/proxy). The session's "via" names the way. Ctrl-C stops early and still writes what was recorded.

Options:
  --node NAME              the node (required for a live recording)
${CONTEXT_OPTION_HELP}  --for DURATION           how long to record, e.g. 90s, 10m (default 10m)
  --period DURATION        relist period (default 1s)
  --threshold DURATION     the PLEG health threshold the model uses (default 3m0s); only with --ssh or
                           --cri-socket: without them no model runs, and the health lane is the kubelet's own
                           (its fixed 3m0s)
  --runtime-request-timeout DURATION
                           deadline of every CRI call (default: the node's /configz, else 2m0s)
  --kubelet-version V      model this kubelet version (default: the node's, else 1.32)
  --evented                model the EventedPLEG feature gate (300 s / 10 min while evented)
  --out FILE               where the session JSON is written (required)
${ACCESS_OPTIONS_HELP}  --from-metrics DIR       convert an evidence folder of saved /metrics scrapes (metrics-<phase>.txt timed by
                           metrics-requests.txt) instead of recording

On the node itself (no SSH):
  --cri-socket PATH        the runtime's CRI socket on this machine, e.g. /run/containerd/containerd.sock
                           (usually needs root); the model relists on it directly

Node side (SSH, host key verified; same options as \`pleg-doctor snapshot\`):
  --ssh                    list the node's runtime over SSH (without it: metrics and conditions only)
  --host HOST              address or ~/.ssh/config Host alias (default: the node's InternalIP)
${SSH_OPTIONS_HELP}  -h, --help               show this help

Exit codes: 0 recorded; 1 nothing could be recorded; 2 bad options or kubeconfig (missing or unreadable,
no such context, no current-context unless --ssh --host alone); 130 interrupted (the file is written).
`;

const OPTIONS = {
  ...SSH_OPTIONS,
  ...ACCESS_OPTIONS,
  node: { type: 'string' },
  context: { type: 'string' },
  kubeconfig: { type: 'string', multiple: true },
  for: { type: 'string' },
  period: { type: 'string' },
  threshold: { type: 'string' },
  'runtime-request-timeout': { type: 'string' },
  'kubelet-version': { type: 'string' },
  evented: { type: 'boolean' },
  out: { type: 'string' },
  'from-metrics': { type: 'string' },
  ssh: { type: 'boolean' },
  'cri-socket': { type: 'string' },
} as const;

export interface TimelineArgs {
  node?: string;
  context?: string;
  kubeconfigs: string[];
  forMs: number;
  periodMs: number;
  thresholdMs: number;
  runtimeRequestTimeoutMs?: number;
  kubeletVersion?: string;
  evented: boolean;
  out: string;
  fromMetrics?: string;
  ssh: SshArgs | undefined;
  /** The runtime's socket on this machine (`--cri-socket`): no SSH. */
  criSocket?: string;
  access: AccessArgs;
  /** The model's options given on the command line: the agent's session has its own model, so they are refused there. */
  modelOptions: string[];
}

const durationMs = (name: string, text: string, minMs: number): number => durationOption('timeline', name, text, minMs);

function profileOf(version: string): KubeletProfileId {
  const m = /^v?1\.(\d+)/u.exec(version.trim());
  if (m === null) throw new CliUsageError(`timeline: --kubelet-version must look like 1.26 or v1.32.10, got ${JSON.stringify(version)}`);
  return profileIdForMinor(Number(m[1]));
}

export function parseTimelineArgs(argv: readonly string[]): TimelineArgs | 'help' {
  const parsed = parseCommandArgs(argv, { command: 'timeline', options: OPTIONS });
  if (parsed.help) return 'help';
  const v = parsed.values;
  if (v.out === undefined || v.out === '') throw new CliUsageError('timeline: --out FILE is required');
  const sshGiven = sshOptionsGiven(v);
  if (sshGiven.length > 0 && v.ssh !== true) throw new CliUsageError(`timeline: ${sshGiven[0] ?? ''} is a node-side option: add --ssh to list the runtime over SSH`);
  const args: TimelineArgs = {
    kubeconfigs: v.kubeconfig ?? [],
    forMs: durationMs('for', v.for ?? '10m', 1_000),
    periodMs: durationMs('period', v.period ?? '1s', 100),
    thresholdMs: durationMs('threshold', v.threshold ?? '3m', 1_000),
    evented: v.evented === true,
    out: v.out,
    ssh: v.ssh === true ? sshArgsFrom('timeline', v) : undefined,
    access: accessArgsFrom('timeline', v),
    modelOptions: (['period', 'threshold', 'runtime-request-timeout', 'kubelet-version', 'evented'] as const).filter((o) => v[o] !== undefined).map((o) => `--${o}`),
  };
  if (v['runtime-request-timeout'] !== undefined) args.runtimeRequestTimeoutMs = durationMs('runtime-request-timeout', v['runtime-request-timeout'], 100);
  if (v['kubelet-version'] !== undefined) {
    profileOf(v['kubelet-version']);
    args.kubeletVersion = v['kubelet-version'];
  }
  if (v.node !== undefined) args.node = v.node;
  if (v.context !== undefined) args.context = v.context;
  if (v['cri-socket'] !== undefined) {
    if (v['cri-socket'] === '') throw new CliUsageError('timeline: --cri-socket needs a socket path');
    if (args.ssh !== undefined) throw new CliUsageError('timeline: --cri-socket (the runtime on this machine) and --ssh (the runtime on a remote node) exclude each other');
    args.criSocket = v['cri-socket'];
    if (args.access.requested !== undefined) throw new CliUsageError('timeline: --cri-socket reads the runtime on this machine, which is none of the --access ways: drop --access');
  }
  // As the panel: a session without a model has the kubelet's own threshold (kubeletOnlySettings); a
  // --threshold there would be ignored, so it is refused rather than silently dropped.
  if (v.threshold !== undefined && ((args.ssh === undefined && args.criSocket === undefined) || v['from-metrics'] !== undefined)) {
    throw new CliUsageError(
      'timeline: --threshold is the model\'s, and no model runs without --ssh or --cri-socket (or with --from-metrics): the health lane then compares kubelet_pleg_last_seen_seconds against the kubelet\'s own threshold, 3m0s',
    );
  }
  if (v['from-metrics'] !== undefined) {
    args.fromMetrics = v['from-metrics'];
    return args;
  }
  if (args.node === undefined) throw new CliUsageError('timeline: --node is required (or --from-metrics DIR)');
  return args;
}

async function writeSession(io: CliIo, file: string, session: TimelineSession): Promise<void> {
  await writeFile(resolve(io.cwd, file), `${JSON.stringify(session)}\n`);
}

/** The SSH pool for the host, as `snapshot` opens it (openSshPool), and how to reach the node's CRI through it. */
async function sshTarget(host: string, args: SshArgs, io: CliIo, logger: Logger): Promise<{ pool: SshPool; connectCri: (signal: AbortSignal) => Promise<CriReader> }> {
  const { pool, plan } = await openSshPool('timeline', host, args, io, logger);
  const connection = pool.get(plan);
  return {
    pool,
    connectCri: async (signal) => {
      try {
        await connection.connect(signal);
      } catch (error) {
        if (error instanceof HostKeyUnknownError) io.stderr.write(hostKeyAdvice('timeline', error));
        throw error;
      }
      const selection = await selectTransport(connection, {
        ...(args.socket !== undefined ? { endpoint: args.socket } : {}),
        transport: transportKinds[args.transport],
        deadlineMs: args.timeoutMs,
        probeTimeoutMs: args.timeoutMs,
        logger,
        signal,
      });
      logger.info(`CRI ${selection.kind} at ${selection.endpoint} via ${connection.description}`);
      return selection.client;
    },
  };
}

/**
 * The context to record the kubelet's metrics and Ready condition from: --context, else the kubeconfig's
 * current-context. With --ssh --host the runtime alone can be recorded, so there, unless --context or
 * --kubeconfig asks for a cluster, a kubeconfig without a current-context (or none at all) means no
 * cluster; otherwise it is an error naming what was read.
 */
function timelineContext(gateway: KubeGateway, args: TimelineArgs): string | undefined {
  const clusterAskedFor = args.context !== undefined || args.kubeconfigs.length > 0;
  // The runtime alone (a remote node's over SSH, or this machine's socket) needs no cluster: a kubeconfig
  // without a current-context then records the runtime only.
  if (!clusterAskedFor && (args.ssh?.host !== undefined || args.criSocket !== undefined)) return currentContextOf('timeline', gateway, listKubeContexts('timeline', gateway));
  return chooseContext('timeline', gateway, args.context).name;
}

export function createTimelineCommand(createGateway: TimelineGatewayFactory): CliCommand {
  return async (argv, io) => {
    const args = parseTimelineArgs(argv);
    if (args === 'help') {
      io.stdout.write(TIMELINE_USAGE);
      return 0;
    }
    const logger = stderrLogger(io, 'timeline');
    if (args.fromMetrics !== undefined) {
      const session = sessionFromMetricsSeries({ scrapes: await readMetricsFolder(args.fromMetrics), ...(args.node !== undefined ? { node: args.node } : {}) });
      await writeSession(io, args.out, session);
      io.stderr.write(`pleg-doctor: timeline: ${session.kubelet.length} scrapes of ${session.node} written to ${args.out}\n`);
      return 0;
    }
    const node = args.node as string;
    const settings: SessionSettings = {
      relistPeriodMs: args.periodMs,
      thresholdMs: args.thresholdMs,
      runtimeRequestTimeoutMs: args.runtimeRequestTimeoutMs ?? 120_000,
      profile: args.kubeletVersion !== undefined ? profileOf(args.kubeletVersion) : '1.32+',
      evented: args.evented,
    };
    let gateway: KubeGateway | undefined = createGateway(gatewayOptions(args.kubeconfigs, logger, io));
    let context: string | undefined;
    try {
      context = timelineContext(gateway, args);
    } catch (error) {
      gateway.dispose();
      throw error;
    }
    if (context === undefined) {
      gateway.dispose();
      gateway = undefined;
    }
    const access =
      args.criSocket !== undefined
        ? undefined
        : await chooseNodeAccess('timeline', { access: args.access, node, sshConfigured: args.ssh !== undefined, supports: ['agent', 'ssh'], ...(gateway !== undefined && context !== undefined ? { cluster: { gateway, context } } : {}) }, io, logger).catch((err: unknown) => {
            gateway?.dispose();
            throw err;
          });
    if (access?.way === 'debug-pod') {
      gateway?.dispose();
      io.stderr.write(`pleg-doctor: timeline: ${DEBUG_POD_NOT_YET}\n`);
      return 2;
    }
    if (access?.way === 'agent') {
      const given = args.modelOptions[0];
      try {
        if (given !== undefined) throw new CliUsageError(`timeline: ${given} sets the model here, but through the agent the session is the model the agent runs on the node, with its own settings: drop ${given}, or give --access ssh --ssh`);
        const recorded = await recordThroughAgent(access.connection, context as string, withDeadline(io.signal, args.forMs), logger);
        if (recorded === undefined) return 130;
        return await finish(io, args.out, recorded);
      } finally {
        gateway?.dispose();
      }
    }
    const session = newTimelineSession({ node, ...(context !== undefined ? { context } : {}), source: 'live', startedAt: new Date(), settings });
    let pool: SshPool | undefined;
    const stop = withDeadline(io.signal, args.forMs);
    try {
      let connectCri: ((signal: AbortSignal) => Promise<CriReader>) | undefined;
      if (args.ssh !== undefined) {
        let host = args.ssh.host;
        if (host === undefined && gateway !== undefined && context !== undefined) host = sshHostOf(await gateway.getNode(context, node, io.signal), node);
        const target = await sshTarget(host as string, args.ssh, io, logger);
        session.via = wayLabel('ssh', host as string);
        pool = target.pool;
        connectCri = target.connectCri;
      } else if (args.criSocket !== undefined) {
        const endpoint = args.criSocket;
        connectCri = async (signal) => {
          const client = localSocketClient(endpoint, { logger });
          // The first call opens the connection: a missing or forbidden socket fails here, and is retried.
          await client.version({ deadlineMs: 5_000, signal });
          logger.info(`CRI grpc at unix://${socketPathOf(endpoint)} on this machine`);
          return client;
        };
      }
      await runLiveFeed({
        node,
        settings,
        settingsFromConfigz: args.runtimeRequestTimeoutMs === undefined,
        ...(connectCri !== undefined ? { connectCri } : { noCriReason: 'recorded without --ssh or --cri-socket: no model relists, only the kubelet\u2019s metrics and the Ready condition' }),
        ...(gateway !== undefined && context !== undefined ? { kube: { gateway, context } } : {}),
        signal: stop,
        onDelta: (d) => applySessionDelta(session, d),
        logger,
      });
    } finally {
      pool?.dispose();
      gateway?.dispose();
    }
    return finish(io, args.out, session);
  };
}

/** Writes the session and says what it holds; the exit code as the usage says. */
async function finish(io: CliIo, out: string, session: TimelineSession): Promise<number> {
  await writeSession(io, out, session);
  const failed = session.relists.filter((r) => !r.ok).length;
  io.stderr.write(`pleg-doctor: timeline: ${session.relists.length} relists (${failed} failed), ${session.kubelet.length} kubelet scrapes of ${session.node}${session.via !== undefined ? ` ${session.via}` : ''} written to ${out}\n`);
  if (io.signal.aborted) return 130;
  return session.relists.length + session.kubelet.length > 0 ? 0 : 1;
}
