// `pleg-doctor diagnose --context C --node N …`: collects one node's evidence (the Node, its events and
// pod count, the kubelet's /metrics twice, /configz, /healthz?verbose and the goroutine dump through the
// node proxy, and with --ssh a CRI snapshot of the node), runs the check catalog and prints the report.
// It only reads: remediation in the report is advice, never run.

import type { Diagnosis } from '../../core/diagnose/diagnosis';
import type { NodeEvidence } from '../../core/diagnose/evidence';
import { renderDiagnosisMarkdown } from '../../core/diagnose/report/renderMarkdown';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import type { KubeNode } from '../../core/kube/objects';
import type { Logger } from '../../core/util/logger';
import { collectNodeEvidence } from '../../infra/diagnose/collectEvidence';
import { nodeSideEvidence } from '../../infra/diagnose/nodeSideEvidence';
import type { KubeGateway } from '../../infra/kube/gateway';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';
import { defaultSshArgs, positiveInt, readSshOption, snapshotOverSsh, SSH_OPTIONS_HELP } from '../sshNodeAccess';
import type { SshArgs } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';

export type DiagnoseGatewayFactory = (options: { kubeconfigPaths?: string[]; logger: Logger }) => KubeGateway;

export const DIAGNOSE_USAGE = `Usage: pleg-doctor diagnose --context NAME --node NAME [options]

Collects one node's evidence and prints a report of the PLEG check catalog: the Node, its events and
pod count; through the API server's node proxy the kubelet's /metrics (twice, an interval apart),
/configz, /healthz?verbose and /debug/pprof/goroutine?debug=2, each with its own deadline; and with
--ssh a CRI snapshot of the node. Nothing is changed anywhere: remediation is printed, never run.

The node proxy needs \`get\` on nodes/proxy. That is NOT a read-only permission: the same grant reaches
the kubelet's exec, run and port-forward endpoints. Use --no-node-proxy to diagnose without it.

Options:
  --context NAME           kubeconfig context (required)
  --node NAME              node name (required)
  --kubeconfig FILE        read this kubeconfig instead of KUBECONFIG or ~/.kube/config (repeatable)
  --format FORMAT          markdown (default) | json: {"evidence", "diagnosis"}
  --proxy-timeout MS       deadline of each kubelet endpoint request (default 15000)
  --metrics-interval MS    wait between the two /metrics scrapes, 0 for one scrape (default 5000)
  --no-node-proxy          do not use the node proxy (the four kubelet endpoints are skipped)
  --verbose                log each source's outcome and time on stderr

Node side (SSH, host key verified; same options as \`pleg-doctor snapshot\`):
  --ssh                    also take a CRI snapshot of the node over SSH
  --host HOST              address or ~/.ssh/config Host alias (default: the node's InternalIP)
${SSH_OPTIONS_HELP}  -h, --help               show this help

Exit codes: 0 no problem found; 3 the report has findings of severity problem; 1 could not diagnose
(no such context or node, API server unreachable); 2 bad options; 130 interrupted.
`;

export const EXIT_PROBLEMS = 3;
const DEFAULT_PROXY_TIMEOUT_MS = 15_000;
const DEFAULT_METRICS_INTERVAL_MS = 5_000;

interface DiagnoseArgs {
  context: string;
  node: string;
  kubeconfigs: string[];
  format: 'markdown' | 'json';
  proxyTimeoutMs: number;
  metricsIntervalMs: number;
  useNodeProxy: boolean;
  verbose: boolean;
  ssh: boolean;
  sshArgs: SshArgs;
}

function nonNegativeInt(name: string, text: string, max: number): number {
  if (text === '0') return 0;
  return positiveInt('diagnose', name, text, max);
}

export function parseDiagnoseArgs(argv: readonly string[]): DiagnoseArgs | 'help' {
  let context: string | undefined;
  let node: string | undefined;
  const args: Omit<DiagnoseArgs, 'context' | 'node'> = {
    kubeconfigs: [],
    format: 'markdown',
    proxyTimeoutMs: DEFAULT_PROXY_TIMEOUT_MS,
    metricsIntervalMs: DEFAULT_METRICS_INTERVAL_MS,
    useNodeProxy: true,
    verbose: false,
    ssh: false,
    sshArgs: defaultSshArgs(),
  };
  let sshOptionSeen: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const value = (): string => {
      const next = argv[++i];
      if (next === undefined || next === '') throw new CliUsageError(`diagnose: ${arg} needs a value`);
      return next;
    };
    switch (arg) {
      case '-h':
      case '--help':
        return 'help';
      case '--context':
        context = value();
        break;
      case '--node':
        node = value();
        break;
      case '--kubeconfig':
        args.kubeconfigs.push(value());
        break;
      case '--format': {
        const format = value();
        if (format !== 'markdown' && format !== 'json') throw new CliUsageError(`diagnose: --format must be markdown or json, got ${JSON.stringify(format)}`);
        args.format = format;
        break;
      }
      case '--proxy-timeout':
        args.proxyTimeoutMs = positiveInt('diagnose', '--proxy-timeout', value(), 3_600_000);
        break;
      case '--metrics-interval':
        args.metricsIntervalMs = nonNegativeInt('--metrics-interval', value(), 600_000);
        break;
      case '--no-node-proxy':
        args.useNodeProxy = false;
        break;
      case '--verbose':
        args.verbose = true;
        break;
      case '--ssh':
        args.ssh = true;
        break;
      default:
        if (!readSshOption('diagnose', arg, value, args.sshArgs)) {
          throw new CliUsageError(
            arg.startsWith('-') ? `diagnose: unknown option ${JSON.stringify(arg)} (see pleg-doctor diagnose --help)` : `diagnose: unexpected argument ${JSON.stringify(arg)} (use --node NAME)`,
          );
        }
        sshOptionSeen ??= arg;
    }
  }
  if (context === undefined) throw new CliUsageError('diagnose: --context is required');
  if (node === undefined) throw new CliUsageError('diagnose: --node is required');
  // An SSH option without --ssh would silently do nothing: say so instead.
  if (sshOptionSeen !== undefined && !args.ssh) throw new CliUsageError(`diagnose: ${sshOptionSeen} is a node-side option: add --ssh to reach the node over SSH`);
  return { context, node, ...args };
}

/** The address to SSH to when --host is absent: the node's InternalIP, else its name. */
export function sshHostOf(node: KubeNode, name: string): string {
  const addresses = node.status?.addresses ?? [];
  return addresses.find((a) => a.type === 'InternalIP')?.address ?? addresses.find((a) => a.type === 'Hostname')?.address ?? name;
}

function hasProblems(diagnosis: Diagnosis): boolean {
  return diagnosis.findings.some((f) => f.severity === 'problem');
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createDiagnoseCommand(createGateway: DiagnoseGatewayFactory): CliCommand {
  return async (argv: string[], io: CliIo): Promise<number> => {
    const args = parseDiagnoseArgs(argv);
    if (args === 'help') {
      io.stdout.write(DIAGNOSE_USAGE);
      return 0;
    }
    const logger = stderrLogger(io, args.verbose);
    const gateway = createGateway({ logger, ...(args.kubeconfigs.length > 0 ? { kubeconfigPaths: args.kubeconfigs } : {}) });
    try {
      let contexts: string[];
      try {
        contexts = gateway.listContexts().map((c) => c.name);
      } catch (err) {
        throw new CliUsageError(`diagnose: ${errorText(err)}`);
      }
      if (!contexts.includes(args.context)) {
        io.stderr.write(`pleg-doctor: diagnose: no context "${args.context}" in the kubeconfig (contexts: ${contexts.length > 0 ? contexts.join(', ') : 'none'})\n`);
        return 1;
      }
      let node: KubeNode;
      try {
        node = await gateway.getNode(args.context, args.node, io.signal);
      } catch (err) {
        if (io.signal.aborted) throw err;
        io.stderr.write(`pleg-doctor: diagnose: cannot read node "${args.node}" in context "${args.context}": ${errorText(err)}\n`);
        return 1;
      }
      const sshArgs = args.sshArgs;
      const host = sshArgs.host ?? sshHostOf(node, args.node);
      const evidence: NodeEvidence = await collectNodeEvidence({
        gateway,
        context: args.context,
        node,
        useNodeProxy: args.useNodeProxy,
        proxyTimeoutMs: args.proxyTimeoutMs,
        metricsIntervalMs: args.metricsIntervalMs,
        ...(args.ssh
          ? { nodeSide: async (signal: AbortSignal) => nodeSideEvidence(await snapshotOverSsh('diagnose', host, sshArgs, io, logger, signal)) }
          : { nodeSideSkipReason: 'no --ssh given' }),
        logger,
        signal: io.signal,
      });
      const diagnosis = diagnose(evidence);
      if (args.format === 'json') io.stdout.write(`${JSON.stringify({ evidence, diagnosis }, null, 2)}\n`);
      else io.stdout.write(renderDiagnosisMarkdown(diagnosis).replace(/\n?$/, '\n'));
      return hasProblems(diagnosis) ? EXIT_PROBLEMS : 0;
    } finally {
      gateway.dispose();
    }
  };
}
