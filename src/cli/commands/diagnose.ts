// `pleg-doctor diagnose --node N [--context C] …`: collects one node's evidence (the Node, its events and
// pod count, the kubelet's /metrics twice, /configz, /healthz?verbose and the goroutine dump through the
// node proxy, the kubelet's log (journalctl over SSH with --ssh, else its NodeLogQuery through the node
// proxy when the kubelet serves one), and with --ssh a CRI snapshot of the node), runs the check catalog and prints the report.
// `--evidence DIR` judges a saved evidence bundle instead, reaching nothing; `--save-evidence DIR` writes
// the collected evidence as one. It only reads: remediation in the report is advice, never run.

import { existsSync } from 'node:fs';
import { bundleFilesOf, EvidenceBundleError, type RawKubeletBodies } from '../../core/diagnose/bundle';
import type { Diagnosis } from '../../core/diagnose/diagnosis';
import type { NodeEvidence } from '../../core/diagnose/evidence';
import { anyCheckFails, diagnosisJson } from '../../core/diagnose/verdicts';
import { renderDiagnosisMarkdown, renderDiagnosisText } from '../../core/diagnose/report/renderMarkdown';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import type { KubeNode } from '../../core/kube/objects';
import { collectNodeEvidence, evidenceTarget } from '../../infra/diagnose/collectEvidence';
import { DEFAULT_LOG_MAX_BYTES, DEFAULT_LOG_WINDOW_MINUTES, type KubeletLogPlan } from '../../infra/diagnose/collectKubeletLog';
import { fetchKubeletJournal } from '../../infra/ssh/kubeletJournal';
import { readEvidenceBundle, writeEvidenceBundle } from '../../infra/diagnose/evidenceBundle';
import { nodeSideEvidence } from '../../infra/diagnose/nodeSideEvidence';
import { localNodeSnapshot } from '../../infra/nodeSnapshot/localSnapshot';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';
import { chooseContext, CONTEXT_OPTION_HELP, gatewayOptions } from '../kubeContext';
import type { KubeGatewayFactory } from '../kubeContext';
import { openSshPool, positiveInt, snapshotOnPool, SSH_OPTIONS, SSH_OPTIONS_HELP, sshArgsFrom, sshOptionsGiven } from '../sshNodeAccess';
import type { SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';
import { errorText } from '../../core/util/errorText';
import { ACCESS_OPTIONS, ACCESS_OPTIONS_HELP, accessArgsFrom, chooseNodeAccess, DEBUG_POD_NOT_YET, type AccessArgs } from '../accessOption';
import { nodeSideFromAgent } from './diagnoseAgent';
import { wayLabel } from '../../core/nodeAccess/accessWay';

export type DiagnoseGatewayFactory = KubeGatewayFactory;

export const DIAGNOSE_USAGE = `Usage: pleg-doctor diagnose --node NAME [--context NAME] [options]
       pleg-doctor diagnose --evidence DIR [-o text|md|json]

Collects one node's evidence and prints a report of the PLEG check catalog: the Node, its events and
pod count; through the API server's node proxy the kubelet's /metrics (twice, an interval apart),
/configz, /healthz?verbose and /debug/pprof/goroutine?debug=2, each with its own deadline; the kubelet's
log of the last --log-window minutes (with --ssh \`journalctl -u kubelet\` on the node, else the kubelet's
NodeLogQuery /logs/?query=kubelet, which needs its NodeLogQuery feature gate and enableSystemLogQuery:
true); and with --ssh a CRI snapshot of the node. Nothing is changed anywhere: remediation is printed,
never run.

The node proxy needs \`get\` on nodes/proxy. That is NOT a read-only permission: the same grant reaches
the kubelet's exec, run and port-forward endpoints. Use --no-node-proxy to diagnose without it.

With --evidence, the checks run on a saved evidence bundle (a folder with any of bundle.json, node.json,
metrics.txt, metrics-later.txt, configz.json, healthz.txt, goroutines.txt, events.json, kubelet.log,
snapshot.json, probes.json; node.json is required) and nothing is contacted.

Options:
  --node NAME              node name (required unless --evidence)
${CONTEXT_OPTION_HELP}  --evidence DIR           diagnose the evidence bundle in DIR instead of a live node
  --save-evidence DIR      also write the collected evidence as a bundle to DIR (a new folder), with
                           the report as report.md
  -o, --output FORMAT      text (the default on a terminal: the report as plain text) | md (the default
                           otherwise; also: markdown) | json: {"node", "checks": [{"id", "cause",
                           "verdict", "summary", "evidence"}]} with verdict ok | warn | fail | unknown
  --format FORMAT          the same as -o/--output (its earlier name, still accepted)
  --proxy-timeout MS       deadline of each kubelet endpoint request (default 15000)
  --metrics-interval MS    wait between the two /metrics scrapes, 0 for one scrape (default 5000)
  --no-node-proxy          do not use the node proxy (the four kubelet endpoints are skipped)
  --log-window MINUTES     how far back to read the kubelet log, 0 not to read it (default ${DEFAULT_LOG_WINDOW_MINUTES}; at
                           most ${DEFAULT_LOG_MAX_BYTES / 1024 / 1024} MB, within --proxy-timeout, or --timeout over SSH)
  --verbose                log each source's outcome and time on stderr

Node side: through the node's pleg-doctor-agent pod when one runs there (the CRI snapshot of its last
diagnosis, with its age; read through the API server's pod port-forward: list pods and get, create on
pods/portforward in its namespace), else over SSH with --ssh; --access picks the way.
${ACCESS_OPTIONS_HELP}
SSH (host key verified; same options as \`pleg-doctor snapshot\`):
  --ssh                    also take a CRI snapshot of the node over SSH
  --cri-socket PATH        instead, when run on the node itself: the snapshot from the runtime's socket
                           on this machine (each call bounded by --proxy-timeout; no SSH, no probes)
  --host HOST              address or ~/.ssh/config Host alias (default: the node's InternalIP)
${SSH_OPTIONS_HELP}  -h, --help               show this help

Exit codes: 0 no check fails; 1 a check fails (a finding of severity problem); 2 bad options or
kubeconfig (missing or unreadable, no such context, no current-context); 3 could not diagnose (no such
node, API server unreachable, unreadable bundle); 130 interrupted.
`;

/** Some check's verdict is fail. */
export const EXIT_CHECK_FAILS = 1;
/** Nothing was diagnosed: no such node, the API server unreachable, a bundle that cannot be read. */
export const EXIT_NOT_DIAGNOSED = 3;
const DEFAULT_PROXY_TIMEOUT_MS = 15_000;
const DEFAULT_METRICS_INTERVAL_MS = 5_000;

interface DiagnoseArgs {
  /** --context; absent: the kubeconfig's current-context. */
  context?: string;
  node: string;
  saveEvidence?: string;
  kubeconfigs: string[];
  format: ReportFormat | undefined;
  proxyTimeoutMs: number;
  metricsIntervalMs: number;
  logWindowMinutes: number;
  useNodeProxy: boolean;
  verbose: boolean;
  ssh: boolean;
  sshArgs: SshArgs;
  /** `--cri-socket`: the node side from the runtime's socket on this machine (diagnose run on the node). */
  criSocket?: string;
  access: AccessArgs;
}

function nonNegativeInt(name: string, text: string, max: number): number {
  if (text === '0') return 0;
  return positiveInt('diagnose', name, text, max);
}

export interface BundleArgs {
  evidence: string;
  /** Absent: text on a terminal, Markdown otherwise. */
  format: ReportFormat | undefined;
}

export type ReportFormat = 'text' | 'markdown' | 'json';

const SPEC = {
  command: 'diagnose',
  options: {
    context: { type: 'string' },
    node: { type: 'string' },
    evidence: { type: 'string' },
    'save-evidence': { type: 'string' },
    kubeconfig: { type: 'string', multiple: true },
    output: { type: 'string', short: 'o' },
    format: { type: 'string' },
    'proxy-timeout': { type: 'string' },
    'metrics-interval': { type: 'string' },
    'log-window': { type: 'string' },
    'no-node-proxy': { type: 'boolean' },
    verbose: { type: 'boolean' },
    ssh: { type: 'boolean' },
    'cri-socket': { type: 'string' },
    ...SSH_OPTIONS,
    ...ACCESS_OPTIONS,
  },
  positionalHint: 'use --node NAME',
} as const;

/** Options that reach a live cluster or node: meaningless with --evidence. */
const LIVE_OPTIONS = ['context', 'node', 'save-evidence', 'kubeconfig', 'proxy-timeout', 'metrics-interval', 'log-window', 'no-node-proxy', 'ssh', 'cri-socket', 'access', 'agent-namespace'] as const;

const FORMATS: Readonly<Record<string, ReportFormat>> = { text: 'text', md: 'markdown', markdown: 'markdown', json: 'json' };

/** -o/--output, or --format (its earlier name): the same values; both given, they must agree. */
function outputFormat(output: string | undefined, format: string | undefined): ReportFormat | undefined {
  const pick = (flag: string, value: string): ReportFormat => {
    const known = Object.hasOwn(FORMATS, value) ? FORMATS[value] : undefined;
    if (known === undefined) throw new CliUsageError(`diagnose: ${flag} must be text, md, markdown or json, got ${JSON.stringify(value)}`);
    return known;
  };
  const fromOutput = output !== undefined ? pick('-o/--output', output) : undefined;
  const fromFormat = format !== undefined ? pick('--format', format) : undefined;
  if (fromOutput !== undefined && fromFormat !== undefined && fromOutput !== fromFormat) {
    throw new CliUsageError(`diagnose: -o/--output ${output ?? ''} and --format ${format ?? ''} disagree (--format is the old name of -o/--output: give one)`);
  }
  return fromOutput ?? fromFormat;
}

export function parseDiagnoseArgs(argv: readonly string[]): DiagnoseArgs | BundleArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values } = parsed;
  const format = outputFormat(values.output, values.format);
  const sshGiven = sshOptionsGiven(values);
  if (values.evidence !== undefined) {
    const live = [...LIVE_OPTIONS.filter((o) => values[o] !== undefined).map((o) => `--${o}`), ...sshGiven.slice(0, 1)];
    if (live.length > 0) throw new CliUsageError(`diagnose: --evidence reads a saved bundle and reaches nothing; drop ${live.join(', ')}`);
    return { evidence: values.evidence, format };
  }
  const args: Omit<DiagnoseArgs, 'node'> = {
    kubeconfigs: values.kubeconfig ?? [],
    format,
    proxyTimeoutMs: values['proxy-timeout'] !== undefined ? positiveInt('diagnose', '--proxy-timeout', values['proxy-timeout'], 3_600_000) : DEFAULT_PROXY_TIMEOUT_MS,
    metricsIntervalMs: values['metrics-interval'] !== undefined ? nonNegativeInt('--metrics-interval', values['metrics-interval'], 600_000) : DEFAULT_METRICS_INTERVAL_MS,
    logWindowMinutes: values['log-window'] !== undefined ? nonNegativeInt('--log-window', values['log-window'], 7 * 24 * 60) : DEFAULT_LOG_WINDOW_MINUTES,
    useNodeProxy: values['no-node-proxy'] !== true,
    verbose: values.verbose === true,
    ssh: values.ssh === true,
    sshArgs: sshArgsFrom('diagnose', values),
    access: accessArgsFrom('diagnose', values),
  };
  if (values.node === undefined) throw new CliUsageError('diagnose: --node is required');
  const criSocket = values['cri-socket'];
  if (criSocket !== undefined && args.ssh) throw new CliUsageError('diagnose: --cri-socket (the runtime on this machine) and --ssh (the runtime on a remote node) exclude each other');
  if (criSocket !== undefined && args.access.requested !== undefined) throw new CliUsageError('diagnose: --cri-socket reads the runtime on this machine, which is none of the --access ways: drop --access');
  // An SSH option without --ssh would silently do nothing: say so instead.
  const firstSsh = sshGiven[0];
  if (firstSsh !== undefined && !args.ssh) throw new CliUsageError(`diagnose: ${firstSsh} is a node-side option: add --ssh to reach the node over SSH`);
  return {
    ...(values.context !== undefined ? { context: values.context } : {}),
    node: values.node,
    ...args,
    ...(criSocket !== undefined ? { criSocket } : {}),
    ...(values['save-evidence'] !== undefined ? { saveEvidence: values['save-evidence'] } : {}),
  };
}

/** The address to SSH to when --host is absent: the node's InternalIP, else its name. */
export function sshHostOf(node: KubeNode, name: string): string {
  const addresses = node.status?.addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address ?? addresses.find((a) => a.type === 'Hostname')?.address ?? name;
}

/** A person at a terminal reads plain text; a pipe or file gets the Markdown it got before -o text existed. */
function print(io: CliIo, diagnosis: Diagnosis, format: ReportFormat | undefined): number {
  const chosen = format ?? (io.stdout.isTTY === true ? 'text' : 'markdown');
  if (chosen === 'json') io.stdout.write(`${JSON.stringify(diagnosisJson(diagnosis), null, 2)}\n`);
  else io.stdout.write((chosen === 'text' ? renderDiagnosisText(diagnosis) : renderDiagnosisMarkdown(diagnosis)).replace(/\n*$/, '\n'));
  return anyCheckFails(diagnosis) ? EXIT_CHECK_FAILS : 0;
}

/** `--evidence DIR`: the same checks on a saved bundle; notes about the bundle itself go to stderr. */
export async function diagnoseBundle(args: BundleArgs, io: CliIo): Promise<number> {
  let reading;
  try {
    reading = await readEvidenceBundle(args.evidence);
  } catch (err) {
    if (!(err instanceof EvidenceBundleError)) throw err;
    io.stderr.write(`pleg-doctor: diagnose: ${err.message}\n`);
    return EXIT_NOT_DIAGNOSED;
  }
  for (const note of reading.notes) io.stderr.write(`pleg-doctor: diagnose: ${args.evidence}: ${note}\n`);
  return print(io, diagnose(reading.evidence, { advice: 'cli' }), args.format);
}

export function createDiagnoseCommand(createGateway: DiagnoseGatewayFactory): CliCommand {
  return async (argv: string[], io: CliIo): Promise<number> => {
    const args = parseDiagnoseArgs(argv);
    if (args === 'help') {
      io.stdout.write(DIAGNOSE_USAGE);
      return 0;
    }
    if ('evidence' in args) return diagnoseBundle(args, io);
    const logger = stderrLogger(io, 'diagnose', args.verbose);
    const gateway = createGateway(gatewayOptions(args.kubeconfigs, logger, io));
    try {
      const { name: context, from } = chooseContext('diagnose', gateway, args.context);
      if (from === 'current-context') logger.info(`context "${context}" (the kubeconfig's current-context)`);
      let node: KubeNode;
      try {
        node = await gateway.getNode(context, args.node, io.signal);
      } catch (err) {
        if (io.signal.aborted) throw err;
        io.stderr.write(`pleg-doctor: diagnose: cannot read node "${args.node}" in context "${context}": ${errorText(err)}\n`);
        return EXIT_NOT_DIAGNOSED;
      }
      if (args.saveEvidence !== undefined && existsSync(args.saveEvidence)) {
        io.stderr.write(`pleg-doctor: diagnose: ${args.saveEvidence} already exists: an evidence bundle is written to a new folder\n`);
        return EXIT_NOT_DIAGNOSED;
      }
      const sshArgs = args.sshArgs;
      const criSocket = args.criSocket;
      const host = sshArgs.host ?? sshHostOf(node, args.node);
      const raw: RawKubeletBodies = {};
      const access = criSocket !== undefined ? undefined : await chooseNodeAccess('diagnose', { access: args.access, node: args.node, sshConfigured: args.ssh, supports: ['agent', 'ssh'], cluster: { gateway, context } }, io, logger);
      if (access?.way === 'debug-pod') {
        io.stderr.write(`pleg-doctor: diagnose: ${DEBUG_POD_NOT_YET}\n`);
        return 2;
      }
      const agent = access?.way === 'agent' ? access.connection : undefined;
      // One pool for the snapshot and the journal: one connection, one host-key check.
      const ssh = access?.way === 'ssh' ? await openSshPool('diagnose', host, sshArgs, io, logger) : undefined;
      let evidence: NodeEvidence;
      try {
        const kubeletLog: KubeletLogPlan | undefined =
          args.logWindowMinutes > 0
            ? {
                windowMinutes: args.logWindowMinutes,
                maxBytes: DEFAULT_LOG_MAX_BYTES,
                timeoutMs: ssh !== undefined ? Math.max(sshArgs.timeoutMs, args.proxyTimeoutMs) : args.proxyTimeoutMs,
                nodeLogQuery: true,
                ...(ssh !== undefined
                  ? { ssh: (fetch) => fetchKubeletJournal(ssh.pool.get(ssh.plan), fetch.window, { timeoutMs: fetch.timeoutMs, maxBytes: fetch.maxBytes, signal: fetch.signal, sudo: sshArgs.sudo }) }
                  : {}),
              }
            : undefined;
        evidence = await collectNodeEvidence({
          ...evidenceTarget(gateway, context, node, args),
          nodeProxyOffReason: '--no-node-proxy was given',
          ...(ssh !== undefined
            ? {
                nodeSide: async (signal: AbortSignal) => {
                  const report = await snapshotOnPool('diagnose', ssh.pool, ssh.plan, sshArgs, io, logger, signal);
                  return nodeSideEvidence(report, wayLabel('ssh', report.host));
                },
              }
            : criSocket !== undefined
              ? { nodeSide: async (signal: AbortSignal) => nodeSideEvidence(await localNodeSnapshot(criSocket, { deadlineMs: args.proxyTimeoutMs, logger, signal })) }
              : agent !== undefined
                ? { nodeSide: (signal: AbortSignal) => nodeSideFromAgent(agent, signal, (text) => io.stderr.write(`pleg-doctor: diagnose: node side ${text}\n`)) }
                : { nodeSideSkipReason: access?.why ?? 'no --ssh or --cri-socket given' }),
          ...(kubeletLog !== undefined ? { kubeletLog } : { kubeletLogSkipReason: '--log-window 0' }),
          logger,
          signal: io.signal,
          ...(args.saveEvidence !== undefined
            ? { onRawBody: (source: keyof RawKubeletBodies, body: string, httpStatus: number) => void (source === 'healthz' ? (raw.healthz = { body, httpStatus }) : (raw[source] = body)) }
            : {}),
        });
      } finally {
        ssh?.pool.dispose();
      }
      const diagnosis = diagnose(evidence, { advice: 'cli' });
      let bundleFailed = false;
      if (args.saveEvidence !== undefined) {
        try {
          const written = await writeEvidenceBundle(args.saveEvidence, bundleFilesOf(evidence, raw, renderDiagnosisMarkdown(diagnosis)));
          io.stderr.write(`pleg-doctor: diagnose: evidence bundle written to ${args.saveEvidence}: ${written.join(', ')}\n`);
        } catch (err) {
          io.stderr.write(`pleg-doctor: diagnose: could not write the evidence bundle: ${errorText(err)}\n`);
          bundleFailed = true;
        }
      }
      // The diagnosis is printed even when the bundle could not be written; the exit code says so.
      const code = print(io, diagnosis, args.format);
      return bundleFailed ? EXIT_NOT_DIAGNOSED : code;
    } finally {
      gateway.dispose();
    }
  };
}
