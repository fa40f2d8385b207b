// `pleg-doctor nodes [--context C | --all-contexts] [--kubeconfig F]… [-o json] [--timeout D]`: the live
// nodes of the kubeconfig's current context (or --context, or every context), each with its verdict, as
// JSON lines. A context that does not sync before the deadline, or fails, gives one error line; the exit
// code is then 1.

import { classifyNode } from '../../core/classify/classifyNode';
import type { KubeNode } from '../../core/kube/objects';
import { parseGoDurationNs } from '../../core/util/goDuration';
import type { ClusterError, KubeGateway, NodeWatch, WatchState } from '../../infra/kube/gateway';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { chooseContext, CONTEXT_OPTION_HELP, gatewayOptions, listKubeContexts } from '../kubeContext';
import type { KubeGatewayFactory } from '../kubeContext';
import { stderrLogger } from '../stderrLogger';
import { classificationLine } from './classify';
import { errorText } from '../../core/util/errorText';

export type GatewayFactory = KubeGatewayFactory;

export const NODES_USAGE = `Usage: pleg-doctor nodes [--context NAME | --all-contexts] [--kubeconfig FILE]... [-o json]
                         [--timeout DURATION] [--fail-on-not-ready]

Lists the nodes of the kubeconfig's current context (as \`kubectl get nodes\`), of --context, or of every
context with --all-contexts, with their verdicts, one JSON line per node:
{"context","name","verdict","cordoned","since","plegLastSeenAgoSeconds","plegThresholdSeconds","message"}
and one line per context that failed: {"context","error":{"kind","message"}}.

Options:
${CONTEXT_OPTION_HELP}  --all-contexts           every context of the kubeconfig (lines in the kubeconfig's order)
  -o, --output FORMAT      json: the JSON lines above (the default, and the only format for now)
  --timeout DURATION       how long to wait for each context's first full list (default 15s; "20", "1m30s")
  --fail-on-not-ready      also exit 1 when any node's verdict is not "ready"
  -h, --help               show this help

Exit codes: 0 every context listed; 1 a context could not be listed (or a node is not ready, with
--fail-on-not-ready); 2 bad options or kubeconfig (missing or unreadable, no such context, no
current-context); 130 interrupted.
`;

export const DEFAULT_TIMEOUT_MS = 15_000;

const SPEC = {
  command: 'nodes',
  options: {
    context: { type: 'string' },
    'all-contexts': { type: 'boolean' },
    kubeconfig: { type: 'string', multiple: true },
    output: { type: 'string', short: 'o' },
    timeout: { type: 'string' },
    'fail-on-not-ready': { type: 'boolean' },
  },
  positionalHint: 'use --context NAME',
} as const;

/** The formats of -o/--output. kubectl's `-o json` prints one List; this prints one JSON object per line. */
const OUTPUT_FORMATS = ['json'] as const;

interface NodesArgs {
  context?: string;
  allContexts: boolean;
  kubeconfigs: string[];
  timeoutMs: number;
  failOnNotReady: boolean;
}

function parseTimeout(text: string): number {
  let ms: number;
  if (/^\d+(?:\.\d+)?$/u.test(text)) ms = Number(text) * 1000;
  else {
    try {
      ms = Number(parseGoDurationNs(text) / 1_000_000n);
    } catch (e) {
      throw new CliUsageError(`nodes: --timeout: ${errorText(e)}`);
    }
  }
  if (!(ms > 0)) throw new CliUsageError(`nodes: --timeout must be positive, got "${text}"`);
  return ms;
}

function parseNodesArgs(argv: readonly string[]): NodesArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values } = parsed;
  if (values.context !== undefined && values['all-contexts'] === true) throw new CliUsageError('nodes: --context and --all-contexts exclude each other');
  if (values.output !== undefined && !(OUTPUT_FORMATS as readonly string[]).includes(values.output)) {
    throw new CliUsageError(`nodes: -o/--output must be ${OUTPUT_FORMATS.join(', ')}, got ${JSON.stringify(values.output)}`);
  }
  return {
    ...(values.context !== undefined ? { context: values.context } : {}),
    allContexts: values['all-contexts'] === true,
    kubeconfigs: values.kubeconfig ?? [],
    timeoutMs: values.timeout !== undefined ? parseTimeout(values.timeout) : DEFAULT_TIMEOUT_MS,
    failOnNotReady: values['fail-on-not-ready'] === true,
  };
}

type ContextOutcome = { nodes: KubeNode[] } | { error: ClusterError };

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** Resolves on the first synced state or error, the deadline, or the abort signal. */
function firstSync(watch: NodeWatch, timeoutMs: number, signal: AbortSignal): Promise<ContextOutcome> {
  return new Promise<ContextOutcome>((resolve) => {
    let lastError: ClusterError | undefined;
    let settled = false;
    const finish = (outcome: ContextOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sub.dispose();
      signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onState = (state: WatchState): void => {
      switch (state.kind) {
        case 'synced':
          finish({ nodes: [...watch.nodes.values()] });
          return;
        case 'error':
          finish({ error: state.error });
          return;
        case 'reconnecting':
          lastError = state.error;
          return;
        case 'stopped':
          finish({ error: { kind: 'other', message: 'the node watch stopped before the first list completed' } });
          return;
        case 'connecting':
          return;
      }
    };
    const onAbort = (): void => finish({ error: { kind: 'other', message: 'interrupted' } });
    const timer = setTimeout(() => {
      const message = `no complete node list within ${formatMs(timeoutMs)}`;
      finish({
        error:
          lastError !== undefined
            ? { ...lastError, message: `${message}; last error: ${lastError.message}` }
            : { kind: 'timeout', message },
      });
    }, timeoutMs);
    const sub = watch.onDidChangeState(onState);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    else onState(watch.state);
  });
}

export function createNodesCommand(createGateway: GatewayFactory): CliCommand {
  return async (argv, io) => {
    const args = parseNodesArgs(argv);
    if (args === 'help') {
      io.stdout.write(NODES_USAGE);
      return 0;
    }
    let gateway: KubeGateway;
    try {
      gateway = createGateway(gatewayOptions(args.kubeconfigs, stderrLogger(io, 'nodes'), io));
    } catch (e) {
      throw new CliUsageError(`nodes: ${errorText(e)}`);
    }
    const watches: NodeWatch[] = [];
    try {
      let contexts: string[];
      if (args.allContexts) {
        contexts = listKubeContexts('nodes', gateway).map((c) => c.name);
        if (contexts.length === 0) throw new CliUsageError('nodes: the kubeconfig defines no contexts');
      } else contexts = [chooseContext('nodes', gateway, args.context).name];

      const outcomes = await Promise.all(
        contexts.map((context) => {
          let watch: NodeWatch;
          try {
            watch = gateway.watchNodes(context);
          } catch (e) {
            return Promise.resolve<ContextOutcome>({
              error: { kind: 'config', message: errorText(e) },
            });
          }
          watches.push(watch);
          return firstSync(watch, args.timeoutMs, io.signal);
        }),
      );

      const now = new Date();
      let failed = 0;
      let notReady = 0;
      outcomes.forEach((outcome, i) => {
        const context = contexts[i] ?? '';
        if ('error' in outcome) {
          failed++;
          io.stdout.write(`${JSON.stringify({ context, error: { kind: outcome.error.kind, message: outcome.error.message } })}\n`);
          return;
        }
        const nodes = [...outcome.nodes].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
        for (const node of nodes) {
          const c = classifyNode(node, now);
          if (c.verdict !== 'ready') notReady++;
          io.stdout.write(`${JSON.stringify({ context, ...classificationLine(c) })}\n`);
        }
      });
      return failed > 0 || (args.failOnNotReady && notReady > 0) ? 1 : 0;
    } finally {
      for (const w of watches) w.dispose();
      gateway.dispose();
    }
  };
}
