// The pod events as the lanes draw them: time, pod and kind in typed columns, mirrored from the series'
// event list and grown as deltas append to it. A day in view walks all of them at every redraw (15,000
// for the benchmark's day), and reading three typed arrays is several times faster than an object and a
// Map lookup by pod name per event. Pure (no DOM).

import type { SessionPodEvent } from '../../src/core/timeline/session';
import { lowerBound } from './lowerBound';

/** Event kinds in the order of their index in `kind`; any other type is drawn as Changed. */
export const EVENT_KINDS = ['ContainerStarted', 'ContainerDied', 'ContainerRemoved', 'ContainerChanged'] as const;
export const CHANGED_KIND = 3;

function kindIndex(type: string): number {
  const k = (EVENT_KINDS as readonly string[]).indexOf(type);
  return k < 0 ? CHANGED_KIND : k;
}

export class LaneEvents {
  /** Seconds since t = 0, ascending. */
  atS = new Float64Array(1024);
  /** Index into `podNames`. */
  pod = new Int32Array(1024);
  /** Index into EVENT_KINDS. */
  kind = new Uint8Array(1024);
  length = 0;
  readonly podNames: string[] = [];
  private readonly podIds = new Map<string, number>();
  /** The event the mirror ends with. */
  private last: SessionPodEvent | undefined;

  /**
   * Brings the mirror up to `events`, which only grows, except that the series sorts it in place when
   * events arrive out of order. Sorting is stable, so the mirrored prefix is unchanged exactly when the
   * event it ended with is still at its place (anything sorted before it would have pushed it right);
   * otherwise the mirror is built again.
   */
  sync(events: readonly SessionPodEvent[]): void {
    if (this.length > events.length || (this.length > 0 && events[this.length - 1] !== this.last)) this.length = 0;
    if (events.length > this.atS.length) this.grow(events.length);
    for (let i = this.length; i < events.length; i++) {
      const e = events[i]!;
      let id = this.podIds.get(e.pod);
      if (id === undefined) {
        id = this.podNames.length;
        this.podIds.set(e.pod, id);
        this.podNames.push(e.pod);
      }
      this.atS[i] = e.atMs / 1000;
      this.pod[i] = id;
      this.kind[i] = kindIndex(e.type);
    }
    this.length = events.length;
    this.last = events[events.length - 1];
  }

  /** The pod's id, or undefined when it has no event. */
  idOf(pod: string): number | undefined {
    return this.podIds.get(pod);
  }

  /** The first event at or after `atS`. */
  firstAt(atS: number): number {
    return lowerBound(this.length, (i) => this.atS[i]! < atS);
  }

  private grow(n: number): void {
    const size = 2 ** Math.ceil(Math.log2(n + n / 8));
    const atS = new Float64Array(size);
    const pod = new Int32Array(size);
    const kind = new Uint8Array(size);
    atS.set(this.atS.subarray(0, this.length));
    pod.set(this.pod.subarray(0, this.length));
    kind.set(this.kind.subarray(0, this.length));
    this.atS = atS;
    this.pod = pod;
    this.kind = kind;
  }
}

/**
 * The marks the pod lanes draw for the events in [fromS, toS]: one per lane and pixel column (a day in
 * view puts thousands of events in a column), of the latest event's kind there, except that a Changed
 * does not cover a Started, Died or Removed in the same column. An event at t is in column
 * round(x0 + (t - fromS) · pxPerS). Calls `mark(lane, x, kind)` per mark; `laneOfPod` maps a pod id to
 * its lane, which is below `lanes`.
 */
export function columnMarks(events: LaneEvents, laneOfPod: Int32Array, lanes: number, fromS: number, toS: number, x0: number, pxPerS: number, mark: (lane: number, x: number, kind: number) => void): void {
  if (!(pxPerS > 0) || !Number.isFinite(pxPerS)) return;
  const pendingX = new Float64Array(lanes).fill(Number.NaN);
  const pendingKind = new Uint8Array(lanes);
  const { atS, pod, kind } = events;
  for (let i = events.firstAt(fromS), n = events.length; i < n; i++) {
    const t = atS[i]!;
    if (t > toS) break;
    const lane = laneOfPod[pod[i]!]!;
    const x = Math.round(x0 + (t - fromS) * pxPerS);
    const k = kind[i]!;
    const pending = pendingX[lane]!;
    if (pending === x) {
      if (k !== CHANGED_KIND) pendingKind[lane] = k;
      continue;
    }
    if (pending === pending) mark(lane, pending, pendingKind[lane]!);
    pendingX[lane] = x;
    pendingKind[lane] = k;
  }
  for (let lane = 0; lane < lanes; lane++) {
    const pending = pendingX[lane]!;
    if (pending === pending) mark(lane, pending, pendingKind[lane]!);
  }
}
