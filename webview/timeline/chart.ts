// The what-if chart. Left axis (linear): what Healthy() compares with the threshold — the time since the
// last successful relist started — and the threshold line. Right axis (log): each relist's duration.
// The unhealthy and NotReady windows are painted under the series in the colours the session tab gives
// them (sessionChart.ts): PLEG unhealthy a translucent red band over the plot, the simulated node's
// NotReady an orange strip along its bottom like the session's predicted NotReady lane, so a colour
// means one thing in both tabs. The legend is ours (uPlot's live legend is off), so the bands get entries too.

import uPlot from 'uplot';
import type { WhatIfResult, TimeWindow } from '../../src/shared/timeline/panelProtocol';
import type { ChartWords } from './chartWords';
import { themeColor } from './themeColor';
import { clipSpan } from './clipSpan';

/** The what-if chart's words: the shared ones, and its own for unfinished relists and the two bands. */
export interface ChartLabels extends ChartWords {
  unfinished: string;
  unhealthyBand: string;
  notReadyBand: string;
}

/** Legend keys; timeline.css gives each swatch its colour. */
export type LegendKey = 'health' | 'threshold' | 'duration' | 'failed' | 'unfinished' | 'unhealthy' | 'notReady';

/** The session tab's unhealthy band (sessionChart.ts mainOptions). */
const UNHEALTHY_FILL = 'rgba(241, 76, 76, 0.12)';
const NOT_READY_STRIP_PX = 10;

function paintWindows(u: uPlot, windows: readonly TimeWindow[], color: string, top: number, height: number): void {
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = color;
  const { left, width } = u.bbox;
  for (const w of windows) {
    const span = clipSpan(u.valToPos(w.fromMs / 1000, 'x', true), u.valToPos(w.toMs / 1000, 'x', true), left, left + width);
    if (span !== null) ctx.fillRect(span[0], top, span[1] - span[0], height);
  }
  ctx.restore();
}

function legend(data: WhatIfResult, labels: ChartLabels): HTMLElement {
  const list = document.createElement('ul');
  list.className = 'legend';
  const has = (values: ReadonlyArray<number | null>): boolean => values.some((v) => v !== null);
  const entries: Array<[LegendKey, string, boolean]> = [
    ['health', labels.health, true],
    ['threshold', `${labels.threshold} ${(data.thresholdMs / 1000).toFixed(0)} s`, true],
    ['duration', labels.duration, true],
    ['failed', labels.failed, has(data.series.failedRelist)],
    ['unfinished', labels.unfinished, has(data.series.unfinishedRelist)],
    ['unhealthy', labels.unhealthyBand, true],
    ['notReady', labels.notReadyBand, true],
  ];
  for (const [key, text, shown] of entries) {
    if (!shown) continue;
    const item = document.createElement('li');
    item.dataset['key'] = key;
    const swatch = document.createElement('span');
    swatch.className = `swatch swatch-${key}`;
    item.append(swatch, document.createTextNode(text));
    list.append(item);
  }
  return list;
}

/** A series drawn as filled dots only, on the log-scale duration axis. */
function dots(color: string, size: number): uPlot.Series {
  return { scale: 'd', stroke: color, width: 0, paths: () => null, points: { show: true, size, width: 1, stroke: color, fill: color } };
}

export function renderChart(host: HTMLElement, data: WhatIfResult, labels: ChartLabels): uPlot {
  host.replaceChildren();
  const s = data.series;
  const threshold = s.x.map(() => data.thresholdMs / 1000);
  // The log scale cannot show zero: clamp to a microsecond so instant relists still appear.
  const clamp = (values: ReadonlyArray<number | null>): Array<number | null> => values.map((v) => (v === null ? null : Math.max(v, 1e-6)));
  const fg = themeColor('--vscode-foreground', '#ccc');
  const grid = themeColor('--vscode-editorWidget-border', '#444');
  const endS = data.durationMs / 1000;
  const opts: uPlot.Options = {
    width: Math.max(320, host.clientWidth),
    height: 320,
    legend: { show: false },
    scales: {
      x: { time: false, range: [0, endS] },
      y: { range: (_u, _min, max) => [0, Math.max(max, data.thresholdMs / 1000) * 1.1] },
      d: { distr: 3, log: 10 },
    },
    axes: [
      { stroke: fg, grid: { stroke: grid }, label: labels.time },
      { scale: 'y', stroke: fg, grid: { stroke: grid }, label: labels.healthAxis },
      { scale: 'd', side: 1, stroke: fg, grid: { show: false }, label: labels.durationAxis },
    ],
    series: [
      {},
      { scale: 'y', stroke: themeColor('--vscode-charts-blue', '#3794ff'), width: 1.5, spanGaps: true, points: { show: false } },
      { scale: 'y', stroke: themeColor('--vscode-charts-yellow', '#cca700'), width: 1, dash: [6, 4], points: { show: false } },
      dots(themeColor('--vscode-charts-green', '#89d185'), 4),
      dots(themeColor('--vscode-charts-red', '#f14c4c'), 7),
      dots(themeColor('--vscode-charts-orange', '#d18616'), 9),
    ],
    hooks: {
      drawClear: [
        (u) => {
          const { top, height } = u.bbox;
          paintWindows(u, data.unhealthy, UNHEALTHY_FILL, top, height);
          paintWindows(u, data.notReady, themeColor('--vscode-charts-orange', '#d18616'), top + height - NOT_READY_STRIP_PX * devicePixelRatio, NOT_READY_STRIP_PX * devicePixelRatio);
        },
      ],
    },
  };
  const plot = new uPlot(opts, [s.x, s.sinceLastRelistStart, threshold, clamp(s.relistDuration), clamp(s.failedRelist), clamp(s.unfinishedRelist)], host);
  host.append(legend(data, labels));
  return plot;
}
