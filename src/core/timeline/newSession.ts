// An empty session to grow with deltas, and the default settings (the kubelet's: 1 s, 3 min, 2 min).

import { DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS } from '../pleg/cost/criCall';
import { PLEG_CONSTANTS } from '../pleg/profiles';
import { TIMELINE_SESSION_FORMAT, type SessionSettings, type SessionSource, type TimelineSession } from './session';

export const DEFAULT_SESSION_SETTINGS: SessionSettings = {
  relistPeriodMs: PLEG_CONSTANTS.relistPeriodMs,
  thresholdMs: PLEG_CONSTANTS.relistThresholdMs,
  runtimeRequestTimeoutMs: DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS,
  profile: '1.32+',
  evented: false,
};

/**
 * The settings of a session in which no model runs (no CRI: the kubelet's metrics and the Ready condition
 * alone). Its PLEG health lane is the kubelet's own comparison of kubelet_pleg_last_seen_seconds, whose
 * threshold is fixed in the kubelet's code (pkg/kubelet/pleg/generic.go, relistThreshold = 3 min), so no
 * setting or flag may state another one. The panel (host/timeline/liveSource.ts), the live feed
 * (infra/timeline/liveFeed.ts) and the CLI's \`timeline\` all take it from here.
 */
export function kubeletOnlySettings(settings: SessionSettings): SessionSettings {
  return { ...settings, thresholdMs: PLEG_CONSTANTS.relistThresholdMs };
}

export interface NewSessionInput {
  node: string;
  context?: string;
  source: SessionSource;
  startedAt: Date;
  settings?: Partial<SessionSettings>;
  kubeletVersion?: string;
  lacks?: string[];
}

export function newTimelineSession(input: NewSessionInput): TimelineSession {
  return {
    format: TIMELINE_SESSION_FORMAT,
    node: input.node,
    ...(input.context !== undefined ? { context: input.context } : {}),
    source: input.source,
    ...(input.kubeletVersion !== undefined ? { kubeletVersion: input.kubeletVersion } : {}),
    startedAt: input.startedAt.toISOString(),
    durationMs: 0,
    settings: { ...DEFAULT_SESSION_SETTINGS, ...input.settings },
    lacks: [...(input.lacks ?? [])],
    relists: [],
    podEvents: [],
    health: [],
    ready: [],
    kubelet: [],
    cost: [],
  };
}
