// The session's two charts on one time axis (seconds since t = 0, drawn as wall-clock time).
// Top: what Healthy() compares with the threshold (the time since the last successful relist started)
// against the threshold line, the kubelet's own last-seen age beside it, and, on a log axis, every
// relist's duration with the kubelet's mean relist duration beside it (and, from 1.36, its mean per-pod
// relist duration); discards and RPC errors are
// markers along the top edge. Bottom: lanes — the model's PLEG health, the NotReady it predicts from
// that, the node's Ready condition as the API server reported it, and one lane per pod with its events.
// Zooming either chart (drag) zooms both.

import uPlot from 'uplot';
import { ChartDecimator, type ChartColumns, type OwnPoints } from './decimate';
import { columnMarks, LaneEvents } from './laneEvents';
import { MarkLayer } from './markLayer';
import { onPixelRatioChange } from './pixelRatio';
import { hairline, ownLinePaths } from './ownLines';
import { BREAK_AFTER_PERIODS } from './lineGaps';
import { clipSpan } from './clipSpan';
import type { SessionChartLabels, SessionLegendKey } from './sessionLegend';

export type { SessionChartLabels } from './sessionLegend';
import { lowerBound } from './lowerBound';
import { NODE_STATUS_UPDATE_S, podLanes, predictedBands, type Marker, type SessionSeries, type Window } from './sessionSeries';
import { themeColor } from './themeColor';



/** The lanes above the pods, in this order. */
const FIXED_LANES = 3;
const LANE_PX = 22;
/** Both charts reserve the same room for their axes, so that one instant is at the same x in both. */
const LEFT_AXIS_PX = 170;
const RIGHT_AXIS_PX = 64;
/** The health line's width where its points are far enough apart to read as a line (CSS px). */
const HEALTH_LINE_PX = 1.5;
/**
 * Points closer than this (CSS px) make the lines dense sawtooths and zigzags (a relist a second over 15
 * minutes is 1.3 px per point): there every line is a hairline, one device pixel wide. It reads the same,
 * and every device pixel of width more is another copy of thousands of points to rasterize (ownLines.ts):
 * on a HiDPI screen a day of 1 CSS px lines cost a redraw 4–5 ms of rasterizing.
 */
const DENSE_POINT_SPACING_PX = 3;

/** A colour per legend entry (so an entry and what it names always match), and the chart's own. */
interface Palette extends Record<SessionLegendKey, string> {
  fg: string;
  grid: string;
  healthy: string;
  /** Text written on a lane bar. */
  onBar: string;
}

/** Colours from VS Code's theme variables (light, dark and high contrast each set them), with fallbacks. */
function palette(): Palette {
  return {
    fg: themeColor('--vscode-foreground', '#ccc'),
    grid: themeColor('--vscode-editorWidget-border', '#444'),
    health: themeColor('--vscode-charts-blue', '#3794ff'),
    threshold: themeColor('--vscode-charts-yellow', '#cca700'),
    duration: themeColor('--vscode-charts-green', '#89d185'),
    failed: themeColor('--vscode-charts-red', '#f14c4c'),
    kubeletAge: themeColor('--vscode-charts-purple', '#b180d7'),
    kubeletDuration: themeColor('--vscode-charts-orange', '#d18616'),
    kubeletPodDuration: themeColor('--vscode-charts-orange', '#d18616'),
    discards: themeColor('--vscode-charts-purple', '#b180d7'),
    rpcErrors: themeColor('--vscode-charts-red', '#f14c4c'),
    kubeletErrors: themeColor('--vscode-charts-red', '#f14c4c'),
    healthy: themeColor('--vscode-testing-iconPassed', '#73c991'),
    unhealthy: themeColor('--vscode-charts-red', '#f14c4c'),
    predicted: themeColor('--vscode-charts-orange', '#d18616'),
    readyFalse: themeColor('--vscode-charts-red', '#f14c4c'),
    readyUnknown: themeColor('--vscode-disabledForeground', '#888888'),
    started: themeColor('--vscode-charts-green', '#89d185'),
    died: themeColor('--vscode-charts-red', '#f14c4c'),
    removed: themeColor('--vscode-disabledForeground', '#888888'),
    changed: themeColor('--vscode-charts-blue', '#3794ff'),
    onBar: '#ffffff',
  };
}

export interface SessionCharts {
  main: uPlot;
  lanes: uPlot;
  /** Redraws with the series grown in place (a live delta). */
  update(): void;
  /** Shows [fromS, toS] in both charts. */
  setRange(fromS: number, toS: number): void;
  destroy(): void;
}

export interface ChartCallbacks {
  /** The pointer is at this time (s since t = 0), or left the chart (null). */
  onHover(atS: number | null): void;
  /** The user dragged a range. */
  onZoom(fromS: number, toS: number): void;
}


/** Fills each window's span in [top, top + height], clipped to the plot (see clipSpan.ts); returns the drawn spans. */
function paintWindows(u: uPlot, windows: readonly Window[], endS: number, color: string, top: number, height: number, padS = 0): Array<[number, number]> {
  const ctx = u.ctx;
  const { left, width } = u.bbox;
  const drawn: Array<[number, number]> = [];
  ctx.save();
  ctx.fillStyle = color;
  for (const w of windows) {
    const span = clipSpan(u.valToPos(w.fromS, 'x', true), u.valToPos((w.toS ?? endS) + padS, 'x', true), left, left + width);
    if (span === null) continue;
    ctx.fillRect(span[0], top, span[1] - span[0], height);
    drawn.push(span);
  }
  ctx.restore();
  return drawn;
}

/** Writes `text` inside a lane bar's span when it fits (cut with "…" when it nearly does), in the bar's contrast colour. */
function labelSpan(u: uPlot, span: [number, number], text: string, top: number, height: number, color: string): void {
  if (text === '') return;
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const pad = 4 * dpr;
  const room = span[1] - span[0] - 2 * pad;
  if (room < 24 * dpr) return;
  ctx.save();
  ctx.font = `${Math.round(10 * dpr)}px sans-serif`;
  ctx.fillStyle = color;
  ctx.textBaseline = 'middle';
  let shown = text;
  while (shown.length > 1 && ctx.measureText(shown).width > room) shown = `${shown.slice(0, -2)}…`;
  if (ctx.measureText(shown).width <= room) ctx.fillText(shown, span[0] + pad, top + height / 2);
  ctx.restore();
}

function paintMarkers(u: uPlot, markers: readonly Marker[], color: string, row: number, shape: 'tri' | 'cross'): void {
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const size = 5 * dpr;
  const y = u.bbox.top + (row * 12 + 7) * dpr;
  const [min, max] = [u.scales['x']!.min ?? 0, u.scales['x']!.max ?? 0];
  ctx.save();
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineWidth = 1.5 * dpr;
  let lastX = -Infinity;
  for (const m of markers) {
    if (m.atS < min || m.atS > max) continue;
    const x = u.valToPos(m.atS, 'x', true);
    // Thousands of markers in a pixel column are one marker.
    if (x - lastX < 2 * dpr) continue;
    lastX = x;
    ctx.beginPath();
    if (shape === 'tri') {
      ctx.moveTo(x - size, y - size);
      ctx.lineTo(x + size, y - size);
      ctx.lineTo(x, y + size);
      ctx.closePath();
      ctx.fill();
    } else {
      ctx.moveTo(x - size, y - size);
      ctx.lineTo(x + size, y + size);
      ctx.moveTo(x + size, y - size);
      ctx.lineTo(x - size, y + size);
      ctx.stroke();
    }
  }
  ctx.restore();
}

/**
 * The threshold, one value for the whole session: a single dashed line across the plot. As a series it
 * was a column of the same number in every row, which each redraw walked and the decimation kept two
 * rows of per column (a fifth of a day's drawn rows).
 */
function paintThreshold(u: uPlot, thresholdS: number, color: string): void {
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const y = Math.round(u.valToPos(thresholdS, 'y', true)) + 0.5;
  const { left, width } = u.bbox;
  ctx.save();
  ctx.strokeStyle = color;
  ctx.lineWidth = dpr;
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.restore();
}

/**
 * After the last relist the quantity keeps growing until the next one ends (a hung relist may take the
 * runtime request timeout): drawn dashed from the last relist to the end of the session.
 */
function paintGrowing(u: uPlot, s: SessionSeries, color: string): void {
  if (s.lastGoodStartS === null || s.x.length === 0) return;
  let i = s.x.length - 1;
  while (i >= 0 && s.relistAt[i]! < 0) i--;
  if (i < 0 || s.endS <= s.x[i]!) return;
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const { left, top, width, height } = u.bbox;
  ctx.save();
  // A zoomed view: the dashed line stops at the plot's edges.
  ctx.beginPath();
  ctx.rect(left, top, width, height);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5 * dpr;
  ctx.setLineDash([4 * dpr, 3 * dpr]);
  ctx.beginPath();
  ctx.moveTo(u.valToPos(s.x[i]!, 'x', true), u.valToPos(s.sinceLastRelistStart[i]!, 'y', true));
  ctx.lineTo(u.valToPos(s.endS, 'x', true), u.valToPos(s.endS - s.lastGoodStartS, 'y', true));
  ctx.stroke();
  ctx.restore();
}

function mainOptions(s: SessionSeries, width: number, p: Palette, labels: SessionChartLabels, startEpochS: number, callbacks: ChartCallbacks, range: [number, number], widths: () => LineWidths, ownOf: (seriesIdx: number) => OwnPoints | undefined): uPlot.Options {
  const clock = (v: number): string => new Date((startEpochS + v) * 1000).toISOString().slice(11, 19);
  const breakAfterS = (): number => BREAK_AFTER_PERIODS * s.relistPeriodS;
  // Widths in CSS px go to the builder; uPlot strokes its paths as hairlines (see ownLines.ts).
  const line = (cssWidth: () => number, breaks?: () => number): uPlot.Series.PathBuilder => ownLinePaths(ownOf, breaks === undefined ? { cssWidth } : { cssWidth, breakAfterS: breaks });
  const healthWidth = (): number => widths().health;
  const otherWidth = (): number => widths().other;
  return {
    width,
    height: 300,
    legend: { show: false },
    cursor: { drag: { x: true, y: false, setScale: true }, sync: { key: 'pleg-session', setSeries: false } },
    scales: {
      x: xScale(range),
      y: { range: (_u, _min, max) => [0, Math.max(max, s.thresholdS) * 1.1] },
      d: { distr: 3, log: 10 },
    },
    axes: [
      { stroke: p.fg, grid: { stroke: p.grid }, label: labels.time, space: 90, values: (_u, splits) => splits.map(clock) },
      { scale: 'y', stroke: p.fg, grid: { stroke: p.grid }, label: labels.healthAxis, size: LEFT_AXIS_PX - 20, labelSize: 20 },
      { scale: 'd', side: 1, stroke: p.fg, grid: { show: false }, label: labels.durationAxis, size: RIGHT_AXIS_PX - 20, labelSize: 20 },
    ],
    series: [
      {},
      { scale: 'y', stroke: p.health, width: hairline(), spanGaps: true, points: { show: false }, paths: line(healthWidth) },
      // Joined across failed relists and scrapes, broken where no relist succeeded for a few periods.
      {
        scale: 'd',
        stroke: p.duration,
        width: hairline(),
        spanGaps: false,
        paths: line(otherWidth, breakAfterS),
      },
      { scale: 'd', stroke: p.failed, width: 0, paths: () => null, points: { show: true, size: 7, width: 1, stroke: p.failed, fill: p.failed } },
      { scale: 'y', stroke: p.kubeletAge, width: hairline(), dash: [2, 3], spanGaps: true, points: { show: false }, paths: line(otherWidth) },
      // 1 px like the relists' durations: a day of jittery means is a band of zigzags at any width.
      { scale: 'd', stroke: p.kubeletDuration, width: hairline(), spanGaps: true, points: { size: 5, width: 1, stroke: p.kubeletDuration, fill: p.kubeletDuration }, paths: line(otherWidth) },
      // 1.36+ per-pod relists: hollow points on a dashed line, beside the periodic relist's mean.
      { scale: 'd', stroke: p.kubeletPodDuration, width: hairline(), dash: [4, 3], spanGaps: true, points: { size: 5, width: 1, stroke: p.kubeletPodDuration, fill: 'transparent' }, paths: line(otherWidth) },
    ],
    hooks: {
      drawClear: [
        (u) => {
          const { top, height } = u.bbox;
          paintWindows(u, s.unhealthy, s.endS, 'rgba(241, 76, 76, 0.12)', top, height);
        },
      ],
      draw: [
        (u) => {
          paintThreshold(u, s.thresholdS, p.threshold);
          paintGrowing(u, s, p.health);
          paintMarkers(u, s.discards, p.discards, 0, 'tri');
          paintMarkers(u, s.rpcErrors, p.rpcErrors, 1, 'cross');
          // The kubelet's own CRI errors from its metrics, a row below the model's.
          paintMarkers(u, s.kubeletErrors, p.kubeletErrors, 2, 'cross');
        },
      ],
      setCursor: [
        (u) => {
          const left = u.cursor.left;
          callbacks.onHover(left === undefined || left < 0 ? null : u.posToVal(left, 'x'));
        },
      ],
      setSelect: [
        (u) => {
          if (u.select.width <= 0) return;
          callbacks.onZoom(u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x'));
        },
      ],
    },
  };
}

/** The series' own arrays, not copies: a live update appends to them and redraws. */
function mainData(s: SessionSeries): ChartColumns {
  return [s.x, s.sinceLastRelistStart, s.relistDuration, s.failedRelist, s.kubeletLastSeenAge, s.kubeletRelistDuration, s.kubeletPodRelistDuration];
}

/** Line widths in CSS px: the health line's, and every other line's. */
interface LineWidths {
  health: number;
  other: number;
}

/** The lines' widths for how densely the drawn points lie in [fromS, toS] on `plotPx` CSS px (see DENSE_POINT_SPACING_PX). */
function lineWidths(columns: ChartColumns, fromS: number, toS: number, plotPx: number): LineWidths {
  const xs = columns[0];
  const inView = lowerBound(xs.length, (i) => xs[i]! <= toS) - lowerBound(xs.length, (i) => xs[i]! < fromS);
  if (plotPx / Math.max(1, inView) < DENSE_POINT_SPACING_PX) return { health: hairline(), other: hairline() };
  return { health: HEALTH_LINE_PX, other: 1 };
}


/** The lanes chart draws from the series itself: its data is only the x extent. */
function lanesData(s: SessionSeries): uPlot.AlignedData {
  return [[0, Math.max(s.endS, 1)], [null, null]];
}

/**
 * An x scale the page sets (range select, zoom, live follow): the first range uPlot asks for is the one
 * the page wants, so a chart is drawn once on creation, not once for the data and again for the range.
 */
function xScale(initial: [number, number]): uPlot.Scale {
  let first: [number, number] | null = initial;
  return {
    time: false,
    auto: false,
    range: (_u, min, max) => {
      const r = first ?? [min, max];
      first = null;
      return r;
    },
  };
}

/** The palette's colour for each of EVENT_KINDS, in that order. */
const KIND_COLORS: ReadonlyArray<keyof Palette> = ['started', 'died', 'removed', 'changed'];

function paintLanes(u: uPlot, s: SessionSeries, pods: readonly string[], p: Palette, labels: SessionChartLabels, marks: MarkLayer, events: LaneEvents): void {
  const ctx = u.ctx;
  const dpr = devicePixelRatio;
  const laneH = LANE_PX * dpr;
  const top = u.bbox.top;
  // Every lane's bar: inset 4 px from its lane's top and bottom.
  const barTop = (row: number): number => top + row * laneH + 4 * dpr;
  const barH = laneH - 8 * dpr;
  // Healthy from where PLEG health is known (the first relist, or the kubelet's first stamp), red on top.
  if (s.healthKnownFromS !== null) paintWindows(u, [{ fromS: s.healthKnownFromS, toS: s.endS }], s.endS, p.healthy, barTop(0), barH);
  for (const span of paintWindows(u, s.unhealthy, s.endS, p.unhealthy, barTop(0), barH)) labelSpan(u, span, labels.unhealthy, barTop(0), barH, p.onBar);
  for (const span of paintWindows(u, predictedBands(s), s.endS, p.predicted, barTop(1), barH, NODE_STATUS_UPDATE_S)) labelSpan(u, span, labels.lanePredicted, barTop(1), barH, p.onBar);
  for (const ready of s.ready) {
    const color = ready.status === 'True' ? p.healthy : ready.status === 'False' ? p.readyFalse : p.readyUnknown;
    // Each NotReady segment says why: "container runtime is down" a minute before "PLEG is not healthy" joins it.
    for (const span of paintWindows(u, [ready], s.endS, color, barTop(2), barH)) labelSpan(u, span, ready.reason, barTop(2), barH, p.onBar);
  }

  events.sync(s.podEvents);
  const otherLane = FIXED_LANES + pods.length;
  const laneOfPod = new Int32Array(events.podNames.length).fill(otherLane);
  pods.forEach((pod, i) => {
    const id = events.idOf(pod);
    if (id !== undefined) laneOfPod[id] = FIXED_LANES + i;
  });
  const kindValue = KIND_COLORS.map((key) => marks.valueOf(p[key]));
  const [min, max] = [u.scales['x']!.min ?? 0, u.scales['x']!.max ?? 0];
  const { left, width } = u.bbox;
  // A row of the layer per pod lane (see markLayer.ts). It starts 2 device px left of the plot, so a mark
  // at the plot's left edge keeps its left part.
  marks.begin(width + 4 * dpr, otherLane + 1 - FIXED_LANES);
  const markW = 3 * dpr;
  columnMarks(events, laneOfPod, otherLane + 1, min, max, 2 * dpr, width / (max - min), (lane, x, kind) => marks.fill(x - dpr, lane - FIXED_LANES, markW, kindValue[kind]!));
  marks.drawOnto(ctx, left - 2 * dpr, (row) => barTop(row + FIXED_LANES), barH);
}

/** The pods with a lane and every lane's name, top to bottom; rewritten in place when pods trade lanes. */
interface LaneSet {
  pods: string[];
  names: string[];
}

function laneSet(s: SessionSeries, pods: string[], labels: SessionChartLabels): LaneSet {
  const names = [s.healthSource === 'kubelet' ? labels.laneHealthKubelet : labels.laneHealth, labels.lanePredicted, labels.laneReady, ...pods];
  if (s.podEvents.length > 0 && s.eventsPerPod.size > pods.length) names.push(labels.otherPods);
  return { pods, names };
}

function lanesOptions(s: SessionSeries, lanes: LaneSet, width: number, p: Palette, labels: SessionChartLabels, callbacks: ChartCallbacks, range: [number, number], events: LaneEvents): uPlot.Options {
  const rows = lanes.names.length;
  const marks = new MarkLayer();
  return {
    width,
    height: rows * LANE_PX + 40,
    legend: { show: false },
    cursor: { drag: { x: true, y: false, setScale: true }, sync: { key: 'pleg-session', setSeries: false }, y: false },
    scales: { x: xScale(range), y: { auto: false, range: [0, rows], dir: -1 } },
    axes: [
      { show: false },
      {
        scale: 'y',
        stroke: p.fg,
        grid: { show: false },
        ticks: { show: false },
        size: LEFT_AXIS_PX,
        splits: () => lanes.names.map((_n, i) => i + 0.5),
        values: () => lanes.names.map((n) => (n.length > 24 ? `…${n.slice(-23)}` : n)),
      },
      // Empty, for the room the top chart's duration axis takes.
      { scale: 'y', side: 1, grid: { show: false }, ticks: { show: false }, size: RIGHT_AXIS_PX, splits: () => [], values: () => [] },
    ],
    series: [{}, { show: false }],
    hooks: {
      drawClear: [(u) => paintLanes(u, s, lanes.pods, p, labels, marks, events)],
      setSelect: [
        (u) => {
          if (u.select.width <= 0) return;
          callbacks.onZoom(u.posToVal(u.select.left, 'x'), u.posToVal(u.select.left + u.select.width, 'x'));
        },
      ],
    },
  };
}

export function renderSessionCharts(
  mainHost: HTMLElement,
  lanesHost: HTMLElement,
  s: SessionSeries,
  labels: SessionChartLabels,
  startEpochS: number,
  callbacks: ChartCallbacks,
  initialRange: [number, number],
): SessionCharts {
  mainHost.replaceChildren();
  lanesHost.replaceChildren();
  const p = palette();
  const width = Math.max(480, mainHost.clientWidth);
  let range = initialRange;
  // A wide view draws per pixel column the extremes of each series, not every sample (see decimate.ts).
  const decimator = new ChartDecimator(() => mainData(s));
  // One decimation bucket per CSS pixel, also on a HiDPI screen: a bucket per device pixel there doubled
  // the points to build and stroke (a day in view: 25 ms a redraw at device pixel ratio 2) for detail
  // finer than the 1 px line.
  let plotColumns = width;
  const columnsNow = (): ChartColumns => decimator.columnsFor(range[0], range[1], plotColumns);
  let drawn = columnsNow();
  // The plot's width before uPlot has laid it out: the chart's, less the two axes' room.
  let widths = lineWidths(drawn, range[0], range[1], width - LEFT_AXIS_PX - RIGHT_AXIS_PX);
  const ownOf = (seriesIdx: number): OwnPoints | undefined => decimator.ownPoints(drawn)?.[seriesIdx];
  const main = new uPlot(mainOptions(s, width, p, labels, startEpochS, callbacks, range, () => widths, ownOf), drawn, mainHost);
  const fitLines = (columns: ChartColumns): void => {
    widths = lineWidths(columns, range[0], range[1], main.bbox.width / devicePixelRatio);
  };
  plotColumns = main.bbox.width / devicePixelRatio || plotColumns;
  let laneNames = laneSet(s, podLanes(s), labels);
  const laneEvents = new LaneEvents();
  let lanes = new uPlot(lanesOptions(s, laneNames, width, p, labels, callbacks, range, laneEvents), lanesData(s), lanesHost);
  // uPlot redraws at a new device pixel ratio by itself; the lines must stay hairlines at it (their width
  // is 1 / ratio, see ownLines.ts), and their widening copies are counted in device pixels.
  const stopFollowingRatio = onPixelRatioChange(() => {
    for (const series of main.series) if (series.width !== undefined && series.width > 0) series.width = hairline();
    fitLines(drawn);
    main.redraw(true, false);
  });
  const apply = (): void => {
    main.setScale('x', { min: range[0], max: range[1] });
    lanes.setScale('x', { min: range[0], max: range[1] });
  };
  return {
    main,
    get lanes() {
      return lanes;
    },
    update() {
      drawn = columnsNow();
      fitLines(drawn);
      main.setData(drawn, false);
      const nowPods = podLanes(s);
      if (nowPods.join('\n') === laneNames.pods.join('\n')) {
        lanes.setData(lanesData(s), false);
        return;
      }
      const next = laneSet(s, nowPods, labels);
      if (next.names.length === laneNames.names.length) {
        // A pod overtook another (110 pods with close counts: twice in the benchmark's fifteen updates):
        // same lanes, new labels. Building the chart again cost that update 20–40 ms (a new canvas).
        laneNames.pods = next.pods;
        laneNames.names = next.names;
        lanes.setData(lanesData(s), false);
        lanes.redraw(false, true);
      } else {
        // A lane more or fewer: the lanes chart changes height, so it is built again.
        laneNames = next;
        lanes.destroy();
        lanes = new uPlot(lanesOptions(s, laneNames, width, p, labels, callbacks, range, laneEvents), lanesData(s), lanesHost);
      }
    },
    setRange(fromS, toS) {
      range = [fromS, Math.max(toS, fromS + 1e-3)];
      const next = columnsNow();
      fitLines(next);
      if (next !== drawn) {
        drawn = next;
        main.setData(drawn, false);
      }
      apply();
    },
    destroy() {
      stopFollowingRatio();
      main.destroy();
      lanes.destroy();
    },
  };
}
