// openLiveSource chooses the way to the node's side with chooseEditorAccess (the real one, over a gateway
// whose pod list is scripted) and feeds the panel by it: the agent's own session followed through
// followAgentSession (scripted here: the whole session, deltas, a 410's reread), else the SSH feed, else
// the kubelet's metrics alone, each named in the label; closing stops each.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionDelta, TimelineSession } from '../../../../src/core/timeline/session';
import type { FollowAgentOptions } from '../../../../src/infra/nodeAccess/agent/followAgentSession';
import type { AgentConnection } from '../../../../src/infra/nodeAccess/agent/agentConnection';
import type { LiveFeedRequest } from '../../../../src/host/timeline/liveSourceFeed';
import type { AgentTimelineOptions } from '../../../../src/infra/timeline/agentTimeline';
import { recordedSession } from '../../../support/timelineSession';

const fake = vi.hoisted(() => ({
  settings: {} as Record<string, unknown>,
  follows: [] as Array<{ connection: unknown; options: unknown }>,
  feeds: [] as unknown[],
  follow: undefined as undefined | ((connection: unknown, options: unknown) => Promise<void>),
}));

vi.mock('vscode', async () => {
  const stub = await import('../../../stubs/vscode');
  return {
    ...stub,
    l10n: { t: (m: string, ...args: unknown[]) => args.reduce<string>((s, a, i) => s.replace(`{${i}}`, String(a)), m) },
    workspace: {
      getConfiguration: (section: string) => ({
        get: (key: string) => fake.settings[`${section}.${key}`],
        inspect: (key: string) => ({ globalValue: fake.settings[`${section}.${key}`] }),
      }),
    },
  };
});

vi.mock('../../../../src/host/bundles/kubeLoader', async () => {
  const { chooseEditorAccess } = await import('../../../../src/host/nodeAccess/chooseEditorAccess');
  return {
    loadKubeBundle: () =>
      Promise.resolve({
        chooseEditorAccess,
        // The real follower, over the scripted agent: the Node's facts from the gateway's (scripted) watch.
        followAgentTimeline: async (connection: AgentConnection, options: AgentTimelineOptions) => {
          const { followAgentTimeline } = await import('../../../../src/infra/timeline/agentTimeline');
          return followAgentTimeline(connection, {
            ...options,
            follow: (c, o) => {
              fake.follows.push({ connection: c, options: o });
              return fake.follow!(c, o);
            },
          });
        },
      }),
  };
});

vi.mock('../../../../src/host/bundles/loader', () => ({
  loadNodeAccessBundle: () =>
    Promise.resolve({
      sshTargetOf: () => Promise.resolve('root@10.0.0.5:22'),
      startLiveFeed: (_pools: unknown, request: unknown) => {
        fake.feeds.push(request);
        return new Promise<void>((resolve) => (request as LiveFeedRequest).signal.addEventListener('abort', () => resolve()));
      },
    }),
}));

const { openLiveSource } = await import('../../../../src/host/timeline/liveSource');

const AGENT_POD = { metadata: { name: 'pleg-doctor-agent-x7k2', namespace: 'pleg-doctor', labels: { 'app.kubernetes.io/name': 'pleg-doctor-agent' } }, spec: { nodeName: 'n1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };

const logs: string[] = [];
const logger = { trace: () => undefined, debug: () => undefined, info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: unknown) => logs.push(String(m)) };
let listed: unknown[][];
let pods: () => Promise<unknown[]>;

function services(): never {
  const gateway = {
    listPods: (...a: unknown[]) => {
      listed.push(a.slice(0, 3));
      return pods();
    },
    // The editor's watch of the Node beside the agent: nothing happens on it in these tests.
    watchNodes: () => ({ nodes: new Map(), onDidChangeNodes: () => ({ dispose: () => undefined }), onDidChangeState: () => ({ dispose: () => undefined }), dispose: () => undefined }),
  };
  return { logger, session: { kube: gateway } } as never;
}

const nodeAccess = { load: () => Promise.resolve({ pools: { pool: 'held' } }) } as never;

/** The agent's session as /v1/session gives it: its own settings (a 30 s runtime request timeout from its node's /configz). */
function agentSession(durationS: number): TimelineSession {
  const s = recordedSession({ durationS, pods: 3 });
  s.node = 'n1';
  s.settings = { ...s.settings, runtimeRequestTimeoutMs: 30_000 };
  return s;
}

/** A follow that answers the whole session, then waits for the test's script. */
function scriptedFollow(): { options: () => FollowAgentOptions; stopped: Promise<void> } {
  let opts: FollowAgentOptions | undefined;
  let stopped!: () => void;
  const done = new Promise<void>((r) => (stopped = r));
  fake.follow = (_c, o) => {
    opts = o as FollowAgentOptions;
    opts.onSession(agentSession(20));
    return new Promise<void>((resolve) =>
      opts!.signal.addEventListener('abort', () => {
        stopped();
        resolve();
      }),
    );
  };
  return { options: () => opts!, stopped: done };
}

beforeEach(() => {
  fake.settings = {};
  fake.follows.length = 0;
  fake.feeds.length = 0;
  fake.follow = undefined;
  listed = [];
  pods = () => Promise.resolve([AGENT_POD]);
  logs.length = 0;
});

describe('the live source chooses its way', () => {
  it("the agent pod on the node, even with SSH configured: the agent's session as it holds it, named by the way; a 410's reread replaces it", async () => {
    fake.settings['plegDoctor.nodeAccess.clusters'] = { c: { user: 'root' } };
    const follow = scriptedFollow();
    const source = await openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal);
    expect(listed).toEqual([['c', 'pleg-doctor', { labelSelector: 'app.kubernetes.io/name=pleg-doctor-agent', fieldSelector: 'spec.nodeName=n1' }]]);
    expect(source.label).toBe('via agent pod pleg-doctor/pleg-doctor-agent-x7k2');
    // The Ready condition is the editor's own watch's: the agent's silence does not date the headline.
    expect(source.readyWatchedHere).toBe(true);
    expect((fake.follows[0]!.connection as AgentConnection).pod).toMatchObject({ namespace: 'pleg-doctor', name: 'pleg-doctor-agent-x7k2' });
    // Nothing modelled here: no SSH feed, and the agent's settings are the session's.
    expect(fake.feeds).toEqual([]);
    expect(source.session.settings.runtimeRequestTimeoutMs).toBe(30_000);
    expect(source.session).toMatchObject({ node: 'n1', context: 'c', via: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2' });

    const deltas: SessionDelta[] = [];
    const replaced: TimelineSession[] = [];
    source.onDelta((d) => deltas.push(d));
    source.onReplace((s) => replaced.push(s));
    const before = source.session.relists.length;
    const first = source.session;
    follow.options().onDelta({ durationMs: 21_000, relists: [{ ...first.relists.at(-1)!, startMs: 20_000, endMs: 20_004 }] });
    expect(source.session.relists).toHaveLength(before + 1);
    expect(deltas).toHaveLength(1);

    // The agent restarted (or the cursor fell out of its window): the whole session again.
    const again = agentSession(5);
    const againRelists = again.relists.length;
    follow.options().onSession(again);
    expect(replaced).toHaveLength(1);
    expect(source.session).not.toBe(first);
    expect(source.session.relists).toHaveLength(againRelists);
    expect(source.session.via).toBe('via agent pod pleg-doctor/pleg-doctor-agent-x7k2');
    expect(replaced[0]).toBe(source.session);
    // Deltas after it grow the new session, not the old one.
    follow.options().onDelta({ durationMs: 6_000, relists: [{ ...again.relists.at(-1)!, startMs: 5_000, endMs: 5_003 }] });
    expect(source.session.relists).toHaveLength(againRelists + 1);
    expect(first.relists).toHaveLength(before + 1);

    // A poll that goes unanswered (a frozen runtime also stops the port-forward): said while it lasts, once.
    const status: Array<string | undefined> = [];
    source.onStatus((p) => status.push(p));
    const poll = { startedAt: Date.now() - 10_000, endedAt: Date.now() };
    follow.options().onPoll!('GET /v1/session: the port-forward did not open within 10s', poll);
    follow.options().onPoll!('GET /v1/session: the port-forward did not open within 10s', poll);
    follow.options().onPoll!(undefined, poll);
    expect(status).toEqual([expect.stringMatching(/^No answer from agent pod pleg-doctor\/pleg-doctor-agent-x7k2 since \d\d:\d\d:\d\d UTC \(GET \/v1\/session: the port-forward did not open within 10s\); retrying$/u), undefined]);

    source.dispose();
    await follow.stopped;
    expect(follow.options().signal.aborted).toBe(true);
    // After closing, a late answer changes nothing.
    follow.options().onSession(agentSession(2));
    expect(replaced).toHaveLength(1);
  });

  it("the agent's first read failing is the panel's error, naming it", async () => {
    fake.follow = () => Promise.reject(new Error('403 Forbidden: cannot create pods/portforward in namespace pleg-doctor'));
    await expect(openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal)).rejects.toThrow('cannot create pods/portforward in namespace pleg-doctor');
  });

  it('a follow that fails after its first answer says so in the lacks', async () => {
    let fail!: (e: Error) => void;
    fake.follow = (_c, o) => {
      (o as FollowAgentOptions).onSession(agentSession(10));
      return new Promise<void>((_r, reject) => (fail = reject));
    };
    const source = await openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal);
    fail(new Error('403 Forbidden: cannot get pods/portforward in namespace pleg-doctor'));
    await new Promise((r) => setTimeout(r, 0));
    expect(source.session.lacks.at(-1)).toBe('The live feed stopped: 403 Forbidden: cannot get pods/portforward in namespace pleg-doctor');
  });

  it('closing the panel while the agent is asked stops the follow; the source never opens', async () => {
    const opening = new AbortController();
    let followSignal: AbortSignal | undefined;
    fake.follow = (_c, o) => {
      followSignal = (o as FollowAgentOptions).signal;
      return new Promise<void>((_r, reject) => followSignal!.addEventListener('abort', () => reject(followSignal!.reason)));
    };
    const opened = openLiveSource(services(), nodeAccess, 'c', 'n1', opening.signal);
    await vi.waitFor(() => expect(followSignal).toBeDefined());
    opening.abort(new Error('timeline closed'));
    await expect(opened).rejects.toThrow('timeline closed');
    expect(followSignal!.aborted).toBe(true);
  });

  it('no agent pod, SSH configured: the SSH feed, labelled with its target', async () => {
    pods = () => Promise.resolve([]);
    fake.settings['plegDoctor.nodeAccess.clusters'] = { c: { user: 'root' } };
    fake.settings['plegDoctor.timeline.thresholdMs'] = 10_000;
    const source = await openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal);
    expect(source.label).toBe('via SSH root@10.0.0.5:22');
    expect(source.readyWatchedHere).toBe(false);
    expect(fake.follows).toEqual([]);
    const feed = fake.feeds[0] as LiveFeedRequest;
    expect(feed.access?.clusters.clusters['c']).toBeDefined();
    // The model runs here, with the threshold setting.
    expect(feed.settings.thresholdMs).toBe(10_000);
    source.dispose();
    expect(feed.signal.aborted).toBe(true);
  });

  it("neither: the kubelet's metrics only, the label and the lacks saying why; the ways setting is obeyed", async () => {
    pods = () => Promise.resolve([]);
    fake.settings['plegDoctor.timeline.thresholdMs'] = 10_000;
    const source = await openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal);
    expect(source.label).toMatch(/^through the API server only: the kubelet's metrics and the Ready condition \(no agent \(no .*\); no SSH \(context "c" has no entry in plegDoctor\.nodeAccess\.clusters\)/);
    const feed = fake.feeds[0] as LiveFeedRequest;
    expect(feed.access).toBeUndefined();
    expect(feed.noSshReason).toMatch(/^No node access \(no agent .*no SSH \(context "c" has no entry in plegDoctor\.nodeAccess\.clusters\).*\): the timeline shows the metrics of the kubelet/);
    // No model runs: the kubelet's own threshold.
    expect(feed.settings.thresholdMs).toBe(180_000);
    source.dispose();

    // SSH only: the agent is not even looked for.
    fake.settings['plegDoctor.nodeAccess.ways'] = ['ssh'];
    fake.settings['plegDoctor.nodeAccess.clusters'] = { c: { user: 'root' } };
    listed = [];
    pods = () => Promise.resolve([AGENT_POD]);
    const ssh = await openLiveSource(services(), nodeAccess, 'c', 'n1', new AbortController().signal);
    expect(listed).toEqual([]);
    expect(ssh.label).toBe('via SSH root@10.0.0.5:22');
    ssh.dispose();
  });
});
