// `pleg-doctor nodes [--context C | --all-contexts] [--kubeconfig F]… [-o table|json] [--timeout D]`: the
// live nodes of the kubeconfig's current context (or --context, or every context), each with its verdict:
// at a terminal a table, worst first, with each node's NotReady flaps of the last 30 min (its events);
// otherwise, or with -o json, JSON lines (with the same flaps). A context that does not sync before the deadline, or fails, gives
// one error line; the exit code is then 1.

import { classifyNode } from '../../core/classify/classifyNode';
import type { KubeNode } from '../../core/kube/objects';
import { parseGoDurationNs } from '../../core/util/goDuration';
import type { ClusterError, KubeGateway, NodeWatch, WatchState } from '../../infra/kube/gateway';
import { countFlaps, FLAP_WINDOW_S, isFlapping, type FlapSummary } from '../../core/tree/flapHistory';
import { isNotReady } from '../../core/tree/verdictPresentation';
import { withDeadline } from '../../core/util/deadlineSignal';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';
import { chooseContext, CONTEXT_OPTION_HELP, gatewayOptions, listKubeContexts } from '../kubeContext';
import type { KubeGatewayFactory } from '../kubeContext';
import { stderrLogger } from '../stderrLogger';
import { classificationLine } from './classify';
import { errorText } from '../../core/util/errorText';
import { renderNodesTable, type NodeRow } from './nodesTable';

export type GatewayFactory = KubeGatewayFactory;

export const NODES_USAGE = `Usage: pleg-doctor nodes [--context NAME | --all-contexts] [--kubeconfig FILE]... [-o table|json]
                         [--timeout DURATION] [--fail-on-not-ready]

Lists the nodes of the kubeconfig's current context (as \`kubectl get nodes\`), of --context, or of every
context with --all-contexts, with their verdicts. At a terminal, a table: worst first (a node that went
NotReady twice or more in the last 30 min counts as NotReady), with its NotReady transitions in that time
(FLAPS/30M, from its NodeNotReady events; "?" when they could not be read). Otherwise, or with -o json,
one JSON line per node:
{"context","name","verdict","cordoned","since","plegLastSeenAgoSeconds","plegThresholdSeconds","message",
 "flaps":{"count","atLeast","windowSeconds","flapping"}} ("flaps" null when the events could not be read)
and one line per context that failed: {"context","error":{"kind","message"}}.

Options:
${CONTEXT_OPTION_HELP}  --all-contexts           every context of the kubeconfig (JSON lines in the kubeconfig's order)
  -o, --output FORMAT      table (the default at a terminal) | json (the default otherwise: the lines above)
  --timeout DURATION       how long to wait for each context's first full list (default 15s; "20", "1m30s")
  --fail-on-not-ready      also exit 1 when any node is NotReady (not "ready" nor "pleg-at-risk")
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
const OUTPUT_FORMATS = ['table', 'json'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Event lists read at once for the table's flap counts. */
const EVENT_CONCURRENCY = 8;

interface NodesArgs {
  /** Absent: a table at a terminal, JSON lines otherwise. */
  output: OutputFormat | undefined;
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
    throw new CliUsageError(`nodes: -o/--output must be ${OUTPUT_FORMATS.join(' or ')}, got ${JSON.stringify(values.output)}`);
  }
  return {
    output: values.output as OutputFormat | undefined,
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

/**
 * Each row's NotReady transitions of the last 30 min, from its events, EVENT_CONCURRENCY at a time, all
 * within `timeoutMs` (and the user's interrupt). As in the tree (host/cluster/flapTracker.ts), a node whose
 * Ready condition has not changed within the window cannot have flapped in it: its events are not asked
 * for, so a large cluster costs a few requests. A node whose events do not come keeps "?" in the table
 * (null in the JSON); one line on stderr says how many and why.
 */
async function loadFlaps(gateway: KubeGateway, rows: NodeRow[], now: Date, timeoutMs: number, io: CliIo, shownAs: string): Promise<void> {
  const signal = withDeadline(io.signal, timeoutMs);
  const since = now.getTime() - FLAP_WINDOW_S * 1000;
  const ask: NodeRow[] = [];
  for (const row of rows) {
    const changed = Date.parse(row.classification.since ?? '');
    if (Number.isFinite(changed) && changed < since) row.flaps = { count: 0, atLeast: false, windowS: FLAP_WINDOW_S };
    else ask.push(row);
  }
  let next = 0;
  let firstError: string | undefined;
  const worker = async (): Promise<void> => {
    while (next < ask.length && !signal.aborted) {
      const row = ask[next++];
      if (row === undefined) return;
      try {
        row.flaps = countFlaps(await gateway.listNodeEvents(row.context, row.classification.name, signal), now);
      } catch (e) {
        firstError ??= errorText(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(EVENT_CONCURRENCY, ask.length) }, worker));
  const missing = rows.filter((r) => r.flaps === undefined).length;
  if (missing > 0) io.stderr.write(`pleg-doctor: nodes: the events of ${missing} of ${rows.length} nodes could not be read within ${formatMs(timeoutMs)} (${shownAs})${firstError !== undefined ? `: ${firstError}` : ''}\n`);
}

/** The JSON form of a row's flaps (null: its events could not be read); `flapping` as the table and the tree judge it. */
function flapsJson(flaps: FlapSummary | undefined): { count: number; atLeast: boolean; windowSeconds: number; flapping: boolean } | null {
  return flaps === undefined ? null : { count: flaps.count, atLeast: flaps.atLeast, windowSeconds: flaps.windowS, flapping: isFlapping(flaps) };
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
      const table = (args.output ?? (io.stdout.isTTY === true ? 'table' : 'json')) === 'table';
      const rows: NodeRow[] = [];
      // JSON lines keep the kubeconfig's context order, a failed context's line in its place.
      const lines: Array<NodeRow | { context: string; error: ClusterError }> = [];
      outcomes.forEach((outcome, i) => {
        const context = contexts[i] ?? '';
        if ('error' in outcome) {
          failed++;
          if (table) io.stderr.write(`pleg-doctor: nodes: context "${context}": ${outcome.error.kind}: ${outcome.error.message}\n`);
          else lines.push({ context, error: outcome.error });
          return;
        }
        const nodes = [...outcome.nodes].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
        for (const node of nodes) {
          const c = classifyNode(node, now);
          if (isNotReady(c.verdict)) notReady++;
          const row: NodeRow = { context, classification: c, flaps: undefined };
          rows.push(row);
          lines.push(row);
        }
      });
      // The table's FLAPS/30M and the JSON's "flaps" come from the same events.
      if (rows.length > 0) await loadFlaps(gateway, rows, now, args.timeoutMs, io, table ? 'FLAPS/30M "?"' : '"flaps": null');
      if (table) {
        if (rows.length > 0) io.stdout.write(renderNodesTable(rows, now, contexts.length > 1));
        else if (failed === 0) io.stderr.write('pleg-doctor: nodes: no nodes\n');
      } else {
        for (const line of lines) {
          const json = 'error' in line ? { context: line.context, error: { kind: line.error.kind, message: line.error.message } } : { context: line.context, ...classificationLine(line.classification), flaps: flapsJson(line.flaps) };
          io.stdout.write(`${JSON.stringify(json)}\n`);
        }
      }
      return failed > 0 || (args.failOnNotReady && notReady > 0) ? 1 : 0;
    } finally {
      for (const w of watches) w.dispose();
      gateway.dispose();
    }
  };
}
