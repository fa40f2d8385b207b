// Subcommand name → lazy loader. Loading on demand keeps `pleg-doctor --help` fast and means a command's
// heavy dependencies (client-node for `nodes`) are only read when that command runs.

import type { CliCommand } from './io';

export interface CommandEntry {
  /** One line for `pleg-doctor --help`. */
  summary: string;
  load(): Promise<CliCommand>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  classify: {
    summary: 'Classify Nodes from a file or stdin (Node, NodeList, or `kubectl get nodes -o json`)',
    load: async () => (await import('./commands/classify')).classifyCommand,
  },
  diagnose: {
    summary: 'Diagnose one node: API and kubelet evidence (and, with --ssh, a CRI snapshot) → a report',
    load: async () => {
      const [{ createDiagnoseCommand }, { createKubeGateway }] = await Promise.all([import('./commands/diagnose'), import('../infra/kube/createGateway')]);
      return createDiagnoseCommand(createKubeGateway);
    },
  },
  logs: {
    summary: 'Read a kubelet log (FILE or -): PLEG stretches, relist failures, NotReady transitions as JSON lines',
    load: async () => (await import('./commands/logs')).createLogsCommand(() => process.stdin),
  },
  nodes: {
    summary: 'List the live nodes of every kubeconfig context with their verdicts',
    load: async () => {
      const [{ createNodesCommand }, { createKubeGateway }] = await Promise.all([
        import('./commands/nodes'),
        import('../infra/kube/createGateway'),
      ]);
      return createNodesCommand(createKubeGateway);
    },
  },
  replay: {
    summary: 'Replay PLEG traces through the kubelet PLEG model (--kubelet 1.26|1.32 FILE...)',
    load: async () => (await import('./commands/replay')).replayCommand,
  },
  simulate: {
    summary: 'Run a PLEG scenario on a virtual clock and print the timeline as JSON',
    load: async () => (await import('./commands/simulate')).simulateCommand,
  },
  snapshot: {
    summary: 'Connect to a node over SSH and print one CRI snapshot with per-call timings',
    load: async () => (await import('./commands/snapshot')).snapshotCommand,
  },
  timeline: {
    summary: 'Record a node\'s live PLEG timeline (model relists over SSH, kubelet metrics, Ready) to a session file',
    load: async () => {
      const [{ createTimelineCommand }, { createKubeGateway }] = await Promise.all([import('./commands/timeline'), import('../infra/kube/createGateway')]);
      return createTimelineCommand(createKubeGateway);
    },
  },
};
