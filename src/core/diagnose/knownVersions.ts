// Versions docs/root-causes.md names as known-bad, read from nodeInfo (API side) and, when node access
// ran, from the probes. The one list: the known-bad-version check reports every entry, and the cause
// checks (runtime-hung, systemd-dbus, pleg-deadlock, kernel-regression) read the same functions.
// Runtimes and kernels match exactly (a pinned list, not a range guess); kubelet and systemd are "before
// the release with the fix".

import type { CheckContext } from './checkContext';
import type { EvidenceLine, EvidenceOrigin } from './diagnosis';
import { quoted } from './textFormat';

export interface KnownBad {
  origin: EvidenceOrigin;
  text: string;
  why: string;
  /** The row of docs/root-causes.md the entry comes from. */
  cause: number;
  /** Public sources (the sources column of docs/root-causes.md). */
  refs: string[];
}

const BAD_RUNTIMES: { runtime: string; version: string; why: string; refs: string[] }[] = [
  // containerd/containerd#5274: containerd 1.4.4 hangs; the advice is back to 1.4.3.
  { runtime: 'containerd', version: '1.4.4', why: 'containerd 1.4.4 has a known hang (containerd #5274); the usual fix was to go back to 1.4.3 or forward to a fixed release.', refs: ['containerd/containerd#5274'] },
  // moby/moby#44300: Docker 20.10.19's list/inspect bug.
  { runtime: 'docker', version: '20.10.19', why: 'Docker 20.10.19 has a list/inspect bug that stalls the calls every relist makes (moby #44300).', refs: ['moby/moby#44300'] },
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
    if (bad !== undefined) return { origin: 'node', text: `nodeInfo.containerRuntimeVersion = ${quoted(fromNode)} is a known-bad version`, why: bad.why, cause: 1, refs: bad.refs };
  }
  const probe = ctx.probes?.containerdVersion;
  if (probe?.status === 'ok') {
    const version = /^v?(\d+\.\d+\.\d+)/u.exec(probe.value.version)?.[1];
    const bad = BAD_RUNTIMES.find((b) => b.runtime === 'containerd' && b.version === version);
    if (bad !== undefined) return { origin: 'nodeSide', text: `containerd --version reports ${quoted(probe.value.version)}, a known-bad version`, why: bad.why, cause: 1, refs: bad.refs };
  }
  const info = ctx.probes?.docker?.info;
  if (info?.status === 'ok') {
    const version = /^(\d+\.\d+\.\d+)/u.exec(info.value.serverVersion)?.[1];
    const bad = BAD_RUNTIMES.find((b) => b.runtime === 'docker' && b.version === version);
    if (bad !== undefined) return { origin: 'nodeSide', text: `docker info reports Server Version ${quoted(info.value.serverVersion)}, a known-bad version`, why: bad.why, cause: 1, refs: bad.refs };
  }
  return undefined;
}

/** Ubuntu's 5.4.0-132-generic: periodic NotReady with PLEG, fixed in 5.4.0-135-generic. */
// Source: Netcracker/KubeMarine documentation/Troubleshooting.md (docs/root-causes.md, row 10).
export const BAD_KERNELS = ['5.4.0-132-generic'];
const KERNEL_REFS = ['Netcracker/KubeMarine documentation/Troubleshooting.md'];

/**
 * systemd before v242 overflows its sd-bus cookie after very many unit creations; with the systemd cgroup
 * driver runc then hangs talking to it. Fixed by systemd PR #11818 (v242); EL7 ships 219, Ubuntu 18.04 237.
 */
// Sources: systemd/systemd#11809, #11800, PR #11818; opencontainers/runc#1959; kubespray#5134 (docs/root-causes.md, row 3).
export const SYSTEMD_COOKIE_FIX = 242;
const SYSTEMD_REFS = ['systemd/systemd#11809', 'systemd/systemd#11818', 'opencontainers/runc#1959'];

/** Kubelets before 1.14 can deadlock the relist against the sync loop on a full event channel. */
// Sources: kubernetes/kubernetes#72482 (the deadlock), PR #72709 (the fix in 1.14) (docs/root-causes.md, row 4).
export const RELIST_DEADLOCK_FIXED_MINOR = 14;
const KUBELET_REFS = ['kubernetes/kubernetes#72482', 'kubernetes/kubernetes#72709'];

/** The node's systemd version: from `systemctl --version` on the node, else 219 when nodeInfo says EL7. */
export function systemdVersion(ctx: CheckContext): { version: number; line: EvidenceLine } | undefined {
  const probe = ctx.probes?.systemd;
  if (probe?.status === 'ok') {
    return { version: probe.value.version, line: { origin: 'nodeSide', text: `systemctl --version: systemd ${probe.value.version} (${quoted(probe.value.full)})` } };
  }
  const os = ctx.classification.versions.osImage ?? '';
  const kernel = ctx.classification.versions.kernel ?? '';
  if (/CentOS Linux 7|Red Hat Enterprise Linux Server 7/u.test(os) || /^3\.10\.0-.*\.el7/u.test(kernel)) {
    return { version: 219, line: { origin: 'node', text: `nodeInfo: ${quoted(os || kernel)} ships systemd 219 (EL7)` } };
  }
  return undefined;
}

export function kubeletBeforeDeadlockFix(ctx: CheckContext): boolean {
  return ctx.kubelet !== undefined && ctx.kubelet.major === 1 && ctx.kubelet.minor < RELIST_DEADLOCK_FIXED_MINOR;
}

export function kernelVersions(ctx: CheckContext): { origin: EvidenceOrigin; value: string }[] {
  const out: { origin: EvidenceOrigin; value: string }[] = [];
  const fromNode = ctx.classification.versions.kernel;
  if (fromNode !== undefined) out.push({ origin: 'node', value: fromNode });
  const probe = ctx.probes?.kernel;
  if (probe?.status === 'ok' && probe.value !== fromNode) out.push({ origin: 'nodeSide', value: probe.value });
  return out;
}

/** What the known-bad-version check looked at, and every entry of the list the node matches. */
export interface VersionReview {
  matches: KnownBad[];
  /** The versions read, for the note of a clean node. */
  seen: string[];
  /** Old systemd whose risk depends on a cgroup driver nobody reported (no configz). */
  undecided?: string;
}

export function reviewVersions(ctx: CheckContext): VersionReview {
  const matches: KnownBad[] = [];
  const seen: string[] = [];
  const versions = ctx.classification.versions;

  const runtime = knownBadRuntime(ctx);
  if (runtime !== undefined) matches.push(runtime);
  if (versions.runtime !== undefined) seen.push(`runtime ${versions.runtime}`);
  else if (ctx.probes?.containerdVersion?.status === 'ok') seen.push(`containerd ${ctx.probes.containerdVersion.value.version}`);

  const kubeletText = versions.kubelet ?? (ctx.kubelet !== undefined ? `v${ctx.kubelet.major}.${ctx.kubelet.minor}.${ctx.kubelet.patch}` : undefined);
  if (kubeletText !== undefined) seen.push(`kubelet ${kubeletText}`);
  if (kubeletBeforeDeadlockFix(ctx)) {
    matches.push({
      origin: 'node',
      text: `nodeInfo.kubeletVersion = ${quoted(kubeletText ?? '')} is before 1.${RELIST_DEADLOCK_FIXED_MINOR}`,
      why: `Kubelets before 1.${RELIST_DEADLOCK_FIXED_MINOR} block the relist forever when the sync loop stops draining 1000 queued events (kubernetes #72482, fixed by PR #72709).`,
      cause: 4,
      refs: KUBELET_REFS,
    });
  }

  const kernels = kernelVersions(ctx);
  for (const k of kernels) seen.push(`kernel ${k.value}`);
  const kernel = kernels.find((k) => BAD_KERNELS.includes(k.value.trim()));
  if (kernel !== undefined) {
    matches.push({
      origin: kernel.origin,
      text: `${kernel.origin === 'node' ? 'nodeInfo.kernelVersion' : 'uname -r'} = ${quoted(kernel.value)} is a known-bad kernel`,
      why: 'Nodes on Ubuntu 5.4.0-132-generic go NotReady with "PLEG is not healthy" periodically; 5.4.0-135-generic fixed it.',
      cause: 10,
      refs: KERNEL_REFS,
    });
  }

  if (versions.osImage !== undefined) seen.push(`OS ${versions.osImage}`);
  const systemd = systemdVersion(ctx);
  let undecided: string | undefined;
  if (systemd !== undefined) {
    seen.push(`systemd ${systemd.version}`);
    if (systemd.version < SYSTEMD_COOKIE_FIX) {
      const driver = ctx.configz?.cgroupDriver;
      if (driver === 'systemd') {
        matches.push({
          origin: systemd.line.origin,
          text: `${systemd.line.text}, before v${SYSTEMD_COOKIE_FIX}, with ${quoted('cgroupDriver: systemd')}`,
          why: `systemd before v${SYSTEMD_COOKIE_FIX} (without the RHEL 7 backport) overflows its sd-bus cookie after many unit creations; with the systemd cgroup driver runc then hangs on D-Bus and relists stall.`,
          cause: 3,
          refs: SYSTEMD_REFS,
        });
      } else if (driver === undefined) {
        undecided = `systemd ${systemd.version} < ${SYSTEMD_COOKIE_FIX} is known-bad only with the systemd cgroup driver, and the driver is unknown (no configz)`;
      }
    }
  }
  return undecided === undefined ? { matches, seen } : { matches, seen, undecided };
}
