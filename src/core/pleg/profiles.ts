// Kubelet version families whose PLEG behaves differently, and the metric names each version exposes.
// Sources: docs/pleg-model.md and docs/kubelet-metrics.md; the oracle corpus (1.26.7, 1.32.10, 1.36.2); docs/pleg-model.md
// says which kubelet minors map to which profile and why.

import type { KubeletProfileId } from './types';

export interface PlegProfile {
  id: KubeletProfileId;
  /** ≤1.13: the channel send blocks when full (#72482); 1.14+: dropped and counted (PR #72709). */
  blockingSend: boolean;
  /** ≤1.31: the cache is optional (nil cache = no GetPodStatus, no reinspection); 1.32+: mandatory. */
  cacheOptional: boolean;
  /**
   * ≤1.31: a main pass over pods with events, then a separate reinspection pass with the stale pod object
   * (a failing pod with events is inspected twice; a successful reinspection does not advance the record;
   * a vanished pod keeps an empty record and gets an empty status). 1.32+: one pass over pods with events or
   * pending reinspection, with the current pod object.
   */
  twoPassReinspection: boolean;
  /** PR #69008 (1.13): `pleg has yet to be successful`; older kubelets printed the maximum Go duration. */
  yetToBeSuccessfulText: boolean;
  /** 1.26+: per-instance relist period/threshold, changed by Update() when EventedPLEG starts or falls back. */
  updatableRelistDuration: boolean;
  /** 1.26+: EventedPLEG exists (alpha gate). */
  hasEventedPleg: boolean;
  /** How EventedPLEG reads a CRI event's createdAt: seconds in 1.26–1.31 (a bug), nanoseconds from 1.32. */
  eventedCreatedAtUnit: 'seconds' | 'nanoseconds' | null;
  /** 1.32–1.35: pod watch conditions and the ConditionMet event exist (not driven by this model; gone in 1.36). */
  hasConditionMet: boolean;
  /**
   * 1.36+: a pod pending reinspection whose inspection succeeds without a container change gets a PodSync
   * event (generic.go reconcilePodRecord, "Make sure we always trigger a PodSync after a full
   * reinspection", PR #137363); 1.32–1.35 sent nothing.
   */
  podSyncOnReinspection: boolean;
  /**
   * 1.36+: the cache entry is stamped with pod.Timestamp, the clock read just before the runtime listed the
   * pod (GetPods / GetPod; PR #138024), not the clock just before GetPodStatus as in ≤1.35.
   */
  cacheStampIsPodReadTime: boolean;
  /** 1.36+: a nil pod cache panics in NewGenericPLEG ("cache cannot be nil"), before anything runs. */
  nilCachePanicsAtConstruction: boolean;
  /**
   * 1.36+: the on-demand per-pod relist (RequestRelist, relistPod, the 200-slot request queue; PR #137362),
   * behind the PLEGOnDemandRelist feature gate; null where the code does not exist.
   */
  onDemandRelist: { gateDefault: boolean } | null;
}

/** generic.go NewGenericPLEG: `make(chan relistRequest, 200)`. */
export const RELIST_REQUEST_QUEUE_CAPACITY = 200;

export const PROFILE_1_13: PlegProfile = {
  id: '1.13',
  blockingSend: true,
  cacheOptional: true,
  twoPassReinspection: true,
  yetToBeSuccessfulText: true,
  updatableRelistDuration: false,
  hasEventedPleg: false,
  eventedCreatedAtUnit: null,
  hasConditionMet: false,
  podSyncOnReinspection: false,
  cacheStampIsPodReadTime: false,
  nilCachePanicsAtConstruction: false,
  onDemandRelist: null,
};

export const PROFILE_1_14_1_25: PlegProfile = { ...PROFILE_1_13, id: '1.14-1.25', blockingSend: false };

export const PROFILE_1_26_1_31: PlegProfile = {
  ...PROFILE_1_14_1_25,
  id: '1.26-1.31',
  updatableRelistDuration: true,
  hasEventedPleg: true,
  eventedCreatedAtUnit: 'seconds',
};

/**
 * Kubelet 1.32–1.35. The id keeps its historical spelling "1.32+" because saved timeline sessions carry it;
 * 1.36 and later map to PROFILE_1_36_PLUS.
 */
export const PROFILE_1_32_PLUS: PlegProfile = {
  ...PROFILE_1_26_1_31,
  id: '1.32+',
  cacheOptional: false,
  twoPassReinspection: false,
  eventedCreatedAtUnit: 'nanoseconds',
  hasConditionMet: true,
};

/**
 * Kubelet 1.36+: on-demand per-pod relist (gate PLEGOnDemandRelist, Beta and on by default in 1.36: the
 * real v1.36.2 kubelet exports `kubernetes_feature_enabled{name="PLEGOnDemandRelist",stage="BETA"} 1`),
 * PodSync after a quiet reinspection, cache stamped at the pod read time, watch conditions gone.
 */
export const PROFILE_1_36_PLUS: PlegProfile = {
  ...PROFILE_1_32_PLUS,
  id: '1.36+',
  hasConditionMet: false,
  podSyncOnReinspection: true,
  cacheStampIsPodReadTime: true,
  nilCachePanicsAtConstruction: true,
  onDemandRelist: { gateDefault: true },
};

export const PLEG_PROFILES: Readonly<Record<KubeletProfileId, PlegProfile>> = {
  '1.13': PROFILE_1_13,
  '1.14-1.25': PROFILE_1_14_1_25,
  '1.26-1.31': PROFILE_1_26_1_31,
  '1.32+': PROFILE_1_32_PLUS,
  '1.36+': PROFILE_1_36_PLUS,
};

/** Every profile id, oldest first (what a saved session may name). */
export const KUBELET_PROFILE_IDS: readonly KubeletProfileId[] = Object.keys(PLEG_PROFILES) as KubeletProfileId[];

export interface KubeletVersion {
  major: number;
  minor: number;
  patch: number;
}

export class KubeletVersionError extends Error {
  constructor(readonly input: string) {
    super(`not a kubelet version: "${input}" (expected e.g. v1.22.1 or 1.32.10-kubeedge1)`);
    this.name = 'KubeletVersionError';
  }
}

/** Parses `v1.22.1`, `1.32`, `v1.32.10-kubeedge1`, `v1.29.6+k3s1`, `v1.30.2-eks-1234`. */
export function parseKubeletVersion(input: string): KubeletVersion {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/u.exec(input.trim());
  if (!m) throw new KubeletVersionError(input);
  const major = Number(m[1]);
  const minor = Number(m[2]);
  if (major !== 1) throw new KubeletVersionError(input);
  return { major, minor, patch: m[3] === undefined ? 0 : Number(m[3]) };
}

/**
 * The one mapping from a kubelet minor to its PLEG profile (docs/pleg-model.md, "Which kubelet minors map
 * where"). 1.33–1.35 keep 1.32's generic.go (watch conditions, no PodSync on a quiet reinspection, cache
 * stamped before GetPodStatus); the per-pod relist, PodSync and pod-read cache time all arrived in 1.36.
 */
export function profileIdForMinor(minor: number): KubeletProfileId {
  if (minor <= 13) return '1.13';
  if (minor <= 25) return '1.14-1.25';
  if (minor <= 31) return '1.26-1.31';
  if (minor <= 35) return '1.32+';
  return '1.36+';
}

/**
 * The PLEG profile for a kubelet version string. Kubelets before PR #69008 (≤1.12) share the ≤1.13
 * profile but report "never relisted" as the maximum Go duration.
 */
export function profileForKubeletVersion(version: string): PlegProfile {
  const v = parseKubeletVersion(version);
  const profile = PLEG_PROFILES[profileIdForMinor(v.minor)];
  return v.minor <= 12 ? { ...profile, yetToBeSuccessfulText: false } : profile;
}

/** PLEG metric names a given kubelet minor exposes (null: the metric does not exist there). */
export interface PlegMetricNames {
  relistDuration: string | null;
  relistInterval: string | null;
  lastSeen: string | null;
  discardEvents: string | null;
  /** Legacy microsecond summaries (≤1.13; deprecated 1.15–1.17; gone by 1.18). */
  legacyRelistLatencyMicroseconds: string | null;
  legacyRelistIntervalMicroseconds: string | null;
  eventedConnectionErrors: string | null;
  eventedConnectionSuccesses: string | null;
  eventedConnectionLatency: string | null;
  /** 1.36+: the on-demand per-pod relist's histogram (generic.go relistPod, metrics.PLEGPodRelistDuration). */
  podRelistDuration: string | null;
}

export function plegMetricNames(minor: number): PlegMetricNames {
  const legacy = minor <= 17;
  return {
    relistDuration: minor >= 14 ? 'kubelet_pleg_relist_duration_seconds' : null,
    relistInterval: minor >= 15 ? 'kubelet_pleg_relist_interval_seconds' : null,
    lastSeen: minor >= 18 ? 'kubelet_pleg_last_seen_seconds' : null,
    discardEvents: minor >= 14 ? 'kubelet_pleg_discard_events' : null,
    legacyRelistLatencyMicroseconds: legacy ? 'kubelet_pleg_relist_latency_microseconds' : null,
    legacyRelistIntervalMicroseconds: legacy ? 'kubelet_pleg_relist_interval_microseconds' : null,
    eventedConnectionErrors: minor >= 27 ? 'kubelet_evented_pleg_connection_error_count' : null,
    eventedConnectionSuccesses: minor >= 27 ? 'kubelet_evented_pleg_connection_success_count' : null,
    eventedConnectionLatency: minor >= 27 ? 'kubelet_evented_pleg_connection_latency_seconds' : null,
    podRelistDuration: minor >= 36 ? 'kubelet_pleg_pod_relist_duration_seconds' : null,
  };
}

/** Constants shared by every version (docs/pleg-model.md). */
export const PLEG_CONSTANTS = {
  relistPeriodMs: 1_000,
  relistThresholdMs: 180_000,
  eventedRelistPeriodMs: 300_000,
  eventedRelistThresholdMs: 600_000,
  eventedMaxStreamRetries: 5,
  eventedCacheRefreshMs: 5_000,
  channelCapacity: 1_000,
} as const;
