// `pleg-doctor timeline --node N … --for 10m --out session.json`: records the live PLEG timeline the
// editor's panel shows (the kubelet's relist model on the node's CRI over SSH, the kubelet's /metrics and
// the Ready condition through the API server) into a session file. Ctrl-C stops early and still writes
// what was recorded. `--from-metrics DIR` turns an evidence folder of saved scrapes into a session instead.

import { writeFile } from 'node:fs/promises';
import { homedir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { sessionFromMetricsSeries } from '../../core/timeline/fromMetrics';
import { newTimelineSession } from '../../core/timeline/newSession';
import { applySessionDelta, type SessionSettings, type TimelineSession } from '../../core/timeline/session';
import type { KubeletProfileId } from '../../core/pleg/types';
import { profileIdForMinor } from '../../core/pleg/profiles';
import { parseGoDurationNs } from '../../core/util/goDuration';
import type { Logger } from '../../core/util/logger';
import type { CriReader } from '../../infra/cri/reader';
import { selectTransport } from '../../infra/cri/transports/select';
import type { KubeGateway } from '../../infra/kube/gateway';
import { defaultIdentityFiles } from '../../infra/ssh/auth';
import { HostKeyUnknownError, SshConfigError } from '../../infra/ssh/errors';
import { SshPool } from '../../infra/ssh/pool';
import { readSshConfigFile, resolveConnectionPlan } from '../../infra/ssh/sshConfig';
import { runLiveFeed } from '../../infra/timeline/liveFeed';
import { readMetricsFolder } from '../../infra/timeline/readMetricsFolder';
import { parseCommandArgs } from '../args';
import { CliUsageError, type CliCommand, type CliIo } from '../io';
import { hostKeyAdvice, SSH_OPTIONS, SSH_OPTIONS_HELP, sshArgsFrom, sshOptionsGiven, transportKinds, type SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';
import { sshHostOf } from './diagnose';
import { withDeadline } from '../../core/util/deadlineSignal';

export type TimelineGatewayFactory = (options: { kubeconfigPaths?: string[]; logger: Logger }) => KubeGateway;

export const TIMELINE_USAGE = `Usage: pleg-doctor timeline --node NAME [--context NAME] [--ssh [ssh options]] --for 10m --out FILE
       pleg-doctor timeline --from-metrics DIR --out FILE

Records a node's live PLEG timeline as a session file (the format the editor's PLEG Timeline opens): with
--ssh, every period the node's runtime is listed over SSH and the kubelet's relist is run on it (each
CRI call timed, with the runtime request timeout as its deadline); with --context, the kubelet's /metrics
(through the API server's node proxy, needs get on nodes/proxy) and the node's Ready condition are polled.
Ctrl-C stops early and still writes what was recorded.

Options:
  --node NAME              the node (required for a live recording)
  --context NAME           kubeconfig context: kubelet metrics, Ready condition, kubelet version
  --kubeconfig FILE        read this kubeconfig instead of KUBECONFIG or ~/.kube/config (repeatable)
  --for DURATION           how long to record, e.g. 90s, 10m (default 10m)
  --period DURATION        relist period (default 1s)
  --threshold DURATION     the PLEG health threshold the model uses (default 3m0s)
  --runtime-request-timeout DURATION
                           deadline of every CRI call (default: the node's /configz, else 2m0s)
  --kubelet-version V      model this kubelet version (default: the node's, else 1.32)
  --evented                model the EventedPLEG feature gate (300 s / 10 min while evented)
  --out FILE               where the session JSON is written (required)
  --from-metrics DIR       convert an evidence folder of saved /metrics scrapes (metrics-<phase>.txt timed by
                           metrics-requests.txt) instead of recording

Node side (SSH, host key verified; same options as \`pleg-doctor snapshot\`):
  --ssh                    list the node's runtime over SSH (without it: metrics and conditions only)
  --host HOST              address or ~/.ssh/config Host alias (default: the node's InternalIP)
${SSH_OPTIONS_HELP}  -h, --help               show this help

Exit codes: 0 recorded; 1 nothing could be recorded; 2 bad options; 130 interrupted (the file is written).
`;

const OPTIONS = {
  ...SSH_OPTIONS,
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
}

function durationMs(name: string, text: string, minMs: number): number {
  let ns: bigint;
  try {
    ns = parseGoDurationNs(text);
  } catch {
    throw new CliUsageError(`timeline: --${name} must be a duration such as 500ms, 90s or 10m, got ${JSON.stringify(text)}`);
  }
  const ms = Number(ns / 1_000_000n);
  if (ms < minMs) throw new CliUsageError(`timeline: --${name} must be at least ${minMs} ms, got ${JSON.stringify(text)}`);
  return ms;
}

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
  };
  if (v['runtime-request-timeout'] !== undefined) args.runtimeRequestTimeoutMs = durationMs('runtime-request-timeout', v['runtime-request-timeout'], 100);
  if (v['kubelet-version'] !== undefined) {
    profileOf(v['kubelet-version']);
    args.kubeletVersion = v['kubelet-version'];
  }
  if (v.node !== undefined) args.node = v.node;
  if (v.context !== undefined) args.context = v.context;
  if (v['from-metrics'] !== undefined) {
    args.fromMetrics = v['from-metrics'];
    return args;
  }
  if (args.node === undefined) throw new CliUsageError('timeline: --node is required (or --from-metrics DIR)');
  if (args.context === undefined && args.ssh === undefined) throw new CliUsageError('timeline: give --context (kubelet metrics) and/or --ssh (the runtime): nothing to record otherwise');
  if (args.context === undefined && args.ssh?.host === undefined) throw new CliUsageError('timeline: without --context, --host is required (the node\u2019s address comes from its Node object)');
  return args;
}

async function writeSession(io: CliIo, file: string, session: TimelineSession): Promise<void> {
  await writeFile(resolve(io.cwd, file), `${JSON.stringify(session)}\n`);
}

/** The SSH pool and plan for the host, as `snapshot` builds them (a command line cannot accept an unknown key). */
async function sshTarget(host: string, args: SshArgs, io: CliIo, logger: Logger): Promise<{ pool: SshPool; connectCri: (signal: AbortSignal) => Promise<CriReader> }> {
  const home = io.env['HOME'] ?? homedir();
  const localUser = io.env['USER'] ?? userInfo().username;
  const configDir = io.env['XDG_CONFIG_HOME'] ?? join(home, '.config');
  let plan;
  try {
    const configText = await readSshConfigFile(args.sshConfig ?? join(home, '.ssh', 'config'));
    plan = resolveConnectionPlan(
      { host, ...(args.user !== undefined ? { user: args.user } : {}), ...(args.port !== undefined ? { port: args.port } : {}), ...(args.jump !== undefined ? { jumpHost: args.jump } : {}), identityFiles: args.identities },
      { configText, homeDir: home, localUser },
    );
  } catch (error) {
    if (error instanceof SshConfigError) throw new CliUsageError(`timeline: ${error.message}`);
    throw error;
  }
  for (const warning of plan.warnings) logger.warn(warning);
  for (const hop of [...plan.jumps, plan.target]) if (hop.identityFiles.length === 0) hop.identityFiles.push(...defaultIdentityFiles(home));
  const pool = new SshPool({
    knownHosts: { readOnly: [join(home, '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts', ...plan.userKnownHostsFiles], own: args.knownHosts ?? join(configDir, 'pleg-doctor', 'known_hosts') },
    confirmUnknownHost: (question) => Promise.resolve(args.acceptHostKeys.includes(question.fingerprint)),
    auth: { ...(io.env['SSH_AUTH_SOCK'] !== undefined ? { agentSocket: io.env['SSH_AUTH_SOCK'] } : {}) },
    connectTimeoutMs: Math.max(args.timeoutMs, 10_000),
    logger,
  });
  const connection = pool.get(plan);
  return {
    pool,
    connectCri: async (signal) => {
      try {
        await connection.connect(signal);
      } catch (error) {
        if (error instanceof HostKeyUnknownError) io.stderr.write(hostKeyAdvice(error));
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

export function createTimelineCommand(createGateway: TimelineGatewayFactory): CliCommand {
  return async (argv, io) => {
    const args = parseTimelineArgs(argv);
    if (args === 'help') {
      io.stdout.write(TIMELINE_USAGE);
      return 0;
    }
    const logger = stderrLogger(io);
    if (args.fromMetrics !== undefined) {
      const session = sessionFromMetricsSeries({ scrapes: await readMetricsFolder(args.fromMetrics), ...(args.node !== undefined ? { node: args.node } : {}), settings: { thresholdMs: args.thresholdMs } });
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
    const session = newTimelineSession({ node, ...(args.context !== undefined ? { context: args.context } : {}), source: 'live', startedAt: new Date(), settings });
    const gateway = args.context !== undefined ? createGateway({ logger, ...(args.kubeconfigs.length > 0 ? { kubeconfigPaths: args.kubeconfigs } : {}) }) : undefined;
    let pool: SshPool | undefined;
    const stop = withDeadline(io.signal, args.forMs);
    try {
      let connectCri: ((signal: AbortSignal) => Promise<CriReader>) | undefined;
      if (args.ssh !== undefined) {
        let host = args.ssh.host;
        if (host === undefined && gateway !== undefined && args.context !== undefined) host = sshHostOf(await gateway.getNode(args.context, node, io.signal), node);
        const target = await sshTarget(host as string, args.ssh, io, logger);
        pool = target.pool;
        connectCri = target.connectCri;
      }
      await runLiveFeed({
        node,
        settings,
        settingsFromConfigz: args.runtimeRequestTimeoutMs === undefined,
        ...(connectCri !== undefined ? { connectCri } : { noCriReason: 'recorded without --ssh: no model relists, only the kubelet\u2019s metrics and the Ready condition' }),
        ...(gateway !== undefined && args.context !== undefined ? { kube: { gateway, context: args.context } } : {}),
        signal: stop,
        onDelta: (d) => applySessionDelta(session, d),
        logger,
      });
    } finally {
      pool?.dispose();
      gateway?.dispose();
    }
    await writeSession(io, args.out, session);
    const failed = session.relists.filter((r) => !r.ok).length;
    io.stderr.write(`pleg-doctor: timeline: ${session.relists.length} relists (${failed} failed), ${session.kubelet.length} kubelet scrapes of ${node} written to ${args.out}\n`);
    if (io.signal.aborted) return 130;
    return session.relists.length + session.kubelet.length > 0 ? 0 : 1;
  };
}
