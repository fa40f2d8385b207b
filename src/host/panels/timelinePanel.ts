// The "PLEG What-if Timeline" panel: the webview asks for a simulation, the host runs the pure simulator
// and answers. One panel at a time; it survives a window reload through the serializer.

import * as vscode from 'vscode';
import { DEFAULT_WHAT_IF, runWhatIf } from '../../core/whatIf/whatIfTimeline';
import { CommandIds } from '../../shared/commandIds';
import { isWebviewMessage } from '../../shared/panelProtocol';
import type { HostToWebview, WebviewToHost } from '../../shared/panelProtocol';
import { t } from '../l10n';
import type { Services } from '../services';
import { webviewHtml } from './webviewHtml';

export const TIMELINE_VIEW_TYPE = 'plegDoctor.timeline';

function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

function strings(): Record<string, string> {
  return {
    title: t('PLEG What-if Timeline'),
    run: t('Simulate'),
    running: t('Simulating…'),
    notANumber: t('not a number'),
    chartLabel: t('Relist duration of every relist, against the PLEG health threshold'),
    'axis.duration': t('relist duration (s)'),
    'axis.threshold': t('threshold'),
    'axis.failed': t('failed relist'),
    'axis.time': t('time (s)'),
    summary: t('{relists} relists, {failed} failed, longest {longest} s'),
    'param.pods': t('Pods'),
    'param.containersPerPod': t('Containers per pod'),
    'param.rpcLatencyMs': t('CRI call latency (ms)'),
    'param.changedPodsPerRelist': t('Changed pods per relist'),
    'param.freezeAtS': t('Freeze runtime at (s)'),
    'param.freezeForS': t('Freeze for (s, 0 = none)'),
    'param.durationS': t('Simulated time (s)'),
    'param.kubelet': t('Kubelet'),
  };
}

class TimelinePanel {
  private static current: TimelinePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly services: Services,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    panel.webview.options = webviewOptions(extensionUri);
    panel.webview.html = webviewHtml(panel.webview, {
      title: t('PLEG What-if Timeline'),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.js')),
      styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.css'))],
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  static show(extensionUri: vscode.Uri, services: Services): void {
    if (TimelinePanel.current) {
      TimelinePanel.current.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, t('PLEG What-if Timeline'), vscode.ViewColumn.Active, webviewOptions(extensionUri));
    TimelinePanel.current = new TimelinePanel(panel, extensionUri, services);
  }

  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, services: Services): void {
    TimelinePanel.current?.dispose();
    TimelinePanel.current = new TimelinePanel(panel, extensionUri, services);
  }

  private post(message: HostToWebview): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(message: unknown): void {
    if (!isWebviewMessage(message)) {
      this.services.logger.warn(`timeline panel: ignored a malformed message ${JSON.stringify(message).slice(0, 200)}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'ready':
        this.post({ type: 'init', strings: strings(), params: DEFAULT_WHAT_IF });
        return;
      case 'simulate':
        try {
          const started = Date.now();
          const data = runWhatIf(message.params);
          this.services.logger.debug(`what-if simulation of ${message.params.durationS} s took ${Date.now() - started} ms`);
          this.post({ type: 'timeline', requestId: message.requestId, data });
        } catch (error) {
          const text = error instanceof Error ? error.message : String(error);
          this.services.logger.error(`what-if simulation failed: ${text}`);
          this.post({ type: 'error', requestId: message.requestId, message: text });
        }
        return;
    }
  }

  private dispose(): void {
    // panel.dispose() fires onDidDispose, which calls back here.
    if (this.disposed) return;
    this.disposed = true;
    if (TimelinePanel.current === this) TimelinePanel.current = undefined;
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

export function registerTimelinePanel(context: vscode.ExtensionContext, services: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(CommandIds.openWhatIfTimeline, () => TimelinePanel.show(context.extensionUri, services)),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => {
        TimelinePanel.revive(panel, context.extensionUri, services);
      },
    }),
  ];
}
