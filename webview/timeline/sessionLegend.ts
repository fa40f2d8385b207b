// The session pane's legend: an entry for each thing the charts draw for this session, and nothing else
// (a simulation draws no pod events and a feed without SSH no relists: their entries would be noise).
// Pure (no DOM), so the unit tests hold it.

import type { ChartWords } from './chartWords';
import { predictedBands, type SessionSeries } from './sessionSeries';

/** What the session legend can name; each is also a colour of the session charts' palette (sessionChart.ts). */
export type SessionLegendKey =
  | 'health'
  | 'threshold'
  | 'duration'
  | 'failed'
  | 'kubeletAge'
  | 'kubeletDuration'
  | 'kubeletPodDuration'
  | 'discards'
  | 'rpcErrors'
  | 'kubeletErrors'
  | 'unhealthy'
  | 'predicted'
  | 'readyFalse'
  | 'readyUnknown'
  | 'started'
  | 'died'
  | 'removed'
  | 'changed';

/**
 * The session charts' words (localized by the host): the axes and series both tabs draw, a legend entry
 * per key, and the lanes' names.
 */
export interface SessionChartLabels extends ChartWords, Record<SessionLegendKey, string> {
  laneHealth: string;
  /** The health lane's name when it comes from the kubelet's metrics (no model relists). */
  laneHealthKubelet: string;
  lanePredicted: string;
  laneReady: string;
  otherPods: string;
}

/** The legend: an entry for each thing the charts draw for this session, and nothing else. */
export function legendEntries(s: SessionSeries, labels: SessionChartLabels): Array<[SessionLegendKey, string]> {
  const has = (values: ReadonlyArray<number | null>): boolean => values.some((v) => v !== null);
  const events = s.eventTypes;
  const entries: Array<[SessionLegendKey, string, boolean]> = [
    ['health', labels.health, has(s.sinceLastRelistStart)],
    ['threshold', `${labels.threshold} ${s.thresholdS.toFixed(0)} s`, true],
    ['duration', labels.duration, has(s.relistDuration)],
    ['failed', labels.failed, has(s.failedRelist)],
    ['kubeletAge', labels.kubeletAge, has(s.kubeletLastSeenAge)],
    ['kubeletDuration', labels.kubeletDuration, has(s.kubeletRelistDuration)],
    ['kubeletPodDuration', labels.kubeletPodDuration, has(s.kubeletPodRelistDuration)],
    ['discards', labels.discards, s.discards.length > 0],
    ['rpcErrors', labels.rpcErrors, s.rpcErrors.length > 0],
    ['kubeletErrors', labels.kubeletErrors, s.kubeletErrors.length > 0],
    ['unhealthy', labels.unhealthy, s.unhealthy.length > 0],
    ['predicted', labels.predicted, predictedBands(s).length > 0],
    ['readyFalse', labels.readyFalse, s.ready.some((r) => r.status === 'False')],
    ['readyUnknown', labels.readyUnknown, s.ready.some((r) => r.status === 'Unknown')],
    ['started', labels.started, events.has('ContainerStarted')],
    ['died', labels.died, events.has('ContainerDied')],
    ['removed', labels.removed, events.has('ContainerRemoved')],
    ['changed', labels.changed, events.has('ContainerChanged')],
  ];
  return entries.filter(([, , shown]) => shown).map(([key, text]) => [key, text]);
}
