// Turns a simulator timeline into the chart's columns. The health quantity is what Healthy() compares
// with the threshold: the time since the last successful relist *started* (the stamp), which becomes
// visible to Healthy() when that relist's GetPods returns. It grows by one second per second and drops
// whenever a new stamp becomes visible, so PLEG is unhealthy exactly while it is above the threshold.

import type { SimulationRun } from '../../pleg/sim/simulationRun';
import type { ChartSeries } from './whatIfTypes';

type Column = Exclude<keyof ChartSeries, 'x'>;
const COLUMNS: readonly Column[] = ['sinceLastRelistStart', 'relistDuration', 'failedRelist', 'unfinishedRelist'];

interface Row {
  xMs: number;
  column: Column | null;
  valueMs: number;
}

interface StampChange {
  visibleAtMs: number;
  stampMs: number;
}

/**
 * Stamp changes in time order. With `relistsRecorded: 'notable'` fast uneventful relists were not
 * recorded: where a gap between recorded relists is longer than one and a half periods, the unrecorded
 * relists' first and last stamps are estimated (one period after the earlier relist ended, one period
 * before the later one started), which keeps the drawn quantity below a period plus a fast relist there.
 */
function stampChanges(timeline: SimulationRun, periodMs: number): StampChange[] {
  const out: StampChange[] = [];
  const estimateGap = (fromMs: number, toMs: number): void => {
    if (timeline.relistsRecorded !== 'notable' || toMs - fromMs <= 1.5 * periodMs) return;
    out.push({ visibleAtMs: fromMs + periodMs, stampMs: fromMs + periodMs });
    if (toMs - periodMs > fromMs + periodMs) out.push({ visibleAtMs: toMs - periodMs, stampMs: toMs - periodMs });
  };
  let lastEndMs: number | undefined;
  for (const r of timeline.relists) {
    if (lastEndMs !== undefined) estimateGap(lastEndMs, r.startMs);
    if (r.ok) out.push({ visibleAtMs: r.getPodsEndMs, stampMs: r.startMs });
    lastEndMs = r.endMs;
  }
  const open = timeline.relistInFlight;
  if (lastEndMs !== undefined) estimateGap(lastEndMs, open === null ? timeline.durationMs : open.startMs);
  if (open !== null && open.ok && open.getPodsEndMs <= timeline.durationMs) out.push({ visibleAtMs: open.getPodsEndMs, stampMs: open.startMs });
  return out;
}

export function chartSeries(timeline: SimulationRun, periodMs: number): ChartSeries {
  const end = timeline.durationMs;
  const rows: Row[] = [
    { xMs: 0, column: null, valueMs: 0 },
    { xMs: end, column: null, valueMs: 0 },
  ];
  let stamp: number | undefined;
  for (const change of stampChanges(timeline, periodMs)) {
    if (stamp !== undefined) rows.push({ xMs: change.visibleAtMs, column: 'sinceLastRelistStart', valueMs: change.visibleAtMs - stamp });
    rows.push({ xMs: change.visibleAtMs, column: 'sinceLastRelistStart', valueMs: change.visibleAtMs - change.stampMs });
    stamp = change.stampMs;
  }
  if (stamp !== undefined) rows.push({ xMs: end, column: 'sinceLastRelistStart', valueMs: end - stamp });
  for (const r of timeline.relists) rows.push({ xMs: r.startMs, column: r.ok ? 'relistDuration' : 'failedRelist', valueMs: r.durationMs });
  const open = timeline.relistInFlight;
  if (open !== null) rows.push({ xMs: open.startMs, column: 'unfinishedRelist', valueMs: end - open.startMs });

  // A stable sort keeps each series' own order among equal x (the drop of the health quantity).
  rows.sort((a, b) => a.xMs - b.xMs);
  const series: ChartSeries = { x: [], sinceLastRelistStart: [], relistDuration: [], failedRelist: [], unfinishedRelist: [] };
  for (const row of rows) {
    series.x.push(row.xMs / 1000);
    for (const c of COLUMNS) series[c].push(c === row.column ? row.valueMs / 1000 : null);
  }
  return series;
}

/** The health quantity (ms) at time `xMs`, read back from the series by linear interpolation; for tests and hover text. */
export function sinceLastRelistStartAt(series: ChartSeries, xMs: number): number | undefined {
  const x = xMs / 1000;
  let before: [number, number] | undefined;
  for (let i = 0; i < series.x.length; i++) {
    const v = series.sinceLastRelistStart[i];
    const xi = series.x[i] as number;
    if (v === null || v === undefined) continue;
    if (xi <= x) before = [xi, v];
    else {
      // Between two points the quantity grows with time: it is the earlier value plus the time elapsed.
      return before === undefined ? undefined : (before[1] + (x - before[0])) * 1000;
    }
  }
  return before === undefined ? undefined : (before[1] + (x - before[0])) * 1000;
}
