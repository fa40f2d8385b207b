// Relist durations against the health threshold, with the unhealthy and NotReady windows as bands.
// uPlot draws the series; the bands are painted in a draw hook so they sit under the points.

import uPlot from 'uplot';
import type { TimelineData, TimeWindow } from '../../src/shared/panelProtocol';

function themeColor(name: string, fallback: string): string {
  const value = getComputedStyle(document.body).getPropertyValue(name).trim();
  return value === '' ? fallback : value;
}

function paintWindows(u: uPlot, windows: TimeWindow[], color: string, top: number, height: number): void {
  const ctx = u.ctx;
  ctx.save();
  ctx.fillStyle = color;
  for (const w of windows) {
    const x0 = u.valToPos(w.fromMs / 1000, 'x', true);
    const x1 = u.valToPos(w.toMs / 1000, 'x', true);
    ctx.fillRect(x0, top, Math.max(1, x1 - x0), height);
  }
  ctx.restore();
}

export function renderChart(host: HTMLElement, data: TimelineData, labels: { duration: string; threshold: string; time: string; failed: string }): uPlot {
  host.replaceChildren();
  const xs = data.relists.map((r) => r.startMs / 1000);
  const durations = data.relists.map((r) => r.durationMs / 1000);
  const failed = data.relists.map((r) => (r.ok ? null : r.durationMs / 1000));
  const threshold = data.relists.map(() => data.thresholdMs / 1000);
  const fg = themeColor('--vscode-foreground', '#ccc');
  const grid = themeColor('--vscode-editorWidget-border', '#444');
  const opts: uPlot.Options = {
    width: Math.max(320, host.clientWidth),
    height: 300,
    scales: { x: { time: false }, y: { distr: 3, log: 10 } },
    axes: [
      { stroke: fg, grid: { stroke: grid }, label: labels.time },
      { stroke: fg, grid: { stroke: grid }, label: labels.duration },
    ],
    series: [
      {},
      { label: labels.duration, stroke: themeColor('--vscode-charts-blue', '#3794ff'), width: 1, points: { show: false } },
      { label: labels.failed, stroke: themeColor('--vscode-charts-red', '#f14c4c'), width: 0, points: { show: true, size: 6 } },
      { label: labels.threshold, stroke: themeColor('--vscode-charts-yellow', '#cca700'), width: 1, dash: [6, 4], points: { show: false } },
    ],
    hooks: {
      drawClear: [
        (u) => {
          const { top, height } = u.bbox;
          paintWindows(u, data.notReady, 'rgba(241, 76, 76, 0.12)', top, height);
          paintWindows(u, data.unhealthy, 'rgba(204, 167, 0, 0.18)', top + height - 8, 8);
        },
      ],
    },
  };
  // The log scale cannot show zero: clamp to a microsecond so fast relists still appear.
  const clamp = (v: number | null): number | null => (v === null ? null : Math.max(v, 1e-6));
  return new uPlot(opts, [xs, durations.map(clamp), failed.map(clamp), threshold], host);
}
