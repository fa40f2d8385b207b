// One kubeconfig context's nodes, classified and kept in display order. Entries are long-lived objects
// (the host hands them to VS Code as tree elements and refreshes them by identity), so updates mutate
// them in place instead of replacing them.
//
// Order: a node sorts by the worst verdict it had in the last STICKY_MS (and as not-ready when its events
// show it flapping), not only by its verdict now, so a flapping node keeps its row instead of jumping
// between the top and its alphabetical place on every flap.

import type { NodeClassification } from '../classify/types';
import type { KubeEvent, KubeNode } from '../kube/objects';
import type { FlapSummary } from './flapHistory';
import { countFlaps, FLAP_WINDOW_S, isFlapping, isNotReadyEvent } from './flapHistory';
import type { SourceState } from './nodeSource';
import { compareNodes } from './nodeOrder';
import type { VerdictChange } from './verdictLog';
import { isUnhealthy, needsAttention, verdictRank } from './verdictPresentation';
import { errorText } from '../util/errorText';

/** How long a node keeps the sort position of its worst recent verdict after it recovered. */
export const STICKY_MS = FLAP_WINDOW_S * 1000;

export type ClassifyFn = (node: KubeNode, now: Date) => NodeClassification;

export interface NodeEntry {
  readonly kind: 'node';
  readonly context: string;
  readonly name: string;
  node: KubeNode;
  classification: NodeClassification;
  /** The node's NodeNotReady / NodeReady events, once loaded (see the host's flap tracker). */
  readyEvents?: readonly KubeEvent[];
  /** The worst verdict rank seen lately, kept for sorting until `untilMs`. */
  recent?: { rank: number; untilMs: number };
}

/** "flapped N× in 30 min" from the entry's events, at `now`. */
export function entryFlaps(entry: NodeEntry, now: Date): FlapSummary | undefined {
  return entry.readyEvents === undefined ? undefined : countFlaps(entry.readyEvents, now);
}

const NOT_READY_RANK = verdictRank('not-ready-other');

/** NotReady now, or flapping in the window (see needsAttention): what Diagnose All and the unhealthy filter keep. */
export function entryNeedsAttention(entry: NodeEntry, now: Date): boolean {
  return needsAttention(entry.classification.verdict, entryFlaps(entry, now));
}

/** What of a flap count a row or tooltip can show: nothing without NotReady events. */
function flapKey(f: FlapSummary | undefined): string {
  return f === undefined || f.count === 0 ? '' : `${f.count}${f.atLeast ? '+' : ''}`;
}

function sortRank(entry: NodeEntry, nowMs: number): number {
  const rank = verdictRank(entry.classification.verdict);
  return entry.recent !== undefined && entry.recent.untilMs > nowMs ? Math.min(rank, entry.recent.rank) : rank;
}

export interface ContextCounts {
  total: number;
  unhealthy: number;
  pleg: number;
  /** Ready, with node-problem-detector's PLEGAtRisk=True (counted in `unhealthy` too). */
  atRisk: number;
}

/** What an update did, so the host can refresh as little as possible. */
export type EntryUpdate =
  | { kind: 'none' } // nothing visible changed
  | { kind: 'entry'; entry: NodeEntry } // only this row's text changed; its position did not
  | { kind: 'order' }; // rows were added, removed or moved: refresh the whole context

export interface ContextInfoLike {
  name: string;
  isCurrent: boolean;
  server?: string;
}

/** Everything a row shows from its classification; equal keys mean nothing to redraw. */
function visibleKey(c: NodeClassification): string {
  return JSON.stringify([c.verdict, c.readyStatus, c.readyReason, c.since, c.cordoned, c.pressures, c.message, c.plegLastSeenAgoSeconds, c.versions, c.pods, c.taints, c.warnings, c.atRisk]);
}

export class ContextNodes {
  readonly kind = 'context' as const;
  readonly name: string;
  isCurrent: boolean;
  server: string | undefined;
  state: SourceState = { kind: 'connecting' };
  private readonly entries = new Map<string, NodeEntry>();
  private sorted: NodeEntry[] | undefined;
  private cachedCounts: ContextCounts | undefined;
  /** The time of the last update: what the sort compares sticky ranks against. */
  private nowMs = 0;

  constructor(
    info: ContextInfoLike,
    private readonly classify: ClassifyFn,
    private readonly onVerdictChange: (change: VerdictChange) => void = () => undefined,
  ) {
    this.name = info.name;
    this.isCurrent = info.isCurrent;
    this.server = info.server;
  }

  get size(): number {
    return this.entries.size;
  }

  get(name: string): NodeEntry | undefined {
    return this.entries.get(name);
  }

  upsert(node: KubeNode, now: Date): EntryUpdate {
    const name = node.metadata?.name;
    if (name === undefined || name === '') return { kind: 'none' };
    this.nowMs = now.getTime();
    const classification = this.safeClassify(node, now, name);
    const existing = this.entries.get(name);
    if (existing === undefined) {
      this.entries.set(name, { kind: 'node', context: this.name, name, node, classification });
      this.reportVerdict(name, undefined, classification);
      this.invalidate();
      return { kind: 'order' };
    }
    const before = existing.classification;
    existing.node = node;
    existing.classification = classification;
    if (before.verdict !== classification.verdict) {
      this.remember(existing, before, now);
      this.reportVerdict(name, before.verdict, classification);
      this.invalidate();
      return { kind: 'order' };
    }
    return visibleKey(before) === visibleKey(classification) ? { kind: 'none' } : { kind: 'entry', entry: existing };
  }

  remove(name: string): EntryUpdate {
    if (!this.entries.delete(name)) return { kind: 'none' };
    this.invalidate();
    return { kind: 'order' };
  }

  /** A full relist: keep the entry objects of nodes that survived, drop the rest. */
  replaceAll(nodes: Iterable<KubeNode>, now: Date): EntryUpdate {
    this.nowMs = now.getTime();
    const seen = new Set<string>();
    for (const node of nodes) {
      const name = node.metadata?.name;
      if (name === undefined || name === '') continue;
      seen.add(name);
      const classification = this.safeClassify(node, now, name);
      const existing = this.entries.get(name);
      if (existing === undefined) {
        this.entries.set(name, { kind: 'node', context: this.name, name, node, classification });
        this.reportVerdict(name, undefined, classification);
      } else {
        const before = existing.classification;
        existing.node = node;
        existing.classification = classification;
        if (before.verdict !== classification.verdict) {
          this.remember(existing, before, now);
          this.reportVerdict(name, before.verdict, classification);
        }
      }
    }
    for (const name of [...this.entries.keys()]) if (!seen.has(name)) this.entries.delete(name);
    this.invalidate();
    return { kind: 'order' };
  }

  clear(): void {
    this.entries.clear();
    this.invalidate();
  }

  /**
   * Stores a node's Ready events (others are dropped). A flapping node sorts as not-ready until its last
   * NotReady event leaves the window. 'order' when that moved the row, 'entry' when only its text changed.
   */
  setReadyEvents(name: string, events: readonly KubeEvent[], now: Date): EntryUpdate {
    const entry = this.entries.get(name);
    if (entry === undefined) return { kind: 'none' };
    const before = sortRank(entry, now.getTime());
    const flapsBefore = entryFlaps(entry, now);
    entry.readyEvents = events.filter((e) => isNotReadyEvent(e) || e.reason === 'NodeReady');
    const flaps = entryFlaps(entry, now);
    if (isFlapping(flaps)) {
      const last = Math.max(...entry.readyEvents.filter(isNotReadyEvent).map((e) => Date.parse(String(e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp))).filter((ms) => !Number.isNaN(ms)));
      if (Number.isFinite(last)) this.stick(entry, NOT_READY_RANK, last + STICKY_MS);
    }
    if (sortRank(entry, now.getTime()) !== before) {
      this.invalidate();
      return { kind: 'order' };
    }
    return flapKey(flapsBefore) === flapKey(flaps) ? { kind: 'none' } : { kind: 'entry', entry };
  }

  /** Drops sticky sort ranks that ran out; 'order' when a row moves because of it. */
  expire(now: Date): EntryUpdate {
    this.nowMs = now.getTime();
    let moved = false;
    for (const e of this.entries.values()) {
      if (e.recent === undefined || e.recent.untilMs > this.nowMs) continue;
      const before = Math.min(verdictRank(e.classification.verdict), e.recent.rank);
      delete e.recent;
      if (verdictRank(e.classification.verdict) !== before) moved = true;
    }
    if (!moved) return { kind: 'none' };
    this.invalidate();
    return { kind: 'order' };
  }

  /**
   * Display order: worst (recent) verdict first, then by name. With `onlyUnhealthy`, the nodes that need no
   * attention are left out: a node NotReady now stays, and so does one that flaps (Ready for a moment).
   */
  rows(onlyUnhealthy = false): readonly NodeEntry[] {
    const nowMs = this.nowMs;
    this.sorted ??= [...this.entries.values()].sort((a, b) => sortRank(a, nowMs) - sortRank(b, nowMs) || compareNodes(a.classification, b.classification));
    if (!onlyUnhealthy) return this.sorted;
    const now = new Date(nowMs);
    return this.sorted.filter((e) => entryNeedsAttention(e, now));
  }

  counts(): ContextCounts {
    if (this.cachedCounts === undefined) {
      const counts = { total: 0, unhealthy: 0, pleg: 0, atRisk: 0 };
      for (const e of this.entries.values()) {
        counts.total++;
        if (isUnhealthy(e.classification.verdict)) counts.unhealthy++;
        if (e.classification.verdict === 'pleg') counts.pleg++;
        if (e.classification.verdict === 'pleg-at-risk') counts.atRisk++;
      }
      this.cachedCounts = counts;
    }
    return this.cachedCounts;
  }

  /** A node leaving an unhealthy verdict keeps that verdict's sort position for STICKY_MS. */
  private remember(entry: NodeEntry, before: NodeClassification, now: Date): void {
    if (isUnhealthy(before.verdict)) this.stick(entry, verdictRank(before.verdict), now.getTime() + STICKY_MS);
  }

  private stick(entry: NodeEntry, rank: number, untilMs: number): void {
    const current = entry.recent !== undefined && entry.recent.untilMs > this.nowMs ? entry.recent : undefined;
    entry.recent = { rank: Math.min(rank, current?.rank ?? rank), untilMs: Math.max(untilMs, current?.untilMs ?? untilMs) };
  }

  private reportVerdict(name: string, from: NodeClassification['verdict'] | undefined, c: NodeClassification): void {
    // First sightings of healthy nodes are not news; 5,000 of them would drown the log.
    if (from === undefined && !isUnhealthy(c.verdict)) return;
    this.onVerdictChange({ context: this.name, name, from, to: c.verdict, readyStatus: c.readyStatus, message: c.message !== '' ? c.message : c.summary });
  }

  private invalidate(): void {
    this.sorted = undefined;
    this.cachedCounts = undefined;
  }

  /** classifyNode promises never to throw; if it does anyway the node stays visible with the reason. */
  private safeClassify(node: KubeNode, now: Date, name: string): NodeClassification {
    try {
      return this.classify(node, now);
    } catch (err) {
      return {
        name,
        verdict: 'not-ready-other',
        summary: 'classification failed',
        message: '',
        readyStatus: 'missing',
        cordoned: node.spec?.unschedulable === true,
        pressures: [],
        errors: [],
        versions: {},
        pods: {},
        taints: [],
        warnings: [`classification failed: ${errorText(err)}`],
      };
    }
  }
}
