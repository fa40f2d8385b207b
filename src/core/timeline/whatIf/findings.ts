// The what-if's findings in words, the most important first: lost events, then the node's Ready
// condition, then PLEG health, then what merely explains them.

import type { SimulationRun } from '../../pleg/sim/simulationRun';
import type { Finding, TimeWindow } from './whatIfTypes';

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** How close before a freeze the last successful relist must have started for the freeze to be the cause. */
const FREEZE_LINK_MS = 5_000;

function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

export interface FindingInputs {
  timeline: SimulationRun;
  /** When the runtime froze, if it did: the first unhealthy time is also given relative to it. */
  freezeAtMs: number | undefined;
  thresholdMs: number;
  channelCapacity: number;
  unhealthy: readonly TimeWindow[];
  notReady: readonly TimeWindow[];
}

export function whatIfFindings({ timeline, freezeAtMs, thresholdMs, channelCapacity, unhealthy, notReady }: FindingInputs): Finding[] {
  const s = timeline.summary;
  const out: Finding[] = [];
  if (s.discards > 0) {
    out.push({ level: 'critical', text: `${count(s.discards)} events discarded: channel full (capacity ${count(channelCapacity)}). The kubelet never sees these container changes.` });
  }
  const firstNotReady = notReady[0];
  const firstNotReadyPost = timeline.nodeReady.find((n) => n.status === 'False');
  if (firstNotReady !== undefined && firstNotReadyPost !== undefined) {
    out.push({ level: 'critical', text: `Node posted Ready=False at ${seconds(firstNotReady.fromMs)}: "${firstNotReadyPost.message}"` });
  }
  const firstUnhealthy = unhealthy[0];
  if (firstUnhealthy === undefined) {
    out.push({ level: 'info', text: `PLEG stayed healthy: the time since the last successful relist started never exceeded the ${seconds(thresholdMs)} threshold.` });
  } else {
    // Tie the crossing to the freeze only when the freeze stopped the relists: the last successful one
    // started just before it. A relist that was already too slow is not the freeze's doing.
    const lastStartMs = firstUnhealthy.fromMs - thresholdMs;
    const byFreeze = freezeAtMs !== undefined && lastStartMs <= freezeAtMs && freezeAtMs - lastStartMs <= FREEZE_LINK_MS;
    const relativeTo = byFreeze ? ` (${seconds(firstUnhealthy.fromMs - freezeAtMs)} after the freeze)` : '';
    out.push({
      level: 'critical',
      text: `PLEG first unhealthy at ${seconds(firstUnhealthy.fromMs)}${relativeTo}: the last successful relist had started more than ${seconds(thresholdMs)} earlier. Unhealthy for ${seconds(s.unhealthyMs)} in total.`,
    });
  }
  const open = timeline.relistInFlight;
  if (open !== null && timeline.durationMs - open.startMs > thresholdMs) {
    out.push({ level: 'warning', text: `A relist started at ${seconds(open.startMs)} was still running when the run ended, ${seconds(timeline.durationMs - open.startMs)} later.` });
  }
  if (s.criTimeouts > 0) out.push({ level: 'warning', text: `${plural(s.criTimeouts, 'CRI call')} hit the runtime request timeout.` });
  out.push({ level: 'info', text: `${plural(s.relists, 'relist')} finished, ${count(s.failedRelists)} failed; longest ${seconds(s.maxRelistMs)}, mean ${seconds(s.meanRelistMs)}.` });
  return out;
}
