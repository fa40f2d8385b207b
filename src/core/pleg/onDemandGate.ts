// The PLEGOnDemandRelist feature gate of one kubelet (1.36+: pkg/kubelet/pleg/generic.go `RequestRelist`
// and `relistPod` run only with it on), read the way the kubelet itself exposes it: component-base's
// `kubernetes_feature_enabled{name="PLEGOnDemandRelist",stage="BETA"} 1|0` on /metrics (the real v1.36.2
// kubelet exports it: ../shared/k8s-current/observed/kubelet-metrics-*.txt), else `featureGates` in its
// /configz (present only when set in the configuration), else the default of its version (profiles.ts).
// One reader for Diagnose (checkContext.ts) and the live timeline (infra/timeline/liveFeed.ts).

import { PLEG_PROFILES, profileIdForMinor } from './profiles';

export const ON_DEMAND_GATE = 'PLEGOnDemandRelist';

export type OnDemandGateSource = 'metrics' | 'configz' | 'versionDefault';

export interface OnDemandGate {
  enabled: boolean;
  source: OnDemandGateSource;
}

/**
 * The gate from what is known of the kubelet: `metricsGates` (kubernetes_feature_enabled), `configzGates`
 * (featureGates), and its minor version. Undefined when the version has no on-demand relist (before 1.36)
 * and nothing exports the gate, or nothing is known.
 */
export function readOnDemandGate(known: { metricsGates?: Record<string, boolean> | undefined; configzGates?: Record<string, boolean> | undefined; minor?: number | undefined }): OnDemandGate | undefined {
  const exported = known.metricsGates?.[ON_DEMAND_GATE];
  if (typeof exported === 'boolean') return { enabled: exported, source: 'metrics' };
  const configured = known.configzGates?.[ON_DEMAND_GATE];
  if (typeof configured === 'boolean') return { enabled: configured, source: 'configz' };
  if (known.minor === undefined) return undefined;
  const onDemand = PLEG_PROFILES[profileIdForMinor(known.minor)].onDemandRelist;
  return onDemand === null ? undefined : { enabled: onDemand.gateDefault, source: 'versionDefault' };
}
