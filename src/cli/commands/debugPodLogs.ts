// `pleg-doctor logs --node NAME --access debug-pod [--since T] [--until T]`: the kubelet's journal of a node
// read through a one-shot pod on it (src/infra/nodeAccess/debugPod/debugPodKubeletLog.ts), for clusters
// without SSH to their nodes, then read by the same log reader as `logs FILE`: one JSON line per finding and
// the summary line, which here also names the way and what the journal read did. `--raw` prints the
// journal itself instead (journalctl -u kubelet -o short-precise's lines). Creating the pod is confirmed as
// for the snapshot (debugPodRun.ts).

import { KubeletLogReader, type LogSummary } from '../../core/parse/logReader';
import { LogByteScanner } from '../../core/parse/logReaderBytes';
import { KUBELET_LOG_MAX_BYTES } from '../../core/nodeAccess/debugPodSpec';
import { DEFAULT_DEBUG_NAMESPACE } from '../../infra/nodeAccess/debugPod/debugPodSnapshot';
import { DEFAULT_NODE_JOURNAL_DIRS, planDebugPodKubeletLog, readKubeletLogThroughDebugPod } from '../../infra/nodeAccess/debugPod/debugPodKubeletLog';
import { DEFAULT_LOG_WINDOW_MINUTES } from '../../infra/diagnose/collectKubeletLog';
import { durationOption, parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand } from '../io';
import type { KubeGatewayFactory } from '../kubeContext';
import { positiveInt } from '../sshNodeAccess';
import { runDebugPodCommand, terminalConfirmer, type DebugPodCommandDeps } from './debugPodRun';
import { parseJournalTime } from './kubeletJournal';
import { findingJson } from './logs';

const OPTIONS = {
  node: { type: 'string' },
  access: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  'journal-dir': { type: 'string', multiple: true },
  raw: { type: 'boolean' },
  yes: { type: 'boolean' },
  image: { type: 'string' },
  namespace: { type: 'string' },
  deadline: { type: 'string' },
  'max-bytes': { type: 'string' },
  context: { type: 'string' },
  kubeconfig: { type: 'string', multiple: true },
} as const;

export interface DebugPodLogsArgs {
  node: string;
  sinceMs: number;
  untilMs: number;
  journalDirs: string[];
  raw: boolean;
  yes: boolean;
  image?: string;
  namespace: string;
  deadlineSeconds: number;
  maxBytes: number;
  context?: string;
  kubeconfigs: string[];
}

export function parseDebugPodLogsArgs(argv: readonly string[], nowMs: number): DebugPodLogsArgs {
  const parsed = parseCommandArgs(argv, { command: 'logs', options: OPTIONS, positionalHint: 'a node log is read with --node NAME --access debug-pod, a file with `logs FILE`' });
  if (parsed.help) throw new Error('help is handled by the logs command');
  const v = parsed.values;
  if (v.access !== 'debug-pod') {
    throw new CliUsageError(`logs: a node's kubelet log is read through a debug pod here (--access debug-pod), got --access ${JSON.stringify(v.access ?? '')}; over SSH, pipe \`journalctl -u kubelet -o short-precise\` into \`logs -\``);
  }
  if (v.node === undefined) throw new CliUsageError('logs: --access debug-pod needs --node NAME');
  const untilMs = v.until !== undefined ? parseJournalTime('logs', 'until', v.until) : nowMs;
  const sinceMs = v.since !== undefined ? parseJournalTime('logs', 'since', v.since) : untilMs - DEFAULT_LOG_WINDOW_MINUTES * 60_000;
  if (untilMs < sinceMs) throw new CliUsageError('logs: --until is before --since');
  const deadlineMs = v.deadline !== undefined ? durationOption('logs', 'deadline', v.deadline, 30_000) : 120_000;
  if (deadlineMs > 3_600_000) throw new CliUsageError(`logs: --deadline must be at most 1h, got ${JSON.stringify(v.deadline)}`);
  return {
    node: v.node,
    sinceMs,
    untilMs,
    journalDirs: v['journal-dir'] ?? [...DEFAULT_NODE_JOURNAL_DIRS],
    raw: v.raw === true,
    yes: v.yes === true,
    ...(v.image !== undefined ? { image: v.image } : {}),
    namespace: v.namespace ?? DEFAULT_DEBUG_NAMESPACE,
    deadlineSeconds: Math.ceil(deadlineMs / 1000),
    maxBytes: v['max-bytes'] !== undefined ? positiveInt('logs', '--max-bytes', v['max-bytes'], KUBELET_LOG_MAX_BYTES) : KUBELET_LOG_MAX_BYTES,
    ...(v.context !== undefined ? { context: v.context } : {}),
    kubeconfigs: v.kubeconfig ?? [],
  };
}

/** Findings of the journal's text, as `logs FILE` prints them; the reader's summary. */
function readFindings(text: string, write: (line: string) => void): LogSummary {
  const reader = new KubeletLogReader((f) => write(`${JSON.stringify(findingJson(f))}\n`));
  const scanner = new LogByteScanner(reader);
  scanner.push(Buffer.from(text, 'utf8'));
  scanner.end();
  return reader.end();
}

export function createDebugPodLogsCommand(createGateway: KubeGatewayFactory, deps: Partial<DebugPodCommandDeps> = {}, now: () => number = Date.now): CliCommand {
  const full: DebugPodCommandDeps = { createGateway, confirmer: deps.confirmer ?? terminalConfirmer, ...(deps.timeouts !== undefined ? { timeouts: deps.timeouts } : {}) };
  return async (argv, io) => {
    const args = parseDebugPodLogsArgs(argv, now());
    return runDebugPodCommand(
      {
        command: 'logs',
        node: args.node,
        namespace: args.namespace,
        yes: args.yes,
        ...(args.context !== undefined ? { context: args.context } : {}),
        kubeconfigs: args.kubeconfigs,
        plan: (api, _node, signal) =>
          planDebugPodKubeletLog(
            api,
            { node: args.node, namespace: args.namespace, ...(args.image !== undefined ? { image: args.image } : {}), window: { sinceEpochMs: args.sinceMs, untilEpochMs: args.untilMs }, journalDirs: args.journalDirs, deadlineSeconds: args.deadlineSeconds, maxBytes: args.maxBytes },
            signal,
          ),
        run: async (api, plan, logger) => {
          const r = await readKubeletLogThroughDebugPod(api, plan.manifest, { logger, signal: io.signal, ...(full.timeouts !== undefined ? { timeouts: full.timeouts } : {}) });
          for (const note of r.outcome.stderr.split('\n').filter((l) => l !== '')) io.stderr.write(`${note}\n`);
          const journal = { entries: r.summary.entries, compressedNotRead: r.summary.compressedNotRead, truncated: r.summary.truncated, timedOut: r.summary.timedOut, errors: r.summary.errors };
          if (args.raw) {
            io.stdout.write(r.outcome.text);
            return r.deleted ? 0 : 1;
          }
          const summary = readFindings(r.outcome.text, (line) => io.stdout.write(line));
          io.stdout.write(`${JSON.stringify({ summary, access: r.access, journal })}\n`);
          if (!r.deleted) return 1;
          return summary.plegStretches.length > 0 ? 1 : 0;
        },
      },
      full,
      io,
    );
  };
}
