// The editor's node access settings that choose a way (plegDoctor.nodeAccess.ways, .agentNamespace,
// .debugPod.namespace, .debugPod.image), checked here so that a bad value is a named problem, not a
// silent default: the settings are user input.

import { ACCESS_WAYS, isAccessWay, type AccessWay } from './accessWay';
import { DEFAULT_AGENT_NAMESPACE } from './agentPod';

export interface AccessWaySettings {
  /** The ways the user allows, in the order of ACCESS_WAYS. Empty: none (every node-side feature says so). */
  allowed: AccessWay[];
  agentNamespace: string;
  debugPod: {
    namespace: string;
    /** Empty: the agent DaemonSet's image in that namespace. */
    image: string;
  };
}

export const DEFAULT_ACCESS_WAY_SETTINGS: AccessWaySettings = {
  allowed: [...ACCESS_WAYS],
  agentNamespace: DEFAULT_AGENT_NAMESPACE,
  debugPod: { namespace: DEFAULT_AGENT_NAMESPACE, image: '' },
};

const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/u;

/** Each problem names the setting; a bad value falls back to its default, which the problem also says. */
export function parseAccessWaySettings(raw: { ways?: unknown; agentNamespace?: unknown; debugPodNamespace?: unknown; debugPodImage?: unknown }): {
  settings: AccessWaySettings;
  problems: string[];
} {
  const problems: string[] = [];
  const d = DEFAULT_ACCESS_WAY_SETTINGS;
  let allowed = [...d.allowed];
  if (raw.ways !== undefined) {
    if (!Array.isArray(raw.ways)) problems.push(`plegDoctor.nodeAccess.ways must be a list of ${ACCESS_WAYS.join(', ')}; using all three`);
    else {
      const bad = raw.ways.filter((w) => typeof w !== 'string' || !isAccessWay(w));
      if (bad.length > 0) problems.push(`plegDoctor.nodeAccess.ways: ${bad.map((b) => JSON.stringify(b)).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not one of ${ACCESS_WAYS.join(', ')} (ignored)`);
      const listed = raw.ways.filter((w): w is AccessWay => typeof w === 'string' && isAccessWay(w));
      allowed = ACCESS_WAYS.filter((w) => listed.includes(w));
    }
  }
  const namespace = (value: unknown, key: string, fallback: string): string => {
    if (value === undefined || value === '') return fallback;
    if (typeof value === 'string' && NAMESPACE.test(value)) return value;
    problems.push(`${key}: ${JSON.stringify(value)} is not a namespace name; using ${fallback}`);
    return fallback;
  };
  const agentNamespace = namespace(raw.agentNamespace, 'plegDoctor.nodeAccess.agentNamespace', d.agentNamespace);
  const debugNamespace = namespace(raw.debugPodNamespace, 'plegDoctor.nodeAccess.debugPod.namespace', d.debugPod.namespace);
  let image = '';
  if (raw.debugPodImage !== undefined && raw.debugPodImage !== '') {
    if (typeof raw.debugPodImage === 'string' && raw.debugPodImage.trim() !== '' && !/\s/u.test(raw.debugPodImage.trim())) image = raw.debugPodImage.trim();
    else problems.push(`plegDoctor.nodeAccess.debugPod.image: ${JSON.stringify(raw.debugPodImage)} is not an image reference; using the agent DaemonSet's image`);
  }
  return { settings: { allowed, agentNamespace, debugPod: { namespace: debugNamespace, image } }, problems };
}
