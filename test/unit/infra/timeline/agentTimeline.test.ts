// The panel's session through a node's agent (followAgentTimeline): the agent's session (scripted here, as
// followAgentSession hands it) with the Node's facts from the editor's own watch (a scripted NodeWatch).
// The story is the 1.26 fault window's (test-results/realk8s-1.26-timeline-agent.json): containerd freezes,
// the agent's port-forward stops answering at once, the kubelet posts "container runtime is down" 35.6 s
// into the freeze and "PLEG is not healthy" once PLEG crossed its threshold. The panel's headline and Ready
// lane must say each post as the tree does (same message, same instant), its end must follow the clock, and
// its NotReady prediction must know that the kubelet's status updates wait in the hung runtime.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { applySessionDelta, type SessionDelta, type TimelineSession } from '../../../../src/core/timeline/session';
import { headlineState } from '../../../../src/core/timeline/headline';
import { predictThreshold } from '../../../../src/core/timeline/predict';
import type { KubeNode } from '../../../../src/core/kube/objects';
import type { NodeChange, NodeWatch, WatchState } from '../../../../src/infra/kube/gateway';
import type { FollowAgentOptions } from '../../../../src/infra/nodeAccess/agent/followAgentSession';
import type { AgentConnection } from '../../../../src/infra/nodeAccess/agent/agentConnection';
import { followAgentTimeline } from '../../../../src/infra/timeline/agentTimeline';
import { sessionSeries } from '../../../../webview/timeline/sessionSeries';
import { recordedSession } from '../../../support/timelineSession';

const T0 = Date.parse('2026-11-28T18:54:00.000Z');
const RUNTIME_DOWN = 'container runtime is down';
const PLEG = 'PLEG is not healthy: pleg was last seen active 3m0.396s ago; threshold is 3m0s';
const logger = { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function node(status: 'True' | 'False', message: string, heartbeatMs: number): KubeNode {
  const reason = status === 'True' ? 'KubeletReady' : 'KubeletNotReady';
  const beat = new Date(T0 + heartbeatMs).toISOString().replace(/\.\d+Z$/u, 'Z');
  return { metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status, reason, message, lastHeartbeatTime: beat, lastTransitionTime: beat }] } } as KubeNode;
}

/** One Node's watch, driven by the test. */
function scriptedWatch(): { watch: NodeWatch; emit: (change: NodeChange) => void; nodes: Map<string, KubeNode>; disposed: () => boolean } {
  const listeners = new Set<(c: NodeChange) => void>();
  const nodes = new Map<string, KubeNode>();
  let disposed = false;
  const watch: NodeWatch = {
    context: 'c',
    nodes,
    state: { kind: 'synced', resourceVersion: '1' },
    onDidChangeNodes: (l) => {
      listeners.add(l);
      return { dispose: () => listeners.delete(l) };
    },
    onDidChangeState: (_l: (s: WatchState) => void) => ({ dispose: () => undefined }),
    refresh: () => undefined,
    dispose: () => {
      disposed = true;
    },
  };
  return { watch, emit: (c) => [...listeners].forEach((l) => l(c)), nodes, disposed: () => disposed };
}

/** The agent's session at its first answer: relists every second to t = 20 s, its own Ready entry, 1.26 on containerd. */
function agentSession(): TimelineSession {
  const s = recordedSession({ durationS: 20, pods: 3, startedAt: new Date(T0).toISOString() });
  s.node = 'n1';
  s.kubeletVersion = 'v1.26.15';
  s.containerRuntimeVersion = 'containerd://1.7.24';
  s.settings = { ...s.settings, runtimeRequestTimeoutMs: 30_000, thresholdMs: 180_000, relistPeriodMs: 1_000 };
  return s;
}

let nowMs = T0;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  nowMs = T0;
});
afterEach(() => {
  vi.useRealTimers();
});

/** Runs followAgentTimeline on the scripted agent and watch; the session the panel holds grows as LiveSession grows it. */
function run() {
  const scripted = scriptedWatch();
  let follow!: FollowAgentOptions;
  let session!: TimelineSession;
  const deltas: SessionDelta[] = [];
  const controller = new AbortController();
  const done = followAgentTimeline({ label: 'agent pod pleg-doctor/a' } as AgentConnection, {
    gateway: { watchNodes: (_context: string, only?: { node: string }) => (only?.node === 'n1' ? scripted.watch : undefined) } as never,
    context: 'c',
    node: 'n1',
    signal: controller.signal,
    logger,
    now: () => nowMs,
    tickMs: 1_000,
    onSession: (s) => {
      session = structuredClone(s);
    },
    onDelta: (d) => {
      deltas.push(d);
      applySessionDelta(session, structuredClone(d));
    },
    follow: (_c, o) => {
      follow = o;
      o.onSession(agentSession());
      return new Promise<void>((resolve) => o.signal.addEventListener('abort', () => resolve()));
    },
  });
  const post = (n: KubeNode): void => {
    scripted.nodes.set('n1', n);
    scripted.emit({ type: 'modified', node: n });
  };
  return { scripted, follow: () => follow, session: () => session, deltas, post, stop: () => controller.abort(), done };
}

describe('the timeline through the agent, with the Node watched by the editor', () => {
  it('while the agent is silent, the headline and the Ready lane follow the kubelet\u2019s posts, the end follows the clock, and the NotReady post is predicted through the hung runtime', async () => {
    nowMs = T0 + 20_000;
    const r = run();
    // The editor's watch lists the Node: Ready, as the agent also said.
    r.scripted.nodes.set('n1', node('True', 'kubelet is posting ready status', 15_000));
    r.scripted.emit({ type: 'resynced' });
    // The agent's own Ready entries are not shown a second time.
    r.follow().onDelta({ durationMs: 21_000, ready: [{ atMs: 20_500, status: 'True', reason: 'KubeletReady', message: 'again' }], nodeStatusPosts: [{ atMs: 20_500, source: 'watch' }] });
    expect(r.deltas.at(-1)).toEqual({ durationMs: 21_000 });
    r.follow().onPoll!(undefined, { startedAt: T0 + 21_000, endedAt: T0 + 21_010 });

    // containerd freezes at t = 22 s: the next poll's port-forward waits its 10 s out.
    nowMs = T0 + 33_000;
    r.follow().onPoll!('GET /v1/session: the port-forward did not open within 10s', { startedAt: T0 + 23_000, endedAt: T0 + 33_000 });
    // The port-forward failing is no proof of a hung runtime: no stall yet.
    expect(r.session().stalls ?? []).toEqual([]);
    nowMs = T0 + 50_000;
    vi.advanceTimersByTime(1_000);
    expect(r.session().durationMs).toBe(50_000);
    // Until the kubelet says more, the NotReady post is stated as of the agent's last answer, not as known.
    const early = predictThreshold(r.session(), 50_000, { sourceSilent: true }).sentence;
    expect(early).toMatch(/^at this rate the threshold is crossed at 18:57:19 UTC \(no relist has arrived since 18:54:\d\d UTC: its source is silent\); the kubelet will post NotReady at about .*, as of its source\u2019s last answer: later if its runtime hangs\)$/u);

    // The kubelet posts "container runtime is down" (T+35.6 s), as the tree's watch sees it.
    nowMs = T0 + 57_600;
    r.post(node('False', RUNTIME_DOWN, 57_600));
    let s = r.session();
    expect(s.ready.at(-1)).toMatchObject({ atMs: 57_600, status: 'False', message: RUNTIME_DOWN });
    let head = headlineState(s);
    expect(head.verdict).toBe('runtime-down');
    expect(head.ready?.message).toBe(RUNTIME_DOWN);
    // Now the kubelet itself says the runtime is down: a hang from where the silence began.
    expect(s.stalls).toEqual([{ sinceMs: 22_500, kind: 'hang', seenBy: 'kubelet' }]);
    // The lane draws the post where it came.
    const lane = sessionSeries(s).ready.at(-1);
    expect(lane).toMatchObject({ fromS: 57.6, status: 'False' });

    // The crossing is the agent's last good relist + 3 min; the kubelet's status updates wait 30 s in
    // Version on the hung runtime (syncs 40.1-40.3 s apart on the real 1.26 cluster, nodeStatusLoop.ts):
    // the PLEG post is the fourth sync after the runtime-down post, not its next 10 s update.
    nowMs = T0 + 100_000;
    vi.advanceTimersByTime(1_000);
    const lastGood = [...s.relists].reverse().find((x) => x.ok)!.startMs;
    const prediction = predictThreshold(r.session(), 100_000, { sourceSilent: true });
    expect(prediction.state).toBe('crossing');
    expect(prediction.crossingAtMs).toBe(lastGood + 180_000);
    expect(prediction.notReadyByMs).toBeCloseTo(57_600 + 4 * 40_200, -3);
    expect(prediction.sentence).toContain('on the hung runtime');
    expect(prediction.sentence).not.toContain('as of its source');

    // The PLEG post: the headline says it, with the kubelet's own message.
    nowMs = T0 + 218_400;
    r.post(node('False', `${RUNTIME_DOWN}, ${PLEG}`, 218_400));
    s = r.session();
    head = headlineState(s);
    expect(head.verdict).toBe('pleg');
    expect(head.ready?.message).toBe(`${RUNTIME_DOWN}, ${PLEG}`);
    expect(s.durationMs).toBe(218_400);
    // The PLEG health lane says what the age line and the sentence say: unhealthy from the crossing, though
    // the agent could not send its Healthy() change.
    const band = sessionSeries(s).unhealthy.at(-1);
    expect(band?.fromS).toBeCloseTo((lastGood + 180_000) / 1000, 6);
    expect(band?.toS).toBeNull();

    // The agent answers again: the editor's stall ends by then, its ticking stops.
    nowMs = T0 + 240_000;
    r.follow().onPoll!(undefined, { startedAt: T0 + 239_000, endedAt: T0 + 240_000 });
    expect(r.session().stalls).toEqual([{ sinceMs: 22_500, untilMs: 240_000, kind: 'hang', seenBy: 'kubelet' }]);
    const count = r.deltas.length;
    vi.advanceTimersByTime(5_000);
    expect(r.deltas).toHaveLength(count);

    r.stop();
    await r.done;
    expect(r.scripted.disposed()).toBe(true);
  });

  it('a silence with no post from the kubelet opens no stall; a poll refused at once would have been a refused runtime', async () => {
    nowMs = T0 + 20_000;
    const r = run();
    r.scripted.nodes.set('n1', node('True', 'kubelet is posting ready status', 15_000));
    r.scripted.emit({ type: 'resynced' });
    nowMs = T0 + 21_200;
    r.follow().onPoll!('GET /v1/session: connection refused', { startedAt: T0 + 21_000, endedAt: T0 + 21_200 });
    nowMs = T0 + 45_000;
    vi.advanceTimersByTime(3_000);
    expect(r.session().stalls ?? []).toEqual([]);
    expect(headlineState(r.session()).verdict).toBe('ready');
    // A NotReady for another cause is not the runtime being down.
    r.post(node('False', 'container runtime network not ready: NetworkReady=false', 45_000));
    expect(r.session().stalls ?? []).toEqual([]);
    r.post(node('False', RUNTIME_DOWN, 52_000));
    expect(r.session().stalls).toEqual([{ sinceMs: 20_500, kind: 'refused', seenBy: 'kubelet' }]);
    r.stop();
    await r.done;
  });

  it("a replaced session keeps the agent's Ready record only before the editor watched, then the editor's", async () => {
    nowMs = T0 + 20_000;
    const r = run();
    nowMs = T0 + 25_000;
    r.post(node('False', RUNTIME_DOWN, 25_000));
    const again = agentSession();
    again.ready.push({ atMs: 24_000, status: 'False', reason: 'KubeletNotReady', message: 'the agent saw it too' });
    r.follow().onSession(again);
    expect(r.session().ready.map((x) => [x.atMs, x.message])).toEqual([
      [0, 'kubelet is posting ready status'],
      [25_000, RUNTIME_DOWN],
    ]);
    r.stop();
    await r.done;
  });
});
