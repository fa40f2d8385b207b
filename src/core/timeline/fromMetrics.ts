// A series of saved kubelet /metrics scrapes (and, when there are any, the node's Ready condition over
// time) as a TimelineSession: the kubelet's own view. Health is the kubelet's Healthy() as its metrics
// show it: unhealthy from the instant the last-seen stamp got older than the threshold.

import { profileForKubeletVersion } from '../pleg/profiles';
import { DEFAULT_SESSION_SETTINGS, kubeletOnlySettings, newTimelineSession } from './newSession';
import { KubeletSampler, kubeletVersionFromMetrics, type MetricsScrape } from './kubeletSampler';
import { unhealthyText } from './liveModel';
import type { KubeletSample, SessionHealth, SessionReady, SessionSettings, TimelineSession } from './session';

export interface ConditionSample {
  epochMs: number;
  status: SessionReady['status'];
  reason: string;
  message: string;
}

export interface MetricsSeriesInput {
  node?: string;
  context?: string;
  scrapes: readonly MetricsScrape[];
  conditions?: readonly ConditionSample[];
  /** t = 0; the first scrape's time by default. */
  startEpochMs?: number;
  /** The model's settings do not apply (no model runs): the threshold is the kubelet's own (kubeletOnlySettings). */
  settings?: Partial<Omit<SessionSettings, 'thresholdMs'>>;
  kubeletVersion?: string;
}

export function sessionFromMetricsSeries(input: MetricsSeriesInput): TimelineSession {
  const scrapes = [...input.scrapes].sort((a, b) => a.epochMs - b.epochMs);
  const conditions = [...(input.conditions ?? [])].sort((a, b) => a.epochMs - b.epochMs);
  const first = Math.min(scrapes[0]?.epochMs ?? Infinity, conditions[0]?.epochMs ?? Infinity);
  const start = input.startEpochMs ?? (Number.isFinite(first) ? first : 0);
  const version = input.kubeletVersion ?? scrapes.map((s) => (s.text !== undefined ? kubeletVersionFromMetrics(s.text) : undefined)).find((v) => v !== undefined);
  let profile = DEFAULT_SESSION_SETTINGS.profile;
  if (version !== undefined) {
    try {
      profile = profileForKubeletVersion(version).id;
    } catch {
      // An unreadable build version keeps the default profile; the version string is still shown.
    }
  }
  const sampler = new KubeletSampler(start);
  const kubelet = scrapes.map((s) => sampler.sample(s));
  const node = input.node ?? scrapes.map((s) => (s.text !== undefined ? /kubelet_node_name\{node="([^"]+)"\}/u.exec(s.text)?.[1] : undefined)).find((n) => n !== undefined) ?? 'unknown node';
  const lacks = ['no SSH: relists are the kubelet\u2019s own metrics, not the model run on the runtime'];
  if (conditions.length === 0) lacks.push('no node conditions were recorded (Ready band unknown)');
  if (!kubelet.some((k) => k.lastSeenAgeS !== undefined)) lacks.push('the scrapes have no kubelet_pleg_last_seen_seconds (kubelet older than 1.18): health cannot be read');
  const session = newTimelineSession({
    node,
    ...(input.context !== undefined ? { context: input.context } : {}),
    source: 'metrics-series',
    startedAt: new Date(start),
    settings: { profile, ...input.settings },
    ...(version !== undefined ? { kubeletVersion: version } : {}),
    lacks,
  });
  session.settings = kubeletOnlySettings(session.settings);
  session.kubelet = kubelet;
  session.health = healthFromSamples(kubelet, session.settings.thresholdMs);
  const ready: SessionReady[] = [];
  for (const c of conditions) {
    const last = ready.at(-1);
    if (last !== undefined && last.status === c.status && last.reason === c.reason && last.message === c.message) continue;
    ready.push({ atMs: c.epochMs - start, status: c.status, reason: c.reason, message: c.message });
  }
  session.ready = ready;
  const lastAt = Math.max(kubelet.at(-1)?.atMs ?? 0, ready.at(-1)?.atMs ?? 0);
  session.durationMs = Math.max(0, lastAt);
  return session;
}

/**
 * The kubelet's Healthy() as its scrapes show it. Each scrape with a last-seen stamp gives the stamp
 * (atMs − age); the kubelet turned unhealthy at stamp + threshold if a later scrape still shows that
 * stamp past it, and healthy again at the first scrape with a fresh one.
 */
export function healthFromSamples(samples: readonly KubeletSample[], thresholdMs: number): SessionHealth[] {
  const out: SessionHealth[] = [];
  let healthy: boolean | null = null;
  for (const s of samples) {
    if (s.lastSeenAgeS === undefined) continue;
    const ageMs = s.lastSeenAgeS * 1000;
    const stampMs = s.atMs - ageMs;
    if (ageMs > thresholdMs) {
      if (healthy !== false) out.push({ atMs: Math.max(0, out.at(-1)?.atMs ?? 0, stampMs + thresholdMs), healthy: false, message: unhealthyText(ageMs, thresholdMs) });
      healthy = false;
    } else if (healthy !== true) {
      out.push({ atMs: s.atMs, healthy: true });
      healthy = true;
    }
  }
  return out;
}
