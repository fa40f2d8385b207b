// The timeline commands: Open PLEG Timeline (a node: its live feed, the demo's nodes too), Open PLEG
// Timeline Recording… (a file or evidence folder, replayed), Open PLEG What-if Timeline (no node), and
// the serializer that restores each of these panels after a window reload.

import * as vscode from 'vscode';
import { CommandIds } from '../../shared/commandIds';
import { t } from '../l10n';
import { pickNode } from '../nodeAccess/nodePicker';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import type { Services } from '../services';
import type { TreeElement } from '../views/treeElements';
import { nodeKey, recordingKey, WHAT_IF_KEY } from './panelRegistry';
import { restoredPanel } from './panelState';
import { liveFeed, replayFeed } from './sessionFeed';
import { revivePanel, showPanel, TIMELINE_VIEW_TYPE, type PanelContent, type PanelDeps } from './timelinePanel';
import { sessionHeadline } from './timelineHeadline';
import { timelineSources, type TimelineSources } from './timelineSources';

function whatIfContent(): PanelContent {
  return { key: WHAT_IF_KEY, title: t('PLEG What-if Timeline'), target: null, recording: null };
}

function nodeContent(context: string, node: string, services: Services, nodeAccess: NodeAccessRuntime, sources: TimelineSources): PanelContent {
  return {
    key: nodeKey(context, node),
    title: t('PLEG Timeline: {0}', node),
    target: { context, node },
    recording: null,
    // The way to the node's side is chosen when the panel opens (the agent pod, else SSH) and named in its
    // label. The built-in demo's API stand-in serves a kubelet behind its node proxy (src/demo/kubeletEndpoints.ts),
    // the one Diagnose Node reads: its nodes, with neither, get the kubelet's metrics and the Ready condition.
    openFeed: async (signal) => {
      services.logger.info(`timeline of ${node} (context ${context}): starting the live feed`);
      return liveFeed(await sources.openLive(services, nodeAccess, context, node, signal));
    },
  };
}

function recordingContent(path: string, sources: TimelineSources): PanelContent {
  const name = path.split(/[\\/]/u).pop() ?? path;
  return {
    key: recordingKey(path),
    title: t('PLEG Timeline: {0}', name),
    target: null,
    recording: path,
    openFeed: async () => {
      const { session, kind } = await sources.loadRecording(path);
      return replayFeed(session, t('the recording {0} ({1})', name, kind));
    },
  };
}

async function pickRecording(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: true,
    canSelectFolders: true,
    canSelectMany: false,
    title: t('Open PLEG Timeline Recording'),
    openLabel: t('Replay'),
    filters: { [t('Timeline recordings (JSON)')]: ['json'] },
  });
  return picked?.[0]?.fsPath;
}

export function registerTimelinePanel(services: Services, sources: TimelineSources = timelineSources): vscode.Disposable[] {
  const { context, nodeAccess } = services;
  const deps: PanelDeps = { extensionUri: context.extensionUri, services, predict: (session, live, silent) => sources.predict(session, live, silent), headline: (session, live, silent) => sessionHeadline(session, live, t, silent) };
  return [
    vscode.commands.registerCommand(CommandIds.openWhatIfTimeline, () => {
      showPanel(whatIfContent(), deps);
    }),
    vscode.commands.registerCommand(CommandIds.openTimeline, async (element?: TreeElement) => {
      const entry = element?.kind === 'node' ? element : await pickNode(services.session, t('Open PLEG Timeline'));
      if (entry === undefined) return;
      showPanel(nodeContent(entry.context, entry.name, services, nodeAccess, sources), deps);
    }),
    vscode.commands.registerCommand(CommandIds.openTimelineRecording, async (uri?: vscode.Uri) => {
      const path = uri instanceof vscode.Uri ? uri.fsPath : await pickRecording();
      if (path === undefined) return;
      showPanel(recordingContent(path, sources), deps);
    }),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state: unknown) => {
        const restored = restoredPanel(state);
        const content =
          restored.recording !== undefined
            ? recordingContent(restored.recording, sources)
            : restored.target !== null
              ? nodeContent(restored.target.context, restored.target.node, services, nodeAccess, sources)
              : whatIfContent();
        services.logger.debug(`timeline panel restored after a reload: ${content.key}`);
        revivePanel(panel, content, deps);
      },
    }),
  ];
}
