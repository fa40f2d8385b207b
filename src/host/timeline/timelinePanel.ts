// The PLEG timeline panel. One panel per node ("context/node"), per replayed recording, and one for the
// what-if alone. A node panel has two panes: its session (live, or a replay) and the what-if simulator.
// The what-if runs in a worker thread (never the extension host's thread). Nothing is posted to the
// webview before it says `ready`; the webview keeps its target in setState so the serializer brings the
// same panel back after a reload.

import * as vscode from 'vscode';
import type { TimelineSession } from '../../core/timeline/session';
import { DEFAULT_WHAT_IF } from '../../core/timeline/whatIf/whatIfTimeline';
import { parseWebviewMessage, PROTOCOL_VERSION } from '../../shared/timeline/panelProtocol';
import type { ExportFormat, FeedState, HostToWebview, PanelTarget, SessionHeadline, WebviewToHost } from '../../shared/timeline/panelProtocol';
import { t } from '../l10n';
import type { Services } from '../services';
import { PanelRegistry, type RegisteredPanel } from './panelRegistry';
import { sessionCsv } from './sessionCsv';
import type { SessionFeed, Subscription } from './sessionFeed';
import { describeMessageProblem, webviewStrings } from './timelineStrings';
import { SimRunCancelledError, SimWorkerClient } from './simWorkerClient';
import { webviewHtml } from './webviewHtml';
import { errorText } from '../../core/util/errorText';

export const TIMELINE_VIEW_TYPE = 'plegDoctor.timeline';
/** How often a live session is judged again without new data (the sentence states whole seconds). */
export const JUDGE_EVERY_MS = 1_000;

/** Only the built webview may be loaded into the panel. */
export function timelineWebviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')],
  };
}

export interface PanelDeps {
  extensionUri: vscode.Uri;
  services: Services;
  /** The model's sentence about the threshold for the session as it is now (A's predictThreshold); `silent`: the live source is not answering. */
  predict(session: TimelineSession, live: boolean, silent: boolean): string | null;
  /**
   * The node's state now (a replay: at its end), in the classifier's words (sessionHeadline); `silent`: the
   * live source is not answering, so the state is dated at its last data.
   */
  headline(session: TimelineSession, live: boolean, silent: boolean): SessionHeadline;
}

/** What a panel shows besides the what-if: nothing, or a node's session from a feed opened on demand. */
export interface PanelContent {
  key: string;
  title: string;
  target: PanelTarget | null;
  recording: string | null;
  /**
   * Opens the session feed; absent for the what-if-only panel. Errors are shown in the panel. `signal`
   * aborts when the panel closes while the feed is still opening (e.g. looking for the node's agent pod).
   */
  openFeed?: (signal: AbortSignal) => Promise<SessionFeed>;
}

export const panels = new PanelRegistry<TimelinePanel>();

export class TimelinePanel implements RegisteredPanel {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly sims: SimWorkerClient;
  private feed: SessionFeed | undefined;
  private feedSubscriptions: Subscription[] = [];
  /** Aborted when the panel closes: a feed still opening stops there. */
  private readonly opening = new AbortController();
  /** The live source's trouble in words (the agent not answering), shown with the feed state. */
  private problem: string | undefined;
  /** The headline and prediction last sent, to send a re-judgement only when it says something new. */
  private lastJudged = '';
  private judgeTimer: ReturnType<typeof setInterval> | undefined;
  private feedError: string | undefined;
  private feedOpening: Promise<void> | undefined;
  private paused = false;
  private disposed = false;
  private ready = false;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly content: PanelContent,
    private readonly deps: PanelDeps,
  ) {
    const root = vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webview');
    this.sims = new SimWorkerClient(vscode.Uri.joinPath(deps.extensionUri, 'dist', 'simWorker.js').fsPath);
    panel.title = content.title;
    panel.webview.options = timelineWebviewOptions(deps.extensionUri);
    panel.webview.html = webviewHtml(panel.webview, {
      title: content.title,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.js')),
      styleUris: [panel.webview.asWebviewUri(vscode.Uri.joinPath(root, 'timeline.css'))],
    });
    this.disposables.push(
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message)),
      panel.onDidDispose(() => this.dispose()),
    );
    // The feed starts with the panel, not with the page: it records while the page loads.
    if (content.openFeed) this.feedOpening = this.startFeed(content.openFeed);
  }

  reveal(): void {
    this.panel.reveal();
  }

  private async startFeed(open: (signal: AbortSignal) => Promise<SessionFeed>): Promise<void> {
    try {
      const feed = await open(this.opening.signal);
      if (this.disposed) {
        feed.dispose();
        return;
      }
      this.feed = feed;
      this.feedSubscriptions.push(
        feed.onDelta((delta) => {
          if (!this.paused) this.post({ type: 'sessionDelta', delta, ...this.judged(feed.session, true) });
        }),
        // While paused nothing is sent: resuming sends the whole session, the replaced one by then.
        feed.onReplace((session) => {
          if (!this.paused) this.post({ type: 'sessionReplaced', session, ...this.judged(session, true) });
        }),
        feed.onStatus((problem) => {
          this.problem = problem;
          if (this.paused) return;
          this.postFeedState();
          // The headline's "now" becomes "as of its last data" (and back) at once, not at the next tick.
          this.judgeNow();
        }),
      );
      // A live session's age grows with no new data: the words follow the clock, not only the feed.
      if (feed.mode === 'live') this.judgeTimer = setInterval(() => this.judgeNow(), JUDGE_EVERY_MS);
      this.sendSession();
    } catch (error) {
      if (this.disposed) return;
      this.feedError = errorText(error);
      this.deps.services.logger.error(`timeline of ${this.content.title}: ${this.feedError}`);
      this.post({ type: 'feedState', feed: 'failed', message: t('The timeline could not start: {0}', this.feedError) });
    }
  }

  private feedState(): FeedState {
    if (this.feed === undefined) return this.feedError === undefined ? 'running' : 'failed';
    if (this.feed.mode === 'replay') return 'ended';
    return this.paused ? 'paused' : 'running';
  }

  private sendSession(): void {
    const feed = this.feed;
    if (feed === undefined) return;
    this.post({ type: 'session', mode: feed.mode, label: feed.label, session: feed.session, ...this.judged(feed.session, feed.mode === 'live'), feed: this.feedState() });
    if (this.problem !== undefined) this.postFeedState();
  }

  private postFeedState(): void {
    this.post({ type: 'feedState', feed: this.feedState(), ...(this.problem !== undefined ? { message: this.problem } : {}) });
  }

  /** The headline and prediction for `session` now, remembered as the last sent. */
  private judged(session: TimelineSession, live: boolean): { headline: SessionHeadline; prediction: string | null } {
    const words = { headline: this.deps.headline(session, live, this.silent()), prediction: this.deps.predict(session, live, this.problem !== undefined) };
    this.lastJudged = JSON.stringify(words);
    return words;
  }

  /** The headline's source is silent: the live source's trouble, unless the Ready condition is watched here. */
  private silent(): boolean {
    return this.problem !== undefined && this.feed?.readyWatchedHere !== true;
  }

  private judgeNow(): void {
    const feed = this.feed;
    if (feed === undefined || this.paused || !this.ready) return;
    const words = { headline: this.deps.headline(feed.session, true, this.silent()), prediction: this.deps.predict(feed.session, true, this.problem !== undefined) };
    const key = JSON.stringify(words);
    if (key === this.lastJudged) return;
    this.lastJudged = key;
    this.post({ type: 'sessionNow', ...words });
  }

  private post(message: HostToWebview): void {
    if (this.disposed || (!this.ready && message.type !== 'init')) return;
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      const text = describeMessageProblem(t, parsed.problem);
      this.deps.services.logger.warn(`timeline panel: refused a message (${text}): ${JSON.stringify(raw)?.slice(0, 200) ?? String(raw)}`);
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
        this.post({ type: 'init', protocolVersion: PROTOCOL_VERSION, strings: webviewStrings(t), params: DEFAULT_WHAT_IF, target: this.content.target, recording: this.content.recording });
        // A rebuilt page (hidden and shown again) gets the whole session again.
        if (this.feed !== undefined) this.sendSession();
        else if (this.feedError !== undefined) this.post({ type: 'feedState', feed: 'failed', message: t('The timeline could not start: {0}', this.feedError) });
        return;
      case 'cancel':
        this.sims.cancel();
        return;
      case 'simulate':
        void this.simulate(message.requestId, message.params);
        return;
      case 'pause':
      case 'resume':
        this.setPaused(message.type === 'pause');
        return;
      case 'export':
        void this.export(message.requestId, message.format);
        return;
    }
  }

  private setPaused(paused: boolean): void {
    if (this.feed?.mode !== 'live' || this.paused === paused) return;
    this.paused = paused;
    // Deltas are not queued while paused: resuming sends the session as it has grown meanwhile.
    if (paused) this.post({ type: 'feedState', feed: 'paused' });
    else this.sendSession();
  }

  private async export(requestId: number, format: ExportFormat): Promise<void> {
    const feed = this.feed;
    if (feed === undefined) {
      this.post({ type: 'error', requestId, message: t('There is no session to export yet.') });
      return;
    }
    const session = feed.session;
    const stamp = session.startedAt.replace(/[-:]/gu, '').replace(/\.\d+/u, '');
    const name = `${session.node.replace(/[^\w.-]/gu, '_')}-timeline-${stamp}.${format}`;
    try {
      const uri = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(process.env['HOME'] ?? '/'), name),
        filters: format === 'json' ? { [t('PLEG timeline (JSON)')]: ['json'] } : { [t('One row per relist (CSV)')]: ['csv'] },
        title: t('Export PLEG Timeline'),
      });
      if (uri === undefined) {
        this.post({ type: 'exported', requestId, path: null });
        return;
      }
      const text = format === 'json' ? `${JSON.stringify(session, null, 1)}\n` : sessionCsv(session);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
      this.deps.services.logger.info(`timeline of ${session.node} exported as ${format} to ${uri.fsPath} (${session.relists.length} relists)`);
      this.post({ type: 'exported', requestId, path: uri.fsPath });
    } catch (error) {
      const text = errorText(error);
      this.deps.services.logger.error(`timeline export failed: ${text}`);
      this.post({ type: 'error', requestId, message: t('The export failed: {0}', text) });
    }
  }

  private async simulate(requestId: number, params: Extract<WebviewToHost, { type: 'simulate' }>['params']): Promise<void> {
    try {
      const { data, elapsedMs } = await this.sims.run(params);
      this.deps.services.logger.debug(`what-if simulation of ${params.durationS} s took ${elapsedMs} ms in a worker`);
      this.post({ type: 'timeline', requestId, data });
    } catch (error) {
      // A newer request or a closed panel cancelled this one: the webview no longer waits for it.
      if (error instanceof SimRunCancelledError) return;
      const text = errorText(error);
      this.deps.services.logger.error(`what-if simulation failed: ${text}`);
      this.post({ type: 'error', requestId, message: t('The simulation failed: {0}', text) });
    }
  }

  /** For tests and the e2e log: resolves once the feed has opened (or failed). */
  whenFeedOpen(): Promise<void> {
    return this.feedOpening ?? Promise.resolve();
  }

  dispose(): void {
    // panel.dispose() fires onDidDispose, which calls back here.
    if (this.disposed) return;
    this.disposed = true;
    this.sims.dispose();
    this.opening.abort(new Error('timeline closed'));
    clearInterval(this.judgeTimer);
    for (const s of this.feedSubscriptions.splice(0)) s.dispose();
    this.feed?.dispose();
    panels.release(this.content.key, this);
    this.panel.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** Reveals the key's panel or opens a new one beside the current editor. */
export function showPanel(content: PanelContent, deps: PanelDeps): TimelinePanel {
  return panels.open(content.key, () => {
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, content.title, vscode.ViewColumn.Active, timelineWebviewOptions(deps.extensionUri));
    return new TimelinePanel(panel, content, deps);
  }).panel;
}

/** A panel VS Code restored after a reload. */
export function revivePanel(panel: vscode.WebviewPanel, content: PanelContent, deps: PanelDeps): void {
  const revived = new TimelinePanel(panel, content, deps);
  panels.adopt(content.key, revived)?.dispose();
}
