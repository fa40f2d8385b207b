// The timeline panels through their real registration, with a fake `vscode` holding just what they
// touch: one panel per node (re-opening focuses it), the what-if panel on its own, the serializer
// bringing a node's panel back from the state its webview saved, and the session reaching the page only
// after its `ready`.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { demoKubeconfigYaml } from '../../../../src/demo/demoKubeconfig';
import type { TimelineSession } from '../../../../src/core/timeline/session';
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
// Every context reads as the demo's (its kubeconfig cluster carries the demo's extension).
const demoKubeconfig = join(mkdtempSync(join(tmpdir(), 'timeline-demo-')), 'kubeconfig');
writeFileSync(demoKubeconfig, demoKubeconfigYaml([{ context: 'prod-eu', server: 'http://127.0.0.1:1' }, { context: 'staging', server: 'http://127.0.0.1:2' }]));
const demoKube = { listContexts: () => [{ name: 'prod-eu', source: demoKubeconfig }, { name: 'staging', source: demoKubeconfig }] };
let services = { logger, session: { kube: undefined as unknown, model: { groups: () => [] } } };
const opened: Array<{ context: string; node: string; disposed: boolean }> = [];

function liveSession(node: string): TimelineSession {
  const s = recordedSession({ durationS: 20, pods: 3 });
  s.node = node;
  return s;
}

const sources = {
  openLive: (_s: unknown, _n: unknown, context: string, node: string) => {
    const record = { context, node, disposed: false };
    opened.push(record);
    return { session: liveSession(node), onDelta: () => ({ dispose: () => undefined }), dispose: () => (record.disposed = true) };
  },
  loadRecording: () => Promise.reject(new Error('no recordings here')),
  predict: () => 'predicted',
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

  it("the demo's nodes run the live feed through the API server (their kubelet's metrics), labelled so; with node access, over SSH too", async () => {
    services.session.kube = demoKube;
    fake.clusters['staging'] = { user: 'root' };
    await run(CommandIds.openTimeline, nodeElement('prod-eu', 'prod-eu-node-07'));
    await run(CommandIds.openTimeline, nodeElement('staging', 'node-stack-01'));
    await settle();
    expect(opened.map((o) => `${o.context}/${o.node}`)).toEqual(['prod-eu/prod-eu-node-07', 'staging/node-stack-01']);
    const [demo, stack] = fake.created;
    demo!.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    stack!.receive({ type: 'ready', protocolVersion: PROTOCOL_VERSION });
    expect(demo!.posted[1]).toMatchObject({ type: 'session', mode: 'live', feed: 'running', label: "prod-eu-node-07 in prod-eu, through the API server (no SSH: the kubelet's metrics and the Ready condition)" });
    expect(stack!.posted[1]).toMatchObject({ type: 'session', mode: 'live', feed: 'running', label: 'node-stack-01 in staging, over SSH and the API server' });
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
