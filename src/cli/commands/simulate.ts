// `pleg-doctor simulate SCENARIO.json|-`: runs a PLEG scenario on a virtual clock and prints the timeline
// as JSON (relists, PLEG health, runtime status, Ready posts, syncLoop skips, generated kubelet log lines).

import { parseScenario, ScenarioError } from '../../core/pleg/sim/scenario';
import { simulate, SimulationCancelledError } from '../../core/pleg/sim/simulate';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import { readInput } from '../readInput';

export const SIMULATE_USAGE = `Usage: pleg-doctor simulate [--summary] [--log] SCENARIO.json|-

Runs the scenario (pods, churn, CRI latencies, runtime hangs, consumer stalls, kubelet version and
settings) through the kubelet-exact PLEG model on a virtual clock and prints the timeline as JSON.
Examples: test/fixtures/scenarios/*.json.

Options:
  --summary   print only the summary, health transitions, skip windows and Ready posts
  --log       print only the simulated kubelet log lines (klog text), one per line
  -h, --help  show this help

Exit codes: 0 simulated; 2 bad options, or a scenario that cannot be read or is not valid; 130 interrupted.
`;

const SPEC = { command: 'simulate', options: { summary: { type: 'boolean' }, log: { type: 'boolean' } }, positionals: true } as const;

interface SimulateArgs {
  source: string;
  mode: 'full' | 'summary' | 'log';
}

function parseSimulateArgs(argv: readonly string[]): SimulateArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values, positionals } = parsed;
  if (values.summary === true && values.log === true) throw new CliUsageError('simulate: --summary and --log exclude each other');
  if (positionals.length !== 1 || positionals[0] === undefined) {
    throw new CliUsageError(positionals.length === 0 ? 'simulate: missing SCENARIO.json (use "-" for standard input)' : `simulate: expected one SCENARIO.json, got ${positionals.length}`);
  }
  return { source: positionals[0], mode: values.summary === true ? 'summary' : values.log === true ? 'log' : 'full' };
}

export const simulateCommand: CliCommand = async (argv, io) => {
  const args = parseSimulateArgs(argv);
  if (args === 'help') {
    io.stdout.write(SIMULATE_USAGE);
    return 0;
  }
  const { text, label } = await readInput(args.source, io, (reason) => new CliUsageError(`simulate: ${reason}`));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new CliUsageError(`simulate: ${label} is not JSON: ${(e as Error).message}`);
  }
  let timeline;
  try {
    timeline = simulate(parseScenario(raw), io.signal);
  } catch (e) {
    if (e instanceof ScenarioError) throw new CliUsageError(`simulate: ${label}: ${e.message}`);
    if (e instanceof SimulationCancelledError) {
      io.stderr.write('pleg-doctor: simulate: cancelled\n');
      return 130;
    }
    throw e;
  }
  if (args.mode === 'log') {
    for (const l of timeline.logLines) io.stdout.write(`${l.line}\n`);
    return 0;
  }
  const out =
    args.mode === 'summary'
      ? {
          scenario: timeline.scenario,
          profile: timeline.profile,
          summary: timeline.summary,
          health: timeline.health,
          skipWindows: timeline.skipWindows,
          nodeReady: timeline.nodeReady,
        }
      : timeline;
  io.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
};
