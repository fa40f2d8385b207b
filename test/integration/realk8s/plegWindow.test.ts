// The shared PLEG fault window (./plegWindow.ts) on the real kubelet 1.26, plus, in the same window, issue
// #28's alerts end to end (./alertLeadTimes.ts): the agent DaemonSet, Prometheus with the shipped rules
// and the kubernetes-mixin's, node-problem-detector with the shipped monitor; their lead times over the
// kubelet's "PLEG is not healthy" post are printed and written to test-results/. Around them, issue #29's
// editor without SSH (./treeInCodeServer.ts): the tree in code-server following the Node's posts and
// PLEGAtRisk, and the node's PLEG Timeline through the agent pod predicting the crossing before the post.
import { afterAll, beforeAll } from 'vitest';
import { importAgentImage } from './agentInstall';
import { alertLeadTimeChecks } from './alertLeadTimes';
import { realCluster, scratchDir } from './cluster';
import { describePlegWindow } from './plegWindow';
import { withTreeInCodeServer } from './treeInCodeServer';

const scratch = scratchDir();
const alerts = alertLeadTimeChecks(scratch.dir);

// The image build and import (once per cluster start) before the window, so its time budget is the freeze's.
beforeAll(() => {
  importAgentImage(realCluster(), scratch.dir);
}, 240_000);

afterAll(async () => {
  await alerts.cleanup();
  scratch.remove();
}, 180_000);

describePlegWindow(withTreeInCodeServer(alerts.checks, { agentTimeline: { atRisk: alerts.atRisk } }));
