// The "PLEG What-if Timeline" panel: the webview asks for a simulation, a worker thread runs the pure
// simulator (never the extension host's thread) and the host answers. One panel at a time; it survives
// a window reload through the serializer. Nothing is posted to the webview before it says `ready`.

import * as vscode from 'vscode';
import { DEFAULT_WHAT_IF } from '../../core/whatIf/whatIfTimeline';
import { CommandIds } from '../../shared/commandIds';
import { parseWebviewMessage, PROTOCOL_VERSION } from '../../shared/panelProtocol';
import type { HostToWebview, WebviewToHost } from '../../shared/panelProtocol';
import { t } from '../l10n';
import type { Services } from '../services';
import { describeMessageProblem, webviewStrings } from './timelineStrings';
import { SimRunCancelledError, SimWorkerClient } from './simWorkerClient';
import { webviewHtml } from './webviewHtml';

export const TIMELINE_VIEW_TYPE = 'plegDoctor.timeline';

/** Only the built webview may be loaded into the panel. */
export function timelineWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

class TimelinePanel {
  private static current: TimelinePanel | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly sims: SimWorkerClient;
  private disposed = false;
  private ready = false;

  private constructor(
    private readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    private readonly services: Services,
  ) {
    const root = vscode.Uri.joinPath(extensionUri, 'dist', 'webview');
    this.sims = new SimWorkerClient(vscode.Uri.joinPath(extensionUri, 'dist', 'simWorker.js').fsPath);
    panel.webview.options = timelineWebviewOptions(extensionUri);
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
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, t('PLEG What-if Timeline'), vscode.ViewColumn.Active, timelineWebviewOptions(extensionUri));
    TimelinePanel.current = new TimelinePanel(panel, extensionUri, services);
  }

  static revive(panel: vscode.WebviewPanel, extensionUri: vscode.Uri, services: Services): void {
    TimelinePanel.current?.dispose();
    TimelinePanel.current = new TimelinePanel(panel, extensionUri, services);
  }

  private post(message: HostToWebview): void {
    if (this.disposed || (!this.ready && message.type !== 'init')) return;
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      const text = describeMessageProblem(t, parsed.problem);
      this.services.logger.warn(`timeline panel: refused a message (${text}): ${JSON.stringify(raw)?.slice(0, 200) ?? String(raw)}`);
      // A webview that did say `ready` sees why its request went nowhere; one whose `ready` was refused
      // (another protocol version) sees why the panel stays empty.
      if (parsed.problem.kind === 'protocolVersion') this.ready = true;
      this.post({ type: 'error', requestId: parsed.requestId, message: text });
      return;
    }
    this.handle(parsed.message);
  }

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'init', protocolVersion: PROTOCOL_VERSION, strings: webviewStrings(t), params: DEFAULT_WHAT_IF });
        return;
      case 'cancel':
        this.sims.cancel();
        return;
      case 'simulate':
        void this.simulate(message.requestId, message.params);
        return;
    }
  }

  private async simulate(requestId: number, params: Extract<WebviewToHost, { type: 'simulate' }>['params']): Promise<void> {
    try {
      const { data, elapsedMs } = await this.sims.run(params);
      this.services.logger.debug(`what-if simulation of ${params.durationS} s took ${elapsedMs} ms in a worker`);
      this.post({ type: 'timeline', requestId, data });
    } catch (error) {
      // A newer request or a closed panel cancelled this one: the webview no longer waits for it.
      if (error instanceof SimRunCancelledError) return;
      const text = error instanceof Error ? error.message : String(error);
      this.services.logger.error(`what-if simulation failed: ${text}`);
      this.post({ type: 'error', requestId, message: t('The simulation failed: {0}', text) });
    }
  }

  private dispose(): void {
    // panel.dispose() fires onDidDispose, which calls back here.
    if (this.disposed) return;
    this.disposed = true;
    this.sims.dispose();
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
