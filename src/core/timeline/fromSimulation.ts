// A `pleg-doctor simulate` timeline as a TimelineSession, so the panel replays a simulation like a
// recording. The simulator records counts, not RPCs or pod names: those lanes stay empty, and `lacks`
// says so.

import { KUBELET_PROFILE_IDS, PLEG_CONSTANTS } from '../pleg/profiles';
import type { SimulationRun } from '../pleg/sim/simulationRun';
import type { KubeletProfileId } from '../pleg/types';
import { DEFAULT_SESSION_SETTINGS, newTimelineSession } from './newSession';
import type { SessionRelist, TimelineSession } from './session';

export interface FromSimulationOptions {
  node?: string;
  /** The scenario's kubelet settings (the timeline does not carry them); the kubelet defaults otherwise. */
  relistPeriodMs?: number;
  thresholdMs?: number;
  runtimeRequestTimeoutMs?: number;
}

const PROFILE_IDS: readonly string[] = KUBELET_PROFILE_IDS;

export function sessionFromSimulation(timeline: SimulationRun, options: FromSimulationOptions = {}): TimelineSession {
  const evented = timeline.evented !== null;
  const started = Date.parse(timeline.startTime);
  const lacks = ['a simulation records counts per relist, not the RPCs or the names of the pods inspected', 'no kubelet metrics: the node is simulated'];
  if (timeline.relistsRecorded === 'notable') lacks.push('only notable relists were recorded (slow, failed, or with events); quiet ones in between are not shown');
  const session = newTimelineSession({
    node: options.node ?? `simulated (${timeline.scenario})`,
    source: 'simulation',
    startedAt: new Date(Number.isFinite(started) ? started : 0),
    kubeletVersion: timeline.kubeletVersion,
    settings: {
      relistPeriodMs: options.relistPeriodMs ?? (evented ? PLEG_CONSTANTS.eventedRelistPeriodMs : DEFAULT_SESSION_SETTINGS.relistPeriodMs),
      thresholdMs: options.thresholdMs ?? (evented ? PLEG_CONSTANTS.eventedRelistThresholdMs : DEFAULT_SESSION_SETTINGS.thresholdMs),
      runtimeRequestTimeoutMs: options.runtimeRequestTimeoutMs ?? DEFAULT_SESSION_SETTINGS.runtimeRequestTimeoutMs,
      profile: PROFILE_IDS.includes(timeline.profile) ? (timeline.profile as KubeletProfileId) : DEFAULT_SESSION_SETTINGS.profile,
      evented,
    },
    lacks,
  });
  session.durationMs = timeline.durationMs;
  let stamp: number | null = null;
  session.relists = timeline.relists.map((r): SessionRelist => {
    if (r.ok) stamp = r.startMs;
    const relist: SessionRelist = {
      startMs: r.startMs,
      endMs: r.endMs,
      ok: r.ok,
      rpcs: [],
      podsInspected: [],
      events: r.events,
      discards: r.discards,
      sinceLastRelistStartMs: r.endMs - (stamp ?? 0),
    };
    if (r.error !== undefined) relist.error = r.error;
    return relist;
  });
  session.health = timeline.health.map((h) => ({ atMs: h.atMs, healthy: h.healthy }));
  session.ready = timeline.nodeReady.map((p) => ({ atMs: p.atMs, status: p.status, reason: p.reason, message: p.message }));
  return session;
}
