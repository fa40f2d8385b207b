// Subcommand name → lazy loader. Loading on demand keeps `pleg-doctor --help` fast and means a command's
// heavy dependencies (client-node for `nodes`) are only read when that command runs.
//
// esbuild inlines `import('./x')` into the one CommonJS bundle, so for the commands that reach a cluster
// or a node that would not be lazy at all: they live in dist/cliRemote.js (src/cli/remoteCommands.ts),
// required by path at run time. Run from source (vitest, tsx) this file is the .ts itself, with no bundle
// beside it, and the module is imported instead, by a specifier esbuild cannot follow.

import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { CliCommand } from './io';
import type * as AgentCommand from './agentCommand';
import type * as RemoteCommands from './remoteCommands';

/** The files esbuild.mjs writes next to dist/cli.js. */
export const REMOTE_COMMANDS_BUNDLE = 'cliRemote.js';
export const AGENT_COMMAND_BUNDLE = 'cliAgent.js';

/** A command module from source (vitest, tsx), or its bundle beside dist/cli.js. */
async function loadBundled<T>(source: string, bundle: string): Promise<T> {
  if (__filename.endsWith('.ts')) return (await import(source)) as T;
  // Bundled: a missing bundle fails here with Node's "Cannot find module" naming its path.
  return createRequire(__filename)(join(__dirname, bundle)) as T;
}

const loadRemoteCommands = (): Promise<typeof RemoteCommands> => loadBundled('./remoteCommands', REMOTE_COMMANDS_BUNDLE);

export interface CommandEntry {
  /** One line for `pleg-doctor --help`. */
  summary: string;
  /** Not listed in `pleg-doctor --help`: a command other programs run (the debug pod's), not people. */
  hidden?: boolean;
  load(): Promise<CliCommand>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  agent: {
    summary: 'Run as the node agent (DaemonSet): the live PLEG model on the local runtime, served as Prometheus metrics',
    load: async () => (await loadBundled<typeof AgentCommand>('./agentCommand', AGENT_COMMAND_BUNDLE)).agentCommand(),
  },
  classify: {
    summary: 'Classify Nodes from a file or stdin (Node, NodeList, or `kubectl get nodes -o json`)',
    load: async () => (await import('./commands/classify')).classifyCommand,
  },
  diagnose: {
    summary: 'Diagnose one node: API and kubelet evidence (and, with --ssh, a CRI snapshot) → a report',
    load: async () => (await loadRemoteCommands()).diagnoseCommand(),
  },
  'kubelet-journal': {
    summary: 'Print the kubelet journal for a window as journalctl -u kubelet -o short-precise does, from journald files (what the debug pod runs)',
    hidden: true,
    load: async () => (await loadRemoteCommands()).kubeletJournalCommand,
  },
  logs: {
    summary: 'Read a kubelet log (FILE, -, or a node\'s through a debug pod): PLEG stretches, relist failures, NotReady transitions as JSON lines',
    load: async () => {
      const { createLogsCommand, wantsNodeLog } = await import('./commands/logs');
      const fromFile = createLogsCommand(() => process.stdin);
      // A node's log through a debug pod needs the Kubernetes client: the remote bundle, only then.
      return async (argv, io) => (wantsNodeLog(argv) && !argv.includes('--help') && !argv.includes('-h') ? (await loadRemoteCommands()).debugPodLogsCommand()(argv, io) : fromFile(argv, io));
    },
  },
  nodes: {
    summary: 'List the live nodes of the kubeconfig\'s current context (or --context, --all-contexts) with their verdicts',
    load: async () => (await loadRemoteCommands()).nodesCommand(),
  },
  'npd-plugin': {
    summary: 'node-problem-detector custom plugin: asks the local pleg-doctor agent whether NotReady is predicted (exit 0/1/3)',
    load: async () => (await import('./commands/npdPlugin')).npdPluginCommand,
  },
  replay: {
    summary: 'Replay PLEG traces through the kubelet PLEG model (--kubelet 1.26|1.32|1.36 FILE...)',
    load: async () => (await import('./commands/replay')).replayCommand,
  },
  simulate: {
    summary: 'Run a PLEG scenario on a virtual clock and print the timeline as JSON',
    load: async () => (await import('./commands/simulate')).simulateCommand,
  },
  snapshot: {
    summary: 'Print one CRI snapshot of a node with per-call timings (over SSH, or through its agent: --node)',
    load: async () => (await loadRemoteCommands()).snapshotCommand(),
  },
  timeline: {
    summary: 'Record a node\'s live PLEG timeline (model relists over SSH, kubelet metrics, Ready) to a session file',
    load: async () => (await loadRemoteCommands()).timelineCommand(),
  },
};
