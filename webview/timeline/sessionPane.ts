// The session pane: a node's PLEG timeline, live or replayed. States the source (live or replay), the
// model's prediction and what the session lacks in words above the charts, then the charts (see
// sessionChart.ts), their legend and the hovered relist's details. Live deltas are applied in place and
// drawn at most once per frame.

import { applySessionDelta, type SessionRelist, type TimelineSession } from '../../src/core/timeline/session';
import type { FeedState, HostToWebview, SessionHeadline, SessionMode } from '../../src/shared/timeline/panelProtocol';
import { renderSessionCharts, type SessionChartLabels, type SessionCharts } from './sessionChart';
import { legendEntries } from './sessionLegend';
import { appendDelta, drawnValueAt, nearestIndex, sessionSeries, type SessionSeries } from './sessionSeries';
import { formatGoDurationMs } from '../../src/core/util/goDuration';
import { el, liveRegion } from './dom';
import { PLEG_CONSTANTS } from '../../src/core/pleg/profiles';

export type Translate = (key: string, ...args: Array<string | number>) => string;

export interface SessionPaneHost {
  t: Translate;
  /** Posts a request to the host and returns its request id. */
  request(message: { type: 'pause' } | { type: 'resume' } | { type: 'export'; format: 'json' | 'csv' }): number;
}

const RANGES: Array<[string, number | null]> = [
  ['range.all', null],
  ['range.5m', 300],
  ['range.15m', 900],
  ['range.1h', 3600],
];

const LIVE_RANGE_S = 900;

function button(id: string, text: string, secondary = false): HTMLElement {
  const b = el('vscode-button', text);
  b.id = id;
  if (secondary) b.setAttribute('secondary', '');
  return b;
}

export class SessionPane {
  readonly root: HTMLElement;
  private session: TimelineSession | undefined;
  private series: SessionSeries | undefined;
  private charts: SessionCharts | undefined;
  private mode: SessionMode = 'replay';
  private feed: FeedState = 'running';
  private rangeS: number | null = null;
  /** The user picked a range: a session shown again keeps it. */
  private rangeChosen = false;
  /** The user dragged a range: live updates no longer move the view until Reset zoom. */
  private zoomed = false;
  private drawPending = false;
  private exportRequest = 0;
  private legendKeys = '';

  constructor(private readonly host: SessionPaneHost) {
    const t = host.t;
    this.root = el('section', undefined, 'session');
    this.root.id = 'session';
    const header = el('div', undefined, 'session-header');
    const title = el('h2', t('session.waiting'));
    title.id = 'session-title';
    const label = el('p', '', 'session-label');
    label.id = 'session-label';
    // The node's state now (a recording: at its end) in the classifier's words, above the model's prediction.
    const headline = liveRegion('p', 'headline', 'headline', 'status');
    const prediction = liveRegion('p', 'prediction', 'prediction', 'status');
    const lacks = el('ul', undefined, 'lacks');
    lacks.id = 'lacks';
    header.append(title, headline, label, prediction, lacks);

    const toolbar = el('div', undefined, 'toolbar');
    const pause = button('pause', t('pause'), true);
    pause.hidden = true;
    pause.addEventListener('click', () => this.togglePause());
    const range = el('vscode-single-select');
    range.id = 'range';
    range.setAttribute('aria-label', t('range'));
    for (const [key, seconds] of RANGES) {
      const option = el('vscode-option', t(key));
      option.setAttribute('value', seconds === null ? 'all' : String(seconds));
      if (seconds === null) option.setAttribute('selected', '');
      range.append(option);
    }
    range.addEventListener('change', () => {
      const value = (range as HTMLElement & { value: string }).value;
      this.rangeS = value === 'all' ? null : Number(value);
      this.rangeChosen = true;
      this.zoomed = false;
      this.applyRange();
    });
    const reset = button('reset-zoom', t('resetZoom'), true);
    reset.addEventListener('click', () => {
      this.zoomed = false;
      this.applyRange();
    });
    const exportJson = button('export-json', t('exportJson'), true);
    exportJson.addEventListener('click', () => this.export('json'));
    const exportCsv = button('export-csv', t('exportCsv'), true);
    exportCsv.addEventListener('click', () => this.export('csv'));
    const feed = liveRegion('span', 'feed-state', 'feed-state', 'status');
    toolbar.append(pause, range, reset, exportJson, exportCsv, feed);

    const chart = el('div', undefined, 'chart session-chart');
    chart.id = 'session-chart';
    chart.setAttribute('role', 'img');
    chart.setAttribute('aria-label', t('session.chartLabel'));
    const lanes = el('div', undefined, 'chart lanes-chart');
    lanes.id = 'lanes-chart';
    lanes.setAttribute('role', 'img');
    lanes.setAttribute('aria-label', t('session.lanesLabel'));
    const legend = el('ul', undefined, 'legend');
    legend.id = 'session-legend';
    const details = el('div', undefined, 'relist-details');
    details.id = 'relist-details';
    details.append(el('p', t('details.hint'), 'hint'));
    this.root.append(header, toolbar, chart, legend, lanes, details);
  }

  private byId<T extends HTMLElement = HTMLElement>(id: string): T {
    return this.root.querySelector<T>(`#${id}`)!;
  }

  private labels(): SessionChartLabels {
    const t = this.host.t;
    return {
      time: t('axis.clock'),
      healthAxis: t('axis.health'),
      durationAxis: t('axis.duration'),
      health: t('series.health'),
      threshold: t('series.threshold'),
      duration: t('series.duration'),
      failed: t('series.failed'),
      kubeletAge: t('series.kubeletAge'),
      kubeletDuration: t('series.kubeletDuration'),
      kubeletPodDuration: t('series.kubeletPodDuration'),
      discards: t('marker.discards'),
      rpcErrors: t('marker.rpcErrors'),
      kubeletErrors: t('marker.kubeletErrors'),
      laneHealth: t('lane.health'),
      laneHealthKubelet: t('lane.healthKubelet'),
      lanePredicted: t('lane.predicted'),
      laneReady: t('lane.ready'),
      unhealthy: t('band.unhealthy'),
      predicted: t('band.predicted'),
      readyFalse: t('band.readyFalse'),
      readyUnknown: t('band.readyUnknown'),
      started: t('event.started'),
      died: t('event.died'),
      removed: t('event.removed'),
      changed: t('event.changed'),
      otherPods: t('lane.otherPods'),
    };
  }

  show(message: Extract<HostToWebview, { type: 'session' }>): void {
    const t = this.host.t;
    this.mode = message.mode;
    this.byId('session-title').textContent = t('session.title', message.session.node);
    const label = this.byId('session-label');
    label.textContent = `${t(message.mode === 'live' ? 'mode.live' : 'mode.replay')} — ${message.label}`;
    label.className = `session-label mode-${message.mode}`;
    // Live, the view follows the last 15 minutes (a day in view costs a redraw of every relist each second);
    // a replay shows the whole recording. A range the user picked stays.
    if (!this.rangeChosen) {
      this.rangeS = message.mode === 'live' ? LIVE_RANGE_S : null;
      (this.byId('range') as HTMLElement & { value: string }).value = this.rangeS === null ? 'all' : String(this.rangeS);
    }
    this.draw(message);
    this.setFeed(message.feed);
  }

  /**
   * The live source read its whole session again (the agent's 410): drawn in place of the one shown, with
   * the same mode, label, range and feed state. Before any session is shown there is nothing to replace:
   * the host's `session` message comes with the panel's `ready`.
   */
  replace(message: Extract<HostToWebview, { type: 'sessionReplaced' }>): void {
    if (this.session === undefined) return;
    this.draw(message);
  }

  /** The same session judged again as time passed (live, no new data): the words only. */
  judged(message: Extract<HostToWebview, { type: 'sessionNow' }>): void {
    if (this.session === undefined) return;
    this.showHeadline(message.headline);
    this.showPrediction(message.prediction);
  }

  /** Draws `session` from scratch: the words above the charts, the charts, the legend. */
  private draw(message: { session: TimelineSession; headline: SessionHeadline; prediction: string | null }): void {
    this.session = message.session;
    this.series = sessionSeries(message.session);
    this.showHeadline(message.headline);
    this.showPrediction(message.prediction);
    this.showLacks(message.session.lacks);
    this.countRelists();
    this.charts?.destroy();
    this.zoomed = false;
    const callbacks = {
      onHover: (atS: number | null) => this.hover(atS),
      // A drag in either chart zooms both.
      onZoom: (fromS: number, toS: number) => {
        this.zoomed = true;
        this.charts?.setRange(fromS, toS);
      },
    };
    this.charts = renderSessionCharts(this.byId('session-chart'), this.byId('lanes-chart'), this.series, this.labels(), Date.parse(message.session.startedAt) / 1000 || 0, callbacks, this.range());
    // The legend is rebuilt for the new series, not compared with the old one's.
    this.legendKeys = '';
    this.showLegend();
  }

  /** The number of relists shown, on the pane (the e2e and tests read it; the charts are canvases). */
  private countRelists(): void {
    this.root.dataset['relists'] = String(this.session?.relists.length ?? 0);
  }

  applyDelta(message: Extract<HostToWebview, { type: 'sessionDelta' }>): void {
    const { session, series } = this;
    if (session === undefined || series === undefined) return;
    applySessionDelta(session, message.delta);
    appendDelta(series, session, message.delta);
    this.showHeadline(message.headline);
    this.showPrediction(message.prediction);
    if (message.delta.lacks !== undefined) this.showLacks(session.lacks);
    this.countRelists();
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.charts?.update();
      this.applyRange();
      // The legend follows what is drawn: a first failed relist or NotReady adds its entry.
      this.showLegend();
    });
  }

  setFeed(feed: FeedState, message?: string): void {
    const t = this.host.t;
    this.feed = feed;
    const text = message ?? t(`feed.${feed}`);
    this.byId('feed-state').textContent = text;
    const pause = this.byId('pause');
    pause.hidden = this.mode !== 'live' || feed === 'ended' || feed === 'failed';
    pause.textContent = feed === 'paused' ? t('resume') : t('pause');
    if (feed === 'failed' && this.session === undefined) this.byId('session-title').textContent = text;
  }

  exported(message: Extract<HostToWebview, { type: 'exported' }>): void {
    if (message.requestId !== this.exportRequest) return;
    this.exportRequest = 0;
    this.byId('feed-state').textContent = message.path === null ? this.host.t('exportCancelled') : this.host.t('exported', message.path);
  }

  /** An error the host tied to one of this pane's requests; true when it was ours. */
  error(requestId: number | null, text: string): boolean {
    if (requestId === null || requestId !== this.exportRequest) return false;
    this.exportRequest = 0;
    this.byId('feed-state').textContent = text;
    return true;
  }

  private togglePause(): void {
    if (this.mode !== 'live') return;
    const pausing = this.feed !== 'paused';
    this.host.request({ type: pausing ? 'pause' : 'resume' });
    this.setFeed(pausing ? 'paused' : 'running');
  }

  private export(format: 'json' | 'csv'): void {
    if (this.session === undefined) return;
    this.exportRequest = this.host.request({ type: 'export', format });
  }

  /** The time range shown unless the user zoomed: the whole session, or its last N seconds. */
  private range(): [number, number] {
    const end = Math.max(this.series?.endS ?? 0, 1);
    return [this.rangeS === null ? 0 : Math.max(0, end - this.rangeS), end];
  }

  private applyRange(): void {
    const { charts } = this;
    if (charts === undefined || this.zoomed) return;
    const [from, to] = this.range();
    charts.setRange(from, to);
  }

  private showHeadline(headline: SessionHeadline): void {
    const box = this.byId('headline');
    // The e2e and screen readers read the verdict id, not the (localized) words.
    box.dataset['verdict'] = headline.verdict ?? '';
    const lines: Node[] = [el('strong', headline.title), document.createTextNode(` — ${headline.when}`)];
    if (headline.message !== '') lines.push(el('span', headline.message, 'headline-message'));
    box.replaceChildren(...lines);
  }

  private showPrediction(prediction: string | null): void {
    const box = this.byId('prediction');
    box.textContent = prediction ?? '';
    box.hidden = prediction === null;
  }

  private showLacks(lacks: readonly string[]): void {
    const list = this.byId('lacks');
    list.replaceChildren(...lacks.map((text) => el('li', text)));
    list.hidden = lacks.length === 0;
  }

  private showLegend(): void {
    const { series } = this;
    if (series === undefined) return;
    const entries = legendEntries(series, this.labels());
    // Called every live frame: the list is rebuilt only when an entry comes or goes.
    const keys = entries.map(([key, text]) => `${key}:${text}`).join('\n');
    if (keys === this.legendKeys) return;
    this.legendKeys = keys;
    this.byId('session-legend').replaceChildren(
      ...entries.map(([key, text]) => {
        const item = el('li');
        item.dataset['key'] = key;
        item.append(el('span', undefined, `swatch swatch-${key}`), document.createTextNode(text));
        return item;
      }),
    );
  }

  private hover(atS: number | null): void {
    const { series, session } = this;
    if (series === undefined || session === undefined || atS === null) return;
    const box = this.byId('relist-details');
    const lines = [this.valuesAt(series, session, atS)];
    const i = nearestIndex(series.x, atS, (j) => series.relistAt[j]! >= 0);
    if (i >= 0) {
      const index = series.relistAt[i]!;
      box.dataset['relist'] = String(index);
      lines.push(...this.relistLines(session, index));
    } else delete box.dataset['relist'];
    box.replaceChildren(...lines);
  }

  /** What the lines draw at the pointer: the value the eye reads there, not the nearest relist's. */
  private valuesAt(series: SessionSeries, session: TimelineSession, atS: number): HTMLElement {
    const t = this.host.t;
    const at = new Date((Date.parse(session.startedAt) || 0) + atS * 1000).toISOString().slice(11, 19);
    const tail = series.lastGoodStartS === null ? undefined : { x: series.endS, y: series.endS - series.lastGoodStartS };
    const health = drawnValueAt(series.x, series.sinceLastRelistStart, atS, tail);
    const kubelet = drawnValueAt(series.x, series.kubeletLastSeenAge, atS);
    const parts = [t('details.at', at)];
    if (health !== null) parts.push(t('details.atHealth', health.toFixed(1)));
    if (kubelet !== null) parts.push(t('details.atKubelet', kubelet.toFixed(1)));
    // The kubelet's own CRI errors at the scrape nearest the pointer, when its counters grew there.
    const scrape = nearestIndex(series.x, atS, (j) => series.relistAt[j]! < 0 && series.sinceLastRelistStart[j] === null);
    const errors = scrape < 0 ? undefined : series.kubeletErrors.find((m) => m.atS === series.x[scrape]);
    if (errors !== undefined) parts.push(t('details.atKubeletErrors', errors.detail));
    const p = el('p', parts.join(' · '), 'at-cursor');
    p.id = 'at-cursor';
    return p;
  }

  private relistLines(session: TimelineSession, index: number): HTMLElement[] {
    const r: SessionRelist | undefined = session.relists[index];
    if (r === undefined) return [];
    const t = this.host.t;
    const clock = (ms: number): string => new Date((Date.parse(session.startedAt) || 0) + ms).toISOString().slice(11, 23);
    // The relist is drawn where it ended (its point on the line); its start and duration follow.
    const lines: HTMLElement[] = [el('h3', t('details.relist', clock(r.endMs), clock(r.startMs), formatGoDurationMs(Math.round((r.endMs - r.startMs) * 1000) / 1000)))];
    if (!r.ok) lines.push(el('p', t('details.failed', r.error ?? '?'), 'error'));
    lines.push(el('p', t('details.since', (r.sinceLastRelistStartMs / 1000).toFixed(1))));
    if (r.streamFailure !== undefined) lines.push(el('p', t('details.streamFailure', r.streamFailure.failures, PLEG_CONSTANTS.eventedMaxStreamRetries, r.streamFailure.error), 'error'));
    if (r.pods !== undefined) lines.push(el('p', t('details.pods', r.pods, r.containers ?? 0)));
    lines.push(el('p', t('details.events', r.events, r.discards)));
    if (r.podsInspected.length > 0) lines.push(el('p', t('details.inspected', r.podsInspected.length, r.podsInspected.slice(0, 12).join(', ') + (r.podsInspected.length > 12 ? ', …' : ''))));
    // A simulation records no calls: no empty table.
    if (r.rpcs.length === 0) return lines;
    const rpcs = el('table', undefined, 'rpcs');
    const head = el('tr');
    for (const key of ['details.rpc', 'details.pod', 'details.atMs', 'details.latencyMs', 'details.error']) head.append(el('th', t(key)));
    rpcs.append(head);
    const MAX_ROWS = 20;
    for (const c of r.rpcs.slice(0, MAX_ROWS)) {
      const row = el('tr', undefined, c.error === undefined ? '' : 'rpc-error');
      for (const cell of [c.rpc, c.pod ?? '', c.atMs.toFixed(1), c.latencyMs.toFixed(2), c.error ?? '']) row.append(el('td', cell));
      rpcs.append(row);
    }
    lines.push(rpcs);
    if (r.rpcs.length > MAX_ROWS) lines.push(el('p', t('details.moreRpcs', r.rpcs.length - MAX_ROWS), 'hint'));
    return lines;
  }
}
