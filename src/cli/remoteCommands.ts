// The commands that reach a cluster or a node bring the Kubernetes client and ssh2 (about 4 MB of code
// between them). They are built as a bundle of their own, dist/cliRemote.js, which dist/cli.js requires
// only when one of them runs: `pleg-doctor logs`, `classify`, `replay`, `simulate` and `--help` never
// parse it (src/cli/registry.ts).

import { createKubeGateway } from '../infra/kube/createGateway';
import { createDebugPodLogsCommand } from './commands/debugPodLogs';
import { createDiagnoseCommand } from './commands/diagnose';
export { kubeletJournalCommand } from './commands/kubeletJournal';
import { createNodesCommand } from './commands/nodes';
import { createSnapshotCommand } from './commands/snapshot';
import { createTimelineCommand } from './commands/timeline';
import type { CliCommand } from './io';

export const diagnoseCommand = (): CliCommand => createDiagnoseCommand(createKubeGateway);
export const nodesCommand = (): CliCommand => createNodesCommand(createKubeGateway);
export const timelineCommand = (): CliCommand => createTimelineCommand(createKubeGateway);
export const debugPodLogsCommand = (): CliCommand => createDebugPodLogsCommand(createKubeGateway);
export const snapshotCommand = (): CliCommand => createSnapshotCommand(createKubeGateway);
