// `pleg-doctor nodes [--context C] [--kubeconfig F]… [--timeout D]`: the live nodes of every context
// (or one), each with its verdict, as JSON lines. A context that does not sync before the deadline, or
// fails, gives one error line; the exit code is then 1.

import { classifyNode } from '../../core/classify/classifyNode';
import type { KubeNode } from '../../core/kube/objects';
import { parseGoDurationNs } from '../../core/util/goDuration';
import type { Logger } from '../../core/util/logger';
import type { ClusterError, KubeGateway, NodeWatch, WatchState } from '../../infra/kube/gateway';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';
import { classificationLine } from './classify';

export type GatewayFactory = (options?: { kubeconfigPaths?: string[]; logger?: Logger }) => KubeGateway;

export const NODES_USAGE = `Usage: pleg-doctor nodes [--context NAME] [--kubeconfig FILE]... [--timeout DURATION] [--fail-on-not-ready]

Lists the nodes of every kubeconfig context (KUBECONFIG, or ~/.kube/config) with their verdicts, one JSON
line per node: {"context","name","verdict","cordoned","since","plegLastSeenAgoSeconds","plegThresholdSeconds","message"}
and one line per context that failed: {"context","error":{"kind","message"}}.

Options:
  --context NAME       only this context
  --kubeconfig FILE    read this kubeconfig instead (repeatable)
  --timeout DURATION   how long to wait for each context's first full list (default 15s; "20", "1m30s")
  --fail-on-not-ready  also exit 1 when any node's verdict is not "ready"
  -h, --help           show this help

Exit codes: 0 every context listed, 1 a context failed (or a node is not ready, with --fail-on-not-ready),
2 bad options or kubeconfig.
`;

export const DEFAULT_TIMEOUT_MS = 15_000;

const SPEC = {
  command: 'nodes',
  options: { context: { type: 'string' }, kubeconfig: { type: 'string', multiple: true }, timeout: { type: 'string' }, 'fail-on-not-ready': { type: 'boolean' } },
  positionalHint: 'use --context NAME',
} as const;

interface NodesArgs {
  context?: string;
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
      throw new CliUsageError(`nodes: --timeout: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (!(ms > 0)) throw new CliUsageError(`nodes: --timeout must be positive, got "${text}"`);
  return ms;
}

function parseNodesArgs(argv: readonly string[]): NodesArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values } = parsed;
  return {
    ...(values.context !== undefined ? { context: values.context } : {}),
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

function stderrLogger(io: CliIo): Logger {
  const write = (level: string, message: string | Error): void => {
    io.stderr.write(`pleg-doctor: ${level}: ${message instanceof Error ? message.message : message}\n`);
  };
  return {
    trace: () => undefined,
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => write('warning', m),
    error: (m) => write('error', m),
  };
}

export function createNodesCommand(createGateway: GatewayFactory): CliCommand {
  return async (argv, io) => {
    const args = parseNodesArgs(argv);
    if (args === 'help') {
      io.stdout.write(NODES_USAGE);
      return 0;
    }
    const options: { kubeconfigPaths?: string[]; logger?: Logger } = { logger: stderrLogger(io) };
    if (args.kubeconfigs.length > 0) options.kubeconfigPaths = args.kubeconfigs;
    let gateway: KubeGateway;
    let contexts: string[];
    try {
      gateway = createGateway(options);
    } catch (e) {
      throw new CliUsageError(`nodes: ${e instanceof Error ? e.message : String(e)}`);
    }
    const watches: NodeWatch[] = [];
    try {
      try {
        contexts = gateway.listContexts().map((c) => c.name);
      } catch (e) {
        throw new CliUsageError(`nodes: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (args.context !== undefined) {
        if (!contexts.includes(args.context)) {
          throw new CliUsageError(
            `nodes: no context "${args.context}" in the kubeconfig (contexts: ${contexts.length > 0 ? contexts.join(', ') : 'none'})`,
          );
        }
        contexts = [args.context];
      }
      if (contexts.length === 0) throw new CliUsageError('nodes: the kubeconfig defines no contexts');

      const outcomes = await Promise.all(
        contexts.map((context) => {
          let watch: NodeWatch;
          try {
            watch = gateway.watchNodes(context);
          } catch (e) {
            return Promise.resolve<ContextOutcome>({
              error: { kind: 'config', message: e instanceof Error ? e.message : String(e) },
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
