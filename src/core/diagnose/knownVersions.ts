// Versions the field guide (§6) names as known-bad, read from nodeInfo (API side) and, when node access
// ran, from the probes. Matching is exact on the version number: a pinned list, not a range guess.

import type { CheckContext } from './checkContext';
import type { EvidenceOrigin } from './diagnosis';
import { quoted } from './textFormat';

export interface KnownBad {
  origin: EvidenceOrigin;
  text: string;
  why: string;
}

const BAD_RUNTIMES: { runtime: string; version: string; why: string }[] = [
  { runtime: 'containerd', version: '1.4.4', why: 'containerd 1.4.4 has a known hang (containerd #5274); the usual fix was to go back to 1.4.3 or forward to a fixed release.' },
  { runtime: 'docker', version: '20.10.19', why: 'Docker 20.10.19 has a list/inspect bug that stalls the calls every relist makes (moby #44300).' },
];

/** `containerd://1.4.4`, `docker://20.10.19`, `containerd://v1.4.4-k3s1` → runtime and bare version. */
export function splitRuntimeVersion(text: string): { runtime: string; version: string } | undefined {
  const m = /^([a-z0-9-]+):\/\/v?(\d+\.\d+\.\d+)/u.exec(text.trim());
  return m?.[1] !== undefined && m[2] !== undefined ? { runtime: m[1], version: m[2] } : undefined;
}

export function knownBadRuntime(ctx: CheckContext): KnownBad | undefined {
  const fromNode = ctx.classification.versions.runtime;
  if (fromNode !== undefined) {
    const parsed = splitRuntimeVersion(fromNode);
    const bad = BAD_RUNTIMES.find((b) => b.runtime === parsed?.runtime && b.version === parsed.version);
    if (bad !== undefined) return { origin: 'node', text: `nodeInfo.containerRuntimeVersion = ${quoted(fromNode)} is a known-bad version`, why: bad.why };
  }
  const probe = ctx.probes?.containerdVersion;
  if (probe?.status === 'ok') {
    const version = /^v?(\d+\.\d+\.\d+)/u.exec(probe.value.version)?.[1];
    const bad = BAD_RUNTIMES.find((b) => b.runtime === 'containerd' && b.version === version);
    if (bad !== undefined) return { origin: 'nodeSide', text: `containerd --version reports ${quoted(probe.value.version)}, a known-bad version`, why: bad.why };
  }
  return undefined;
}

/** Ubuntu's 5.4.0-132-generic: periodic NotReady with PLEG, fixed in 5.4.0-135-generic. */
export const BAD_KERNELS = ['5.4.0-132-generic'];

export function kernelVersions(ctx: CheckContext): { origin: EvidenceOrigin; value: string }[] {
  const out: { origin: EvidenceOrigin; value: string }[] = [];
  const fromNode = ctx.classification.versions.kernel;
  if (fromNode !== undefined) out.push({ origin: 'node', value: fromNode });
  const probe = ctx.probes?.kernel;
  if (probe?.status === 'ok' && probe.value !== fromNode) out.push({ origin: 'nodeSide', value: probe.value });
  return out;
}
