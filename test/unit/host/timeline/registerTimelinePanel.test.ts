// The timeline panels through their real registration, with a fake `vscode` holding just what they
// touch: one panel per node (re-opening focuses it), the what-if panel on its own, the serializer
// bringing a node's panel back from the state its webview saved, and the session reaching the page only
// after its `ready`.

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { applySessionDelta, type SessionDelta, type TimelineSession } from '../../../../src/core/timeline/session';
import { recordedSession } from '../../../support/timelineSession';

interface FakePanel {
  title: string;
  revealed: number;
  disposed: boolean;
  posted: Array<Record<string, unknown>>;
  receive(message: unknown): void;
  dispose(): void;
  webview: Record<string, unknown>;
}

const fake = vi.hoisted(() => {
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const created: FakePanel[] = [];
  let serializer: { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> } | undefined;
  const makePanel = (title: string): FakePanel => {
    let onMessage: (m: unknown) => void = () => undefined;
    let onDispose: () => void = () => undefined;
    const panel: FakePanel = {
      title,
      revealed: 0,
      disposed: false,
      posted: [],
      receive: (m) => onMessage(m),
      dispose: () => {
        if (panel.disposed) return;
        panel.disposed = true;
        onDispose();
      },
      webview: {
        cspSource: 'vscode-resource:',
        options: {},
        html: '',
        asWebviewUri: (u: unknown) => u,
        onDidReceiveMessage: (l: (m: unknown) => void) => {
          onMessage = l;
          return { dispose: () => undefined };
        },
        postMessage: (m: Record<string, unknown>) => {
          panel.posted.push(m);
          return Promise.resolve(true);
        },
      },
    };
    Object.assign(panel, {
      reveal: () => {
        panel.revealed++;
      },
      onDidDispose: (l: () => void) => {
        onDispose = l;
        return { dispose: () => undefined };
      },
    });
    return panel;
  };
  const clusters: Record<string, unknown> = {};
  return { commands, created, clusters, makePanel, getSerializer: () => serializer, setSerializer: (s: typeof serializer) => (serializer = s) };
});

vi.mock('vscode', () => {
  class Uri {
    constructor(readonly fsPath: string) {}
    static file(p: string): Uri {
      return new Uri(p);
    }
    static joinPath(base: Uri, ...parts: string[]): Uri {
      return new Uri([base.fsPath, ...parts].join('/'));
    }
    toString(): string {
      return `file://${this.fsPath}`;
    }
  }
  return {
    Uri,
    ViewColumn: { Active: -1 },
    l10n: { t: (m: string, ...args: unknown[]) => args.reduce<string>((s, a, i) => s.replace(`{${i}}`, String(a)), m) },
    commands: {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        fake.commands.set(id, fn);
        return { dispose: () => fake.commands.delete(id) };
      },
    },
    window: {
      createWebviewPanel: (_type: string, title: string) => {
        const panel = fake.makePanel(title);
        fake.created.push(panel);
        return panel;
      },
      showOpenDialog: () => Promise.resolve([new Uri('/tmp/x.json')]),
      registerWebviewPanelSerializer: (_type: string, s: { deserializeWebviewPanel(panel: unknown, state: unknown): Promise<void> }) => {
        fake.setSerializer(s);
        return { dispose: () => undefined };
      },
    },
    // Node access settings: prod-eu has an entry (its demo panel goes live), the rest have none.
    workspace: { getConfiguration: () => ({ get: (key: string) => (key === 'clusters' ? fake.clusters : undefined) }) },
  };
});

const { registerTimelinePanel } = await import('../../../../src/host/timeline/registerTimelinePanel');
const { panels } = await import('../../../../src/host/timeline/timelinePanel');
const { CommandIds } = await import('../../../../src/shared/commandIds');
const { PROTOCOL_VERSION } = await import('../../../../src/shared/timeline/panelProtocol');

const logs: string[] = [];
const logger = { trace: () => undefined, debug: (m: string) => logs.push(m), info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: unknown) => logs.push(String(m)) };
let services = { logger, session: { kube: undefined as unknown, model: { groups: () => [] } } };
const opened: Array<{ context: string; node: string; disposed: boolean; signal: AbortSignal; replace: (s: TimelineSession) => void; delta: (d: SessionDelta) => void; status: (p: string | undefined) => void }> = [];
/** What the fake model says of any session; a test changes it to stand for time passing. */
let prediction = 'predicted';
/** What the next openLive waits for before it resolves (the way being chosen); resolved at once by default. */
let choosing: Promise<void> = Promise.resolve();
/** Whether the next openLive's Ready condition is the editor's own watch's (the agent's way). */
let readyWatchedHere = false;

function liveSession(node: string): TimelineSession {
  const s = recordedSession({ durationS: 20, pods: 3 });
  s.node = node;
  return s;
}

const sources = {
  openLive: async (_s: unknown, _n: unknown, context: string, node: string, signal: AbortSignal) => {
    let session = liveSession(node);
    const deltaListeners = new Set<(d: SessionDelta) => void>();
    const replaceListeners = new Set<(s: TimelineSession) => void>();
    const statusListeners = new Set<(p: string | undefined) => void>();
    const record = {
      context,
      node,
      disposed: false,
      signal,
      replace: (s: TimelineSession) => {
        session = s;
        for (const l of replaceListeners) l(s);
      },
      delta: (d: SessionDelta) => {
        // As LiveSession: applied before the listeners run.
        applySessionDelta(session, d);
        for (const l of deltaListeners) l(d);
      },
      status: (p: string | undefined) => {
        for (const l of statusListeners) l(p);
      },
    };
    opened.push(record);
    await choosing;
    if (signal.aborted) throw signal.reason;
    return {
      get session() {
        return session;
      },
      label: `via agent pod pleg-doctor/agent-of-${node}`,
      readyWatchedHere,
      onDelta: (l: (d: SessionDelta) => void) => (deltaListeners.add(l), { dispose: () => deltaListeners.delete(l) }),
      onReplace: (l: (s: TimelineSession) => void) => (replaceListeners.add(l), { dispose: () => replaceListeners.delete(l) }),
      onStatus: (l: (p: string | undefined) => void) => (statusListeners.add(l), { dispose: () => statusListeners.delete(l) }),
      dispose: () => (record.disposed = true),
    };
  },
  loadRecording: () => Promise.reject(new Error('no recordings here')),
  predict: () => prediction,
};

const nodeElement = (context: string, name: string): unknown => ({ kind: 'node', context, name });
const run = async (id: string, ...args: unknown[]): Promise<void> => {
  await fake.commands.get(id)!(...args);
};
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  for (const p of panels.all()) (p as unknown as { dispose(): void }).dispose();
  fake.created.length = 0;
  fake.commands.clear();
  opened.length = 0;
  choosing = Promise.resolve();
  readyWatchedHere = false;
  prediction = 'predicted';
  services = { logger, session: { kube: undefined, model: { groups: () => [] } } };
  for (const k of Object.keys(fake.clusters)) delete fake.clusters[k];
  registerTimelinePanel({ ...(services as object), context: { extensionUri: { fsPath: '/ext' } }, nodeAccess: {} } as never, sources as never);
});

describe('timeline panels', () => {
  it('one panel per node: opening the same node again focuses its panel, another node gets its own', async () => {
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    expect(fake.created).toHaveLength(1);
    expect(fake.created[0]!.revealed).toBe(1);
    expect(fake.created[0]!.title).toBe('PLEG Timeline: node-07');
    // The same node name in another context is another node.
    await run(CommandIds.openTimeline, nodeElement('staging', 'node-07'));
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-08'));
    expect(fake.created).toHaveLength(3);
    expect(opened.map((o) => `${o.context}/${o.node}`)).toEqual(['prod-eu/node-07', 'staging/node-07', 'prod-eu/node-08']);
    expect(panels.size).toBe(3);
  });

  it('a closed panel stops its feed and a new one opens next time', async () => {
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    fake.created[0]!.dispose();
    expect(opened[0]!.disposed).toBe(true);
    expect(panels.size).toBe(0);
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    expect(fake.created).toHaveLength(2);
    expect(fake.created[1]!.revealed).toBe(0);
  });

  it('the what-if panel is one of its own, beside the node panels', async () => {
    await run(CommandIds.openWhatIfTimeline);
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await run(CommandIds.openWhatIfTimeline);
    expect(fake.created.map((p) => p.title)).toEqual(['PLEG What-if Timeline', 'PLEG Timeline: node-07']);
    expect(fake.created[0]!.revealed).toBe(1);
  });

  it('nothing reaches the page before `ready`; then init names the node and the session follows', async () => {
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    const panel = fake.created[0]!;
    expect(panel.posted).toEqual([]);
    panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    expect(panel.posted.map((m) => m['type'])).toEqual(['init', 'session']);
    expect(panel.posted[0]).toMatchObject({ target: { context: 'prod-eu', node: 'node-07' }, recording: null });
    expect(panel.posted[1]).toMatchObject({ mode: 'live', prediction: 'predicted', feed: 'running', headline: { verdict: 'ready' } });
    // Paused: the host says so; resumed: the whole session again.
    panel.receive({ type: 'pause', requestId: 1 });
    panel.receive({ type: 'resume', requestId: 2 });
    expect(panel.posted.slice(2).map((m) => [m['type'], m['feed']])).toEqual([
      ['feedState', 'paused'],
      ['session', 'running'],
    ]);
    // A forged message is refused with a reason, not obeyed.
    panel.receive({ type: 'export', requestId: 3, format: 'exe' });
    expect(panel.posted.at(-1)).toEqual({ type: 'error', requestId: 3, message: 'The panel sent a message whose field format is not "json" or "csv".' });
  });

  it("the mode line names the source's way; a reread of the whole session (the agent's 410) replaces the page's, paused or not", async () => {
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    const panel = fake.created[0]!;
    panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    expect(panel.posted[1]).toMatchObject({ type: 'session', mode: 'live', label: 'via agent pod pleg-doctor/agent-of-node-07' });
    const source = opened[0]!;
    const again = recordedSession({ durationS: 5, pods: 2 });
    again.node = 'node-07';
    source.replace(again);
    expect(panel.posted.at(-1)).toEqual({ type: 'sessionReplaced', session: again, headline: expect.objectContaining({ verdict: 'ready' }), prediction: 'predicted' });
    // Deltas after it are sent as before.
    source.delta({ durationMs: 6_000 });
    expect(panel.posted.at(-1)).toMatchObject({ type: 'sessionDelta', delta: { durationMs: 6_000 } });
    // Paused: neither is sent; resuming sends the whole session, the replaced one.
    panel.receive({ type: 'pause', requestId: 1 });
    const third = recordedSession({ durationS: 3, pods: 1 });
    third.node = 'node-07';
    source.replace(third);
    source.delta({ durationMs: 4_000 });
    expect(panel.posted.at(-1)).toMatchObject({ type: 'feedState', feed: 'paused' });
    panel.receive({ type: 'resume', requestId: 2 });
    expect(panel.posted.at(-1)).toMatchObject({ type: 'session', session: third, feed: 'running' });
  });

  it('a live panel judges its session again as time passes with no new data, and says while its source is silent', async () => {
    vi.useFakeTimers();
    try {
      await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
      await vi.advanceTimersByTimeAsync(0);
      const panel = fake.created[0]!;
      panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
      const sent = panel.posted.length;
      // Nothing new to say: nothing sent.
      await vi.advanceTimersByTimeAsync(3_000);
      expect(panel.posted).toHaveLength(sent);
      // The last relist ages past its budget while no delta arrives: the new words within a second.
      prediction = 'at this rate the threshold is crossed at 10:03:00 UTC (relists are failing or not finishing)';
      await vi.advanceTimersByTimeAsync(1_000);
      expect(panel.posted.slice(sent)).toEqual([{ type: 'sessionNow', headline: expect.objectContaining({ verdict: 'ready' }), prediction }]);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(panel.posted).toHaveLength(sent + 1);

      const source = opened[0]!;
      const silentFrom = panel.posted.length;
      source.status('No answer from agent pod pleg-doctor/agent-of-node-07 since 10:00:05 UTC (timeout); retrying');
      // The trouble, and the headline dated at the last data instead of "now", at once.
      expect(panel.posted.slice(silentFrom)).toEqual([
        { type: 'feedState', feed: 'running', message: 'No answer from agent pod pleg-doctor/agent-of-node-07 since 10:00:05 UTC (timeout); retrying' },
        { type: 'sessionNow', headline: expect.objectContaining({ verdict: 'ready', when: expect.stringMatching(/^as of \d\d:\d\d:\d\d UTC, when its source last answered \(Ready=True since before /u) }), prediction },
      ]);
      // A page rebuilt meanwhile gets the trouble after the session.
      panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
      expect(panel.posted.slice(-2).map((m) => [m['type'], m['message']])).toEqual([
        ['session', undefined],
        ['feedState', 'No answer from agent pod pleg-doctor/agent-of-node-07 since 10:00:05 UTC (timeout); retrying'],
      ]);
      source.status(undefined);
      expect(panel.posted.slice(-2)).toEqual([
        { type: 'feedState', feed: 'running' },
        { type: 'sessionNow', headline: expect.objectContaining({ when: expect.stringMatching(/^now \(Ready=True since before /u) }), prediction },
      ]);
      // Closed: no more judging.
      panel.dispose();
      prediction = 'PLEG is unhealthy since 10:03:00 UTC';
      const closed = panel.posted.length;
      await vi.advanceTimersByTimeAsync(3_000);
      expect(panel.posted).toHaveLength(closed);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a silent source whose Ready condition the editor watches itself: the trouble is said, the headline stays now", async () => {
    readyWatchedHere = true;
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    const panel = fake.created[0]!;
    panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const from = panel.posted.length;
    opened[0]!.status('No answer from agent pod pleg-doctor/agent-of-node-07 since 10:00:05 UTC (timeout); retrying');
    expect(panel.posted.slice(from)).toEqual([{ type: 'feedState', feed: 'running', message: 'No answer from agent pod pleg-doctor/agent-of-node-07 since 10:00:05 UTC (timeout); retrying' }]);
    opened[0]!.delta({ durationMs: 30_000, ready: [{ atMs: 30_000, status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' }] });
    expect(panel.posted.at(-1)).toMatchObject({ type: 'sessionDelta', headline: { verdict: 'runtime-down', when: expect.stringMatching(/^now \(Ready=False since /u), message: 'container runtime is down' } });
    panel.dispose();
  });

  it('closing the panel while its way is still being chosen aborts the opening and leaves no feed', async () => {
    let choose!: () => void;
    choosing = new Promise<void>((r) => (choose = r));
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    const source = opened[0]!;
    expect(source.signal.aborted).toBe(false);
    fake.created[0]!.dispose();
    expect(source.signal.aborted).toBe(true);
    choose();
    await settle();
    // The open rejected (aborted): nothing reached the closed panel, no error was logged for it.
    expect(fake.created[0]!.posted).toEqual([]);
    expect(logs.filter((l) => l.includes('could not') || l.includes('timeline closed'))).toEqual([]);
  });

  it('the headline is the classifier\'s verdict on the live session\'s last Ready condition, said of now', async () => {
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    await settle();
    const panel = fake.created[0]!;
    panel.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    const headline = panel.posted[1]!['headline'] as { verdict: string; title: string; when: string };
    // liveSession's last Ready condition is True (recordedSession without a freeze).
    expect(headline).toMatchObject({ verdict: 'ready', title: 'Ready', when: expect.stringMatching(/^now \(Ready=True since before \d\d:\d\d:\d\d UTC, when the session began\)$/) });
  });

  it('the serializer restores a node panel from the state its page saved, under the same key', async () => {
    const restored = fake.makePanel('restored');
    await fake.getSerializer()!.deserializeWebviewPanel(restored, { target: { context: 'prod-eu', node: 'node-07' }, recording: null, pane: 'timeline' });
    await settle();
    expect(opened.map((o) => o.node)).toEqual(['node-07']);
    expect(restored.title).toBe('PLEG Timeline: node-07');
    // Opening the node now focuses the restored panel.
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'node-07'));
    expect(fake.created).toHaveLength(0);
    expect((restored as unknown as { revealed: number }).revealed).toBe(1);
  });

  it('a restored page with unusable state gets the what-if panel, and a failing feed is shown in the panel', async () => {
    const restored = fake.makePanel('restored');
    await fake.getSerializer()!.deserializeWebviewPanel(restored, { target: { context: 42 } });
    expect(restored.title).toBe('PLEG What-if Timeline');

    // The file picked in the dialog is replayed in a panel keyed by its path; a restored page with that
    // recording in its state is the same panel.
    await run(CommandIds.openTimelineRecording);
    await settle();
    const recording = fake.created[0]!;
    expect(recording.title).toBe('PLEG Timeline: x.json');
    recording.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    expect(recording.posted.map((m) => m['type'])).toEqual(['init', 'feedState']);
    expect(recording.posted[0]).toMatchObject({ target: null, recording: '/tmp/x.json' });
    expect(recording.posted[1]).toMatchObject({ feed: 'failed', message: 'The timeline could not start: no recordings here' });
    const again = fake.makePanel('again');
    await fake.getSerializer()!.deserializeWebviewPanel(again, { target: null, recording: '/tmp/x.json' });
    expect(recording.disposed).toBe(true);
    expect(panels.size).toBe(2);
  });
});
