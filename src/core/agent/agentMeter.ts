// What the node agent exports on /metrics, kept from the live feed's deltas (the same SessionDelta records
// the PLEG Timeline panel applies) and the CRI calls as they end, and turned into metric families at
// scrape time. Pure: the clock is the feed's (ms after its t = 0) and is passed in.

import { predictPosts, type PostPredictions } from '../timeline/postPredictions';
import type { SessionDelta, TimelineSession } from '../timeline/session';
import type { MetricFamily, Sample } from './exposition';
import { Histogram } from './histogram';

export interface BuildInfo {
  version: string;
  /** The Node's status.nodeInfo.kubeletVersion when the agent can read the Node; '' otherwise. */
  kubeletVersion: string;
  /** The runtime's own CRI Version answer, e.g. "containerd 1.6.20"; '' until it answered. */
  runtime: string;
}

export interface ScrapeState {
  nowMs: number;
  /** The agent's session (for the live NotReady prediction). */
  session: TimelineSession;
  /** When the CRI call still waiting was sent (feed ms); undefined when none is. */
  inflightSinceMs: number | undefined;
  /** Calls sent to the runtime and not answered (the agent keeps this at most 1). */
  inflightCalls: number;
  /** Check ids of the node-side checks that fail in the last diagnosis; undefined before the first. */
  findings: readonly string[] | undefined;
  build: BuildInfo;
}

export class AgentMeter {
  private readonly relistDurations = new Histogram();
  private readonly criCalls = new Map<string, Histogram>();
  private relistFailures = 0;
  /** Start of the last relist whose GetPods succeeded: what the kubelet's Healthy() measures from. */
  private lastOkRelistStartMs: number | undefined;
  private pods: number | undefined;
  private containers: number | undefined;
  private projected: { pods: number; relistMs: number } | undefined;

  /** Takes one delta of the live feed. */
  take(delta: SessionDelta): void {
    for (const r of delta.relists ?? []) {
      this.relistDurations.observe((r.endMs - r.startMs) / 1000);
      if (r.ok) this.lastOkRelistStartMs = Math.max(this.lastOkRelistStartMs ?? -Infinity, r.startMs);
      else this.relistFailures++;
      if (r.pods !== undefined) this.pods = r.pods;
      if (r.containers !== undefined) this.containers = r.containers;
    }
    for (const c of delta.cost ?? []) {
      if (c.projectedPods !== undefined && c.projectedRelistMs !== undefined) this.projected = { pods: c.projectedPods, relistMs: c.projectedRelistMs };
    }
  }

  /** One CRI call answered (or failed) after `seconds`. */
  callEnded(rpc: string, seconds: number): void {
    let h = this.criCalls.get(rpc);
    if (h === undefined) this.criCalls.set(rpc, (h = new Histogram()));
    h.observe(seconds);
  }

  families(state: ScrapeState): MetricFamily[] {
    const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, help, type: 'gauge', samples });
    // One prediction of the kubelet's posts per scrape, for both gauges.
    const posts = predictPosts(state.session, state.nowMs);
    const families: MetricFamily[] = [
      gauge('pleg_doctor_relist_age_seconds', 'Seconds since the last successful relist started (GetPods answered): what the kubelet\'s PLEG Healthy() compares with its 3-minute threshold.', [
        { value: (state.nowMs - (this.lastOkRelistStartMs ?? 0)) / 1000 },
      ]),
      gauge('pleg_doctor_notready_predicted_seconds', 'Seconds until the kubelet is predicted to post Ready=False "PLEG is not healthy"; 0 once posted or due, +Inf when none is predicted.', [
        { value: secondsUntil(posts, 'pleg-notready-posted', state.nowMs) },
      ]),
      gauge(
        'pleg_doctor_runtime_down_predicted_seconds',
        'Seconds until the kubelet is predicted to post Ready=False "container runtime is down" (its CRI Status unanswered for 30 s, while the agent\'s own CRI call hangs); 0 once posted or due, +Inf when none is predicted.',
        [{ value: secondsUntil(posts, 'runtime-down-posted', state.nowMs) }],
      ),
      { name: 'pleg_doctor_relist_duration_seconds', help: 'Duration of the agent\'s relists (the kubelet\'s relist on this node\'s runtime), up to 600 s.', type: 'histogram', samples: [this.relistDurations.snapshot()] },
      {
        name: 'pleg_doctor_cri_call_duration_seconds',
        help: 'Duration of the agent\'s CRI calls by RPC, answered or failed.',
        type: 'histogram',
        samples: [...this.criCalls.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([rpc, h]) => h.snapshot({ rpc })),
      },
      gauge('pleg_doctor_cri_call_inflight_seconds', 'Age of the agent\'s CRI call still waiting for the runtime; 0 when none is.', [
        { value: state.inflightSinceMs === undefined ? 0 : Math.max(0, state.nowMs - state.inflightSinceMs) / 1000 },
      ]),
      gauge('pleg_doctor_cri_calls_inflight', 'CRI calls the agent sent and the runtime has not answered (at most 1: one call at a time).', [{ value: state.inflightCalls }]),
      { name: 'pleg_doctor_relist_failures_total', help: 'Relists whose GetPods failed.', type: 'counter', samples: [{ value: this.relistFailures }] },
    ];
    if (this.pods !== undefined) families.push(gauge('pleg_doctor_pods', 'Pod sandboxes the runtime listed in the last relist that listed.', [{ value: this.pods }]));
    if (this.containers !== undefined) families.push(gauge('pleg_doctor_containers', 'Containers the runtime listed in the last relist that listed.', [{ value: this.containers }]));
    if (this.projected !== undefined) {
      families.push(
        gauge('pleg_doctor_projected_relist_seconds', 'A relist\'s cost at the node\'s maxPods, from the measured CRI latencies (the cost model).', [
          { labels: { max_pods: String(this.projected.pods) }, value: this.projected.relistMs / 1000 },
        ]),
      );
    }
    families.push(
      gauge(
        'pleg_doctor_finding',
        'A node-side check of the diagnosis that fails (cause = the check id of pleg-doctor diagnose).',
        (state.findings ?? []).map((cause) => ({ labels: { cause }, value: 1 })),
      ),
      gauge('pleg_doctor_build_info', 'The agent\'s version, the kubelet\'s and the runtime\'s.', [
        { labels: { version: state.build.version, kubelet_version: state.build.kubeletVersion, runtime: state.build.runtime }, value: 1 },
      ]),
    );
    return families;
  }
}

/**
 * A live post prediction (postPredictions.ts) as seconds from now: 0 once it happened, +Inf when none is made.
 * "container runtime is down" is the other error of the same kubelet health check as "PLEG is not healthy"
 * (pkg/kubelet/runtime.go, runtimeErrors: the runtime's Status, then PLEG's Healthy()), and on a runtime
 * that hangs it comes first: some 30-40 s into the hang, minutes before PLEG's.
 */
function secondsUntil(posts: PostPredictions, event: 'pleg-notready-posted' | 'runtime-down-posted', nowMs: number): number {
  if (posts.happened.has(event)) return 0;
  const at = posts.at[event];
  return at === undefined ? Infinity : Math.max(0, at - nowMs) / 1000;
}
