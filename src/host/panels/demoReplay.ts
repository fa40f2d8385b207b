// The built-in demo's timeline: its nodes have no SSH and no kubelet, so opening the timeline on one of
// them replays a simulated session instead — the PLEG simulator (src/core/pleg/sim) on a node whose
// runtime stops answering for 4 minutes, like the demo's PLEG flapper. Deterministic (fixed seed and
// start), labelled as a replay by the panel. Pure (no vscode).

import { parseScenario } from '../../core/pleg/sim/scenario';
import { simulate } from '../../core/pleg/sim/simulate';
import { sessionFromSimulation } from '../../core/timeline/fromSimulation';
import type { TimelineSession } from '../../core/timeline/session';

/** When the demo's runtime freezes and for how long (it comes back: the node recovers). */
export const DEMO_FREEZE = { atS: 60, forS: 240 } as const;

export function demoScenario(node: string): unknown {
  return {
    name: 'demo-frozen-runtime',
    description: 'The built-in demo: containerd stops answering for 4 minutes; PLEG goes unhealthy 3 minutes in and the node NotReady.',
    seed: 707,
    duration: '7m0s',
    kubeletVersion: '1.32.10',
    startTime: '2026-11-22T03:00:00.000Z',
    nodeName: node,
    pods: { count: 30, containersPerPod: { min: 1, max: 3 } },
    churn: { containerRestartsPerHour: 60, podReplacementsPerHour: 12 },
    latency: {
      listPodSandbox: { kind: 'lognormal', medianMs: 2, p99Ms: 12 },
      listContainers: { kind: 'lognormal', medianMs: 3, p99Ms: 15 },
      podSandboxStatus: { kind: 'lognormal', medianMs: 1, p99Ms: 6 },
      containerStatus: { kind: 'lognormal', medianMs: 1, p99Ms: 6 },
    },
    runtimeHangs: [{ startMs: DEMO_FREEZE.atS * 1000, durationMs: DEMO_FREEZE.forS * 1000, note: 'the demo freezes the runtime' }],
  };
}

export function demoSession(context: string, node: string): TimelineSession {
  const session = sessionFromSimulation(simulate(parseScenario(demoScenario(node))), { node });
  session.context = context;
  session.lacks = ['this is the built-in demo: a simulated session, replayed, not data from a node', ...session.lacks];
  return session;
}
