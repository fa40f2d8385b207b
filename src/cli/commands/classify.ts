// `pleg-doctor classify FILE|-`: one JSON line per Node of a Node, NodeList or `kubectl get nodes -o json`.

import { classifyNode } from '../../core/classify/classifyNode';
import { extractNodes, NodeInputError, parseJsonText } from '../../core/classify/nodeInput';
import type { NodeClassification } from '../../core/classify/types';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { readInput } from '../readInput';
import { isNotReady } from '../../core/tree/verdictPresentation';

export const CLASSIFY_USAGE = `Usage: pleg-doctor classify [--fail-on-not-ready] FILE|-

Reads a Node, a NodeList or \`kubectl get nodes -o json\` output (kind List) from FILE, or from standard
input for "-", and prints one JSON line per node:
  {"name","verdict","cordoned","since","plegLastSeenAgoSeconds","plegThresholdSeconds","message"}
Verdicts: ready, pleg-at-risk (Ready, node-problem-detector's PLEGAtRisk=True), pleg, runtime-down,
startup, network, lease-lost, not-ready-other.

Options:
  --fail-on-not-ready  exit 1 when any node is NotReady (not "ready" nor "pleg-at-risk")
  -h, --help           show this help

Exit codes: 0 classified; 1 a node is not ready (with --fail-on-not-ready); 2 bad options or input that
is not a Node, NodeList or List; 130 interrupted.
`;

/** The JSON line of one node: exactly these keys, in this order, null where absent. */
export interface ClassificationLine {
  name: string | null;
  verdict: NodeClassification['verdict'];
  cordoned: boolean;
  since: string | null;
  plegLastSeenAgoSeconds: number | null;
  plegThresholdSeconds: number | null;
  message: string | null;
}

export function classificationLine(c: NodeClassification): ClassificationLine {
  return {
    name: c.name !== '' ? c.name : null,
    verdict: c.verdict,
    cordoned: c.cordoned,
    since: c.since ?? null,
    plegLastSeenAgoSeconds: c.plegLastSeenAgoSeconds ?? null,
    plegThresholdSeconds: c.plegThresholdSeconds ?? null,
    message: c.message !== '' ? c.message : null,
  };
}

const SPEC = { command: 'classify', options: { 'fail-on-not-ready': { type: 'boolean' } }, positionals: true } as const;

interface ClassifyArgs {
  source: string;
  failOnNotReady: boolean;
}

function parseClassifyArgs(argv: readonly string[]): ClassifyArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new CliUsageError(
      positionals.length === 0 ? 'classify: missing FILE (use "-" for standard input)' : `classify: expected one FILE, got ${positionals.length}`,
    );
  }
  return { source: positionals[0], failOnNotReady: parsed.values['fail-on-not-ready'] === true };
}

export const classifyCommand: CliCommand = async (argv, io) => {
  const args = parseClassifyArgs(argv);
  if (args === 'help') {
    io.stdout.write(CLASSIFY_USAGE);
    return 0;
  }
  const { text, label } = await readInput(args.source, io, (reason) => new NodeInputError(reason));
  const nodes = extractNodes(parseJsonText(text, label), label);
  const now = new Date();
  let notReady = 0;
  // Written in batches: one write per line is what makes a 10k-node List slow through a pipe.
  let batch: string[] = [];
  for (const node of nodes) {
    const c = classifyNode(node, now);
    if (isNotReady(c.verdict)) notReady++;
    for (const w of c.warnings) io.stderr.write(`pleg-doctor: classify: warning: ${c.name !== '' ? c.name : label}: ${w}\n`);
    batch.push(`${JSON.stringify(classificationLine(c))}\n`);
    if (batch.length >= 500) {
      io.stdout.write(batch.join(''));
      batch = [];
    }
  }
  if (batch.length > 0) io.stdout.write(batch.join(''));
  return args.failOnNotReady && notReady > 0 ? 1 : 0;
};
