// `pleg-doctor npd-plugin`: a node-problem-detector custom plugin. It asks the node's own pleg-doctor agent
// (its /metrics, the agent contract of issue #28) whether a NotReady is predicted, and answers in NPD's
// protocol (src/core/npd/npdVerdict.ts): exit 0 OK, 1 problem, 3 unknown, one short line on stdout.
// deploy/node-problem-detector/pleg-doctor-monitor.json runs it.

import { wholeSecondsText } from '../../core/npd/npdPrediction';
import { DEFAULT_WITHIN_SECONDS, npdVerdict, unknownVerdict, NPD_UNKNOWN } from '../../core/npd/npdVerdict';
import { withDeadline } from '../../core/util/deadlineSignal';
import { GoDurationError, parseGoDurationSeconds } from '../../core/util/goDuration';
import { httpGetText, HttpGetError } from '../../infra/http/httpGetText';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';

export const DEFAULT_AGENT_URL = 'http://127.0.0.1:9787';
const DEFAULT_TIMEOUT = '5s';
const DEFAULT_WITHIN = wholeSecondsText(DEFAULT_WITHIN_SECONDS);

export const NPD_PLUGIN_USAGE = `Usage: pleg-doctor npd-plugin [--agent-url URL] [--cause CAUSE] [--within DURATION]
                               [--timeout DURATION]

A node-problem-detector custom plugin: asks the pleg-doctor agent on this node (GET URL/metrics) whether it
predicts a NotReady ("PLEG is not healthy", or sooner "container runtime is down" once no relist has
succeeded for 5 s) and prints one line of at most 80 ASCII characters, NPD's default max_output_length,
e.g. "NotReady predicted in 1m10s: runtime-hung".

Options:
  --agent-url URL      the agent (default ${DEFAULT_AGENT_URL})
  --cause CAUSE        a problem only when this node-side check (pleg_doctor_finding{cause}) fails too
  --within DURATION    a problem only when the predicted NotReady is at most this far away, a Go duration
                       (default ${DEFAULT_WITHIN}, the PLEGNotReadyPredicted alert's bound)
  --timeout DURATION   deadline for the agent's answer, a Go duration (default ${DEFAULT_TIMEOUT}); keep it
                       under the monitor's own timeout, or NPD kills the plugin first
  -h, --help           show this help

Exit codes: 0 no NotReady predicted (within the bound); 1 NotReady predicted; 3 unknown (the agent did not answer in time or
served no prediction); 2 bad options; 130 interrupted. NPD reads 0 as OK, 1 as a problem, any other as unknown.
`;

const SPEC = { command: 'npd-plugin', options: { 'agent-url': { type: 'string' }, cause: { type: 'string' }, within: { type: 'string' }, timeout: { type: 'string' } } } as const;

interface NpdPluginArgs {
  metricsUrl: string;
  cause?: string;
  withinSeconds: number;
  timeoutMs: number;
}

/** A positive Go duration option in seconds, or a usage error naming the option. */
function durationOption(name: string, text: string): number {
  let seconds: number;
  try {
    seconds = parseGoDurationSeconds(text);
  } catch (e) {
    if (e instanceof GoDurationError) throw new CliUsageError(`npd-plugin: --${name} ${e.message}`);
    throw e;
  }
  if (!(seconds > 0)) throw new CliUsageError(`npd-plugin: --${name} must be positive, got "${text}"`);
  return seconds;
}

function parseNpdPluginArgs(argv: readonly string[]): NpdPluginArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values } = parsed;
  const base = values['agent-url'] ?? DEFAULT_AGENT_URL;
  let metricsUrl: string;
  try {
    const url = new URL(base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    metricsUrl = new URL('metrics', url.href.endsWith('/') ? url.href : `${url.href}/`).href;
  } catch {
    throw new CliUsageError(`npd-plugin: --agent-url must be an http(s) URL, got ${JSON.stringify(base)}`);
  }
  const timeoutMs = durationOption('timeout', values.timeout ?? DEFAULT_TIMEOUT) * 1000;
  const withinSeconds = durationOption('within', values.within ?? DEFAULT_WITHIN);
  return { metricsUrl, ...(values.cause !== undefined ? { cause: values.cause } : {}), withinSeconds, timeoutMs };
}

export const npdPluginCommand: CliCommand = async (argv, io) => {
  const args = parseNpdPluginArgs(argv);
  if (args === 'help') {
    io.stdout.write(NPD_PLUGIN_USAGE);
    return 0;
  }
  let verdict;
  try {
    const text = await httpGetText(args.metricsUrl, { signal: withDeadline(io.signal, args.timeoutMs) });
    verdict = npdVerdict(text, args.cause, args.withinSeconds);
  } catch (e) {
    if (!(e instanceof HttpGetError)) throw e;
    // NPD keeps stdout as the condition message: the cause goes there (cut to 80), in full to stderr.
    io.stderr.write(`pleg-doctor: npd-plugin: ${e.message}\n`);
    verdict = unknownVerdict(`agent: ${e.message}`);
  }
  io.stdout.write(`${verdict.message}\n`);
  return io.signal.aborted && verdict.exitCode === NPD_UNKNOWN ? 130 : verdict.exitCode;
};
