// Types of what kitNodeAccessCheck.mjs exports, for the TypeScript that calls it (test/integration/realk8s/nodeAccessInCodeServer.ts).
import type { Page } from 'playwright-core';

/** What the check is held against, read from the cluster and the node, not from the editor. */
export interface NodeAccessFacts {
  node: string;
  /** NS/NAME of the agent pod on the node. */
  agentPod: string;
  /** Its container's id as the API server reports it (without "containerd://"). */
  agentContainerId: string;
  /** The agent DaemonSet's image: the debug pod's, since no setting overrides it. */
  agentImage: string;
  /** Where the debug pod is created (plegDoctor.nodeAccess.debugPod.namespace, default the agent's). */
  namespace: string;
  /** PLEG Doctor's debug pods on the API server, NS/NAME. */
  debugPods(): string[];
  /** The ids of containerd's running tasks on the node. */
  runningTasks(): string[];
  /** The journal directory the editor's debug pod mounts (/var/log/journal). */
  journalDir: string;
  /** journalctl -u kubelet -o short-precise over that directory on the node for the window. */
  nodeJournal(sinceS: number, untilS: number): { stdout: string; stderr: string };
}

export interface SnapshotSummary {
  access: string;
  sandboxes: number;
  containers: number;
  transport: string;
}

export function judgeSnapshotSummary(message: string, facts: Pick<NodeAccessFacts, 'node' | 'agentPod'>): SnapshotSummary;
export function judgeSnapshotDocument(doc: unknown, summary: SnapshotSummary, facts: Pick<NodeAccessFacts, 'node' | 'agentPod' | 'agentContainerId'>): { sandbox: { id: string }; container: { id: string } };
export function judgeDiagnosisReport(text: string, facts: Pick<NodeAccessFacts, 'agentPod'>): string;
export function judgeDebugPodModal(
  modal: { message: string; detail: string; buttons: string[]; blocking: boolean },
  facts: Pick<NodeAccessFacts, 'node' | 'namespace' | 'agentImage'>,
): string;
export function judgeNodeLog(text: string, journal: { stdout: string; stderr: string }, dir: string): string;
export function judgeNothingLeft(pods: string[], tasksBefore: string[], tasksNow: string[]): string[];

export function runKitNodeAccessChecks(options: {
  page: Page;
  facts: NodeAccessFacts;
  shot: (name: string) => Promise<string | undefined>;
  log: (line: string) => void;
  keep: (name: string, value: unknown) => void;
}): Promise<void>;
