// A TimelineSession turned into what the charts draw: one shared x array (seconds since t = 0) holding
// every relist end and every kubelet scrape, each series null where it has no sample, plus the bands and
// markers. Built once for a session and then grown by appending deltas, so a live update costs only its
// new samples. Pure (no DOM).

import { readyReason } from '../../src/core/timeline/readyReason';
import { lowerBound } from './lowerBound';
import type { KubeletSample, SessionDelta, SessionHealth, SessionPodEvent, SessionPrediction, SessionReady, SessionRelist, TimelineSession } from '../../src/core/timeline/session';

export interface Window {
  fromS: number;
  /** null: still open at the session's end. */
  toS: number | null;
}

export interface ReadySpan extends Window {
  status: SessionReady['status'];
  /** What the lane segment is labelled with: the message's errors, e.g. "container runtime is down" (readyReason). */
  reason: string;
}

export interface Marker {
  atS: number;
  /** Index into session.relists. */
  relist: number;
  count: number;
}

export interface SessionSeries {
  x: number[];
  /** What Healthy() compares with the threshold, at each relist's end (s). */
  sinceLastRelistStart: Array<number | null>;
  /**
   * Successful relists' durations (s). Durations are drawn on a log scale, which cannot show zero: they
   * are kept at least a microsecond, so instant relists still appear. Kept here, not copied per draw.
   */
  relistDuration: Array<number | null>;
  /** Failed relists' durations (s). */
  failedRelist: Array<number | null>;
  /** The kubelet's own numbers from its /metrics, at each scrape (duration at least a microsecond). */
  kubeletRelistDuration: Array<number | null>;
  kubeletLastSeenAge: Array<number | null>;
  /**
   * 1.36+: the kubelet's mean on-demand per-pod relist duration (s, at least a microsecond): each one holds
   * the lock the periodic relist needs, so a slow pod shows here before the periodic relist stalls.
   */
  kubeletPodRelistDuration: Array<number | null>;
  /** For each x, the relist ending there (index into session.relists), or -1 for a kubelet scrape. */
  relistAt: number[];
  /**
   * PLEG unhealthy windows: from the model's Healthy() when the session has relists; a session without
   * them (the live feed without SSH, an evidence folder) takes them from the kubelet's own
   * kubelet_pleg_last_seen_seconds, unhealthy while now − last seen exceeds the threshold.
   */
  unhealthy: Window[];
  /** Where the PLEG health lane's windows come from; null before the first relist or scrape says. */
  healthSource: 'model' | 'kubelet' | null;
  /** Where PLEG health is known from (s): the first relist's end, or the kubelet's first last-seen stamp. */
  healthKnownFromS: number | null;
  /** The first successful relist's end (s): Healthy() says "pleg has yet to be successful" before it. */
  firstGoodEndS: number | null;
  /** The live feed's predictions of the PLEG NotReady post, as made: when (atS) it expected it (predictedS). */
  plegPosts: { atS: number; predictedS: number }[];
  ready: ReadySpan[];
  discards: Marker[];
  rpcErrors: Marker[];
  /**
   * The kubelet's own CRI errors: where kubelet_runtime_operations_errors_total grew between two scrapes
   * (`count` the growth, `detail` the operations, e.g. "podsandbox_status +1"). relist is -1.
   */
  kubeletErrors: Array<Marker & { detail: string }>;
  /** The previous scrape's cumulative errors by operation, to take the growth from. */
  lastRuntimeErrors: Record<string, number> | null;
  /** Pod events sorted by time. */
  podEvents: SessionPodEvent[];
  /** Events per pod, for choosing which pods get a lane. */
  eventsPerPod: Map<string, number>;
  /** The event types present, for the legend. */
  eventTypes: Set<SessionPodEvent['type']>;
  endS: number;
  thresholdS: number;
  /** The relist period (s): successful relists further apart than a few periods are not joined by a line. */
  relistPeriodS: number;
  /** The stamp Healthy() compares with: the last successful relist's start (s), null before one. */
  lastGoodStartS: number | null;
  /** Rows written: the columns' length, except while sessionSeries fills columns it sized beforehand. */
  rows: number;
}

export function emptySeries(thresholdMs: number, relistPeriodMs = 1_000): SessionSeries {
  return {
    x: [],
    sinceLastRelistStart: [],
    relistDuration: [],
    failedRelist: [],
    kubeletRelistDuration: [],
    kubeletLastSeenAge: [],
    kubeletPodRelistDuration: [],
    relistAt: [],
    unhealthy: [],
    healthSource: null,
    healthKnownFromS: null,
    firstGoodEndS: null,
    plegPosts: [],
    ready: [],
    discards: [],
    rpcErrors: [],
    kubeletErrors: [],
    lastRuntimeErrors: null,
    podEvents: [],
    eventsPerPod: new Map(),
    eventTypes: new Set(),
    endS: 0,
    thresholdS: thresholdMs / 1000,
    relistPeriodS: relistPeriodMs / 1000,
    lastGoodStartS: null,
    rows: 0,
  };
}

const MIN_DURATION_S = 1e-6;

/**
 * Writes one row of every column: into columns sized beforehand (a whole recording), or appended (live).
 * Sizing first matters: pushing 170,000 rows of numbers and nulls made V8 grow each column and change
 * its element kind on the way, 200 of the 500 ms a 24 h recording took to open.
 */
function putRow(
  s: SessionSeries,
  atS: number,
  since: number | null,
  duration: number | null,
  failed: number | null,
  kubeletDuration: number | null,
  kubeletAge: number | null,
  relist: number,
  kubeletPodDuration: number | null = null,
): void {
  const i = s.rows++;
  if (i < s.x.length) {
    s.x[i] = atS;
    s.sinceLastRelistStart[i] = since;
    s.relistDuration[i] = duration;
    s.failedRelist[i] = failed;
    s.kubeletRelistDuration[i] = kubeletDuration;
    s.kubeletLastSeenAge[i] = kubeletAge;
    s.kubeletPodRelistDuration[i] = kubeletPodDuration;
    s.relistAt[i] = relist;
    return;
  }
  s.x.push(atS);
  s.sinceLastRelistStart.push(since);
  s.relistDuration.push(duration);
  s.failedRelist.push(failed);
  s.kubeletRelistDuration.push(kubeletDuration);
  s.kubeletLastSeenAge.push(kubeletAge);
  s.kubeletPodRelistDuration.push(kubeletPodDuration);
  s.relistAt.push(relist);
}

function pushRelist(s: SessionSeries, r: SessionRelist, index: number): void {
  const atS = r.endMs / 1000;
  const durationS = Math.max(MIN_DURATION_S, (r.endMs - r.startMs) / 1000);
  // The quantity peaks just before a successful relist moves the stamp (a hung relist that comes back is
  // the peak): draw that instant too, or the line would never reach what Healthy() saw.
  if (r.ok && s.lastGoodStartS !== null) putRow(s, atS - 1e-6, atS - s.lastGoodStartS, null, null, null, null, -1);
  if (r.ok) s.lastGoodStartS = r.startMs / 1000;
  if (r.ok && s.firstGoodEndS === null) s.firstGoodEndS = atS;
  useModelHealth(s, atS);
  putRow(s, atS, r.sinceLastRelistStartMs / 1000, r.ok ? durationS : null, r.ok ? null : durationS, null, null, index);
  if (r.discards > 0) s.discards.push({ atS, relist: index, count: r.discards });
  let errors = 0;
  for (const c of r.rpcs) if (c.error !== undefined) errors++;
  // A failed relist whose error is not one of its calls' (e.g. the feed's own deadline) still counts.
  if (errors === 0 && r.error !== undefined) errors = 1;
  if (errors > 0) s.rpcErrors.push({ atS, relist: index, count: errors });
}

function pushKubelet(s: SessionSeries, k: KubeletSample): void {
  const duration = (v: number | undefined): number | null => (v === undefined ? null : Math.max(MIN_DURATION_S, v));
  putRow(s, k.atMs / 1000, null, null, null, duration(k.relistDurationS), k.lastSeenAgeS ?? null, -1, duration(k.podRelistDurationS));
  if (s.healthSource !== 'model' && k.lastSeenAgeS !== undefined) addKubeletHealth(s, k.atMs / 1000, k.lastSeenAgeS);
  if (k.runtimeErrors !== undefined) addKubeletErrors(s, k.atMs / 1000, k.runtimeErrors);
}

/**
 * The growth of kubelet_runtime_operations_errors_total since the previous scrape, per operation. A
 * counter that went down is a restarted kubelet: its new value is the growth since the restart.
 */
function addKubeletErrors(s: SessionSeries, atS: number, errors: Record<string, number>): void {
  const previous = s.lastRuntimeErrors;
  s.lastRuntimeErrors = errors;
  if (previous === null) return;
  const grown: string[] = [];
  let count = 0;
  for (const [op, value] of Object.entries(errors)) {
    const before = previous[op] ?? 0;
    const delta = value >= before ? value - before : value;
    if (delta <= 0) continue;
    count += delta;
    grown.push(`${op} +${delta}`);
  }
  if (count > 0) s.kubeletErrors.push({ atS, relist: -1, count, detail: grown.join(', ') });
}

/** The model's relists (or Healthy() changes) decide PLEG health from now on; windows taken from the kubelet are dropped. */
function useModelHealth(s: SessionSeries, atS: number): void {
  if (s.healthSource === 'model') return;
  if (s.healthSource === 'kubelet') s.unhealthy = [];
  s.healthSource = 'model';
  s.healthKnownFromS = atS;
}

/**
 * One scrape's kubelet_pleg_last_seen_seconds: the kubelet's stamp is atS − age, and its Healthy() is
 * false from stamp + threshold until a later scrape shows a newer stamp (kubelet generic.go Healthy()
 * compares the same stamp with the same threshold).
 */
function addKubeletHealth(s: SessionSeries, atS: number, ageS: number): void {
  const stampS = atS - ageS;
  if (s.healthSource === null) {
    s.healthSource = 'kubelet';
    s.healthKnownFromS = Math.max(0, Math.min(atS, stampS));
  }
  const open = s.unhealthy[s.unhealthy.length - 1];
  const crossingS = Math.max(0, stampS + s.thresholdS);
  if (ageS > s.thresholdS) {
    if (open === undefined || open.toS !== null) s.unhealthy.push({ fromS: crossingS, toS: null });
  } else if (open !== undefined && open.toS === null) {
    // A newer stamp: the relist that set it made Healthy() true again when it started.
    open.toS = Math.max(open.fromS, stampS);
  }
}

/** Appends relists and scrapes in time order; both lists are in time order already. */
function mergeSamples(s: SessionSeries, relists: readonly SessionRelist[], firstIndex: number, kubelet: readonly KubeletSample[]): void {
  let i = 0;
  let j = 0;
  while (i < relists.length || j < kubelet.length) {
    const r = relists[i];
    const k = kubelet[j];
    if (r !== undefined && (k === undefined || r.endMs <= k.atMs)) {
      pushRelist(s, r, firstIndex + i);
      i++;
    } else if (k !== undefined) {
      pushKubelet(s, k);
      j++;
    }
  }
}

function addHealth(s: SessionSeries, health: readonly SessionHealth[]): void {
  if (health.length > 0) useModelHealth(s, Math.min(s.healthKnownFromS ?? Infinity, health[0]!.atMs / 1000));
  for (const h of health) {
    const open = s.unhealthy[s.unhealthy.length - 1];
    if (!h.healthy && (open === undefined || open.toS !== null)) s.unhealthy.push({ fromS: h.atMs / 1000, toS: null });
    else if (h.healthy && open !== undefined && open.toS === null) {
      open.toS = h.atMs / 1000;
      // Before its first successful relist the model's Healthy() says "pleg has yet to be successful": the
      // recording's first instant, not the node's state. Kept only when it lasted past the threshold.
      if (isStartupWindow(s, open)) s.unhealthy.pop();
    }
  }
}

/** An unhealthy window that opened before the session's first successful relist and closed within the threshold. */
export function isStartupWindow(s: SessionSeries, w: Window): boolean {
  return w.toS !== null && (s.firstGoodEndS === null || w.fromS < s.firstGoodEndS) && w.toS - w.fromS < s.thresholdS;
}

function addPredictions(s: SessionSeries, predictions: readonly SessionPrediction[]): void {
  for (const p of predictions) if (p.event === 'pleg-notready-posted' && p.predictedAtMs !== null) s.plegPosts.push({ atS: p.atMs / 1000, predictedS: p.predictedAtMs / 1000 });
}

/**
 * Where the predicted NotReady band of an unhealthy window starts: the post predicted when the window
 * opened (else the first prediction made during it); recordings without predictions start it at the crossing.
 */
export function predictedPostS(s: SessionSeries, w: Window): number {
  let before: number | undefined;
  for (const p of s.plegPosts) {
    if (p.atS <= w.fromS) before = p.predictedS;
    else if (before === undefined && (w.toS === null || p.atS <= w.toS)) return p.predictedS;
    else break;
  }
  return before ?? w.fromS;
}

/** Ready spans, one per status and reason: "container runtime is down" turning into "…, PLEG is not healthy" is a new segment. */
/** After PLEG recovers the kubelet posts Ready at its next status update: about this much later. */
export const NODE_STATUS_UPDATE_S = 10;

/**
 * The predicted NotReady lane's windows: each unhealthy window from its predicted post (a hung runtime
 * delays it well past the crossing); a window that closes before its post is due predicts none.
 */
export function predictedBands(s: SessionSeries): Window[] {
  return s.unhealthy.map((w) => ({ fromS: Math.max(w.fromS, predictedPostS(s, w)), toS: w.toS })).filter((w) => w.toS === null || w.fromS < w.toS + NODE_STATUS_UPDATE_S);
}

function addReady(s: SessionSeries, ready: readonly SessionReady[]): void {
  for (const r of ready) {
    const last = s.ready[s.ready.length - 1];
    const reason = readyReason(r);
    if (last !== undefined) {
      if (last.status === r.status && last.reason === reason) continue;
      last.toS = r.atMs / 1000;
    }
    s.ready.push({ fromS: r.atMs / 1000, toS: null, status: r.status, reason });
  }
}

function addPodEvents(s: SessionSeries, events: readonly SessionPodEvent[]): void {
  for (const e of events) {
    s.podEvents.push(e);
    s.eventsPerPod.set(e.pod, (s.eventsPerPod.get(e.pod) ?? 0) + 1);
    s.eventTypes.add(e.type);
  }
  // Deltas arrive in time order; a recording might not: keep the lane drawing's binary search valid.
  const n = s.podEvents.length;
  if (events.length > 0 && n > events.length && s.podEvents[n - events.length - 1]!.atMs > events[0]!.atMs) s.podEvents.sort((a, b) => a.atMs - b.atMs);
}

/** Rows a whole session makes: one per relist and scrape, plus the peak before every successful relist but the first. */
function rowCount(session: TimelineSession): number {
  let ok = 0;
  for (const r of session.relists) if (r.ok) ok++;
  return session.relists.length + Math.max(0, ok - 1) + session.kubelet.length;
}

export function sessionSeries(session: TimelineSession): SessionSeries {
  const s = emptySeries(session.settings.thresholdMs, session.settings.relistPeriodMs);
  const rows = rowCount(session);
  // Sized with room for live rows to come: a column that is full when the first live row arrives is copied
  // whole (14 ms per column for a day), and the shortened length below keeps the room (V8 trims an
  // array's store only when less than half of it is used).
  const capacity = rows + Math.max(1024, rows >> 4);
  s.x = new Array<number>(capacity).fill(0);
  s.relistAt = new Array<number>(capacity).fill(-1);
  for (const key of ['sinceLastRelistStart', 'relistDuration', 'failedRelist', 'kubeletRelistDuration', 'kubeletLastSeenAge', 'kubeletPodRelistDuration'] as const) s[key] = new Array<number | null>(capacity).fill(null);
  for (const column of [s.x, s.relistAt, s.sinceLastRelistStart, s.relistDuration, s.failedRelist, s.kubeletRelistDuration, s.kubeletLastSeenAge, s.kubeletPodRelistDuration]) column.length = rows;
  mergeSamples(s, session.relists, 0, session.kubelet);
  // A miscount would leave rows of zeros the charts would draw: fail here instead.
  if (s.rows !== rows) throw new Error(`timeline series: ${s.rows} rows written, ${rows} expected`);
  addHealth(s, session.health);
  addPredictions(s, session.predictions ?? []);
  addReady(s, session.ready);
  addPodEvents(s, [...session.podEvents].sort((a, b) => a.atMs - b.atMs));
  s.endS = session.durationMs / 1000;
  openCrossedTail(s);
  return s;
}

/** Grows the series by a delta that has already been applied to `session` (A's LiveSource does both). */
export function appendDelta(s: SessionSeries, session: TimelineSession, delta: SessionDelta): void {
  const relists = delta.relists ?? [];
  mergeSamples(s, relists, session.relists.length - relists.length, delta.kubelet ?? []);
  addHealth(s, delta.health ?? []);
  addPredictions(s, delta.predictions ?? []);
  addReady(s, delta.ready ?? []);
  addPodEvents(s, delta.podEvents ?? []);
  s.endS = Math.max(s.endS, delta.durationMs / 1000);
  if (delta.settings !== undefined) s.relistPeriodS = delta.settings.relistPeriodMs / 1000;
  if (delta.settings !== undefined) s.thresholdS = delta.settings.thresholdMs / 1000;
  openCrossedTail(s);
}

/**
 * The health line's tail (the age since the last successful relist's start, drawn on to the session's end)
 * past the threshold with no unhealthy window open: the model's Healthy() is false from the crossing, as
 * the prediction sentence says. A live feed's model says so itself at that instant; a source that fell
 * silent (the agent behind a port-forward the hung runtime stops) cannot, while the session's end follows
 * the clock: the lane then shows what the line shows. A later Healthy() change closes it as any other.
 */
function openCrossedTail(s: SessionSeries): void {
  if (s.healthSource !== 'model' || s.lastGoodStartS === null) return;
  const crossingS = s.lastGoodStartS + s.thresholdS;
  const open = s.unhealthy[s.unhealthy.length - 1];
  if (crossingS < s.endS && (open === undefined || (open.toS !== null && open.toS <= crossingS))) s.unhealthy.push({ fromS: crossingS, toS: null });
}

/** The index in sorted `xs` of the value nearest `x` for which `keep` holds, or -1. */
export function nearestIndex(xs: readonly number[], x: number, keep: (i: number) => boolean): number {
  const lo = lowerBound(xs.length, (i) => xs[i]! < x);
  let left = lo - 1;
  let right = lo;
  while (left >= 0 && !keep(left)) left--;
  while (right < xs.length && !keep(right)) right++;
  if (left < 0) return right < xs.length ? right : -1;
  if (right >= xs.length) return left;
  return x - xs[left]! <= xs[right]! - x ? left : right;
}

/**
 * The value a line joining the non-null points of `ys` draws at `atS` (uPlot joins them straight, gaps
 * spanned), so the hover reads what the eye sees; past the last point, the line continues to `tail` when
 * given (the health quantity's dashed growth to the session's end). Null outside the drawn line.
 */
export function drawnValueAt(xs: readonly number[], ys: ReadonlyArray<number | null>, atS: number, tail?: { x: number; y: number }): number | null {
  const hi = lowerBound(xs.length, (i) => xs[i]! < atS);
  let right = hi;
  while (right < xs.length && (ys[right] === null || ys[right] === undefined)) right++;
  let left = hi - 1;
  while (left >= 0 && (ys[left] === null || ys[left] === undefined)) left--;
  const at = (i: number): [number, number] => [xs[i]!, ys[i]!];
  const r: [number, number] | undefined = right < xs.length ? at(right) : tail !== undefined && left >= 0 && tail.x >= atS ? [tail.x, tail.y] : undefined;
  if (left < 0) return r !== undefined && r[0] === atS ? r[1] : null;
  const l = at(left);
  if (r === undefined) return l[0] === atS ? l[1] : null;
  if (r[0] === l[0]) return r[1];
  return l[1] + ((r[1] - l[1]) * (atS - l[0])) / (r[0] - l[0]);
}

/** Pods with the most events get their own lane; the rest share one. */
export const MAX_POD_LANES = 12;

/** The pods with lanes: most events first, then by name; the rest share the "other pods" lane. */
export function podLanes(s: SessionSeries): string[] {
  return [...s.eventsPerPod.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, MAX_POD_LANES)
    .map(([pod]) => pod);
}
