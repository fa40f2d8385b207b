// `pleg-doctor classify FILE|-`: one JSON line per Node of a Node, NodeList or `kubectl get nodes -o json`.

import { classifyNode } from '../../core/classify/classifyNode';
import { extractNodes, NodeInputError, parseJsonText } from '../../core/classify/nodeInput';
import type { NodeClassification } from '../../core/classify/types';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { readInput } from '../readInput';

export const CLASSIFY_USAGE = `Usage: pleg-doctor classify [--fail-on-not-ready] FILE|-

Reads a Node, a NodeList or \`kubectl get nodes -o json\` output (kind List) from FILE, or from standard
input for "-", and prints one JSON line per node:
  {"name","verdict","cordoned","since","plegLastSeenAgoSeconds","plegThresholdSeconds","message"}
Verdicts: ready, pleg, runtime-down, startup, network, lease-lost, not-ready-other.

Options:
  --fail-on-not-ready  exit 1 when any node's verdict is not "ready"
  -h, --help           show this help
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

interface ClassifyArgs {
  source: string;
  failOnNotReady: boolean;
  help: boolean;
}

function parseArgs(argv: readonly string[]): ClassifyArgs {
  const positional: string[] = [];
  let failOnNotReady = false;
  let help = false;
  let optionsEnded = false;
  for (const arg of argv) {
    if (!optionsEnded && arg === '--') optionsEnded = true;
    else if (!optionsEnded && (arg === '-h' || arg === '--help')) help = true;
    else if (!optionsEnded && arg === '--fail-on-not-ready') failOnNotReady = true;
    else if (!optionsEnded && arg.startsWith('-') && arg !== '-') throw new CliUsageError(`classify: unknown option "${arg}"`);
    else positional.push(arg);
  }
  if (help) return { source: '', failOnNotReady, help };
  if (positional.length !== 1 || positional[0] === undefined) {
    throw new CliUsageError(
      positional.length === 0 ? 'classify: missing FILE (use "-" for standard input)' : `classify: expected one FILE, got ${positional.length}`,
    );
  }
  return { source: positional[0], failOnNotReady, help };
}


export const classifyCommand: CliCommand = async (argv, io) => {
  const args = parseArgs(argv);
  if (args.help) {
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
    if (c.verdict !== 'ready') notReady++;
    for (const w of c.warnings) io.stderr.write(`pleg-doctor: warning: ${c.name !== '' ? c.name : label}: ${w}\n`);
    batch.push(`${JSON.stringify(classificationLine(c))}\n`);
    if (batch.length >= 500) {
      io.stdout.write(batch.join(''));
      batch = [];
    }
  }
  if (batch.length > 0) io.stdout.write(batch.join(''));
  return args.failOnNotReady && notReady > 0 ? 1 : 0;
};
