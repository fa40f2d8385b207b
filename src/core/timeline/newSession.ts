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
