// Root cause 3: systemd before v242 (without the RHEL 7 backport) overflows its sd-bus cookie after very
// many unit creations, and from then on runc (systemd cgroup driver) hangs talking to it. Old systemd is
// only a risk factor; it becomes a finding together with the other signs (PLEG/runtime NotReady or Ready
// flapping). It cannot be proven without gdb on PID 1, so it is a warning, never more.

import { clear, found, noEvidence, notApplicable, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { quoted, seconds } from '../textFormat';
import { notReadyHistoryLine } from '../logSignals';
import { readyFlaps } from '../nodeEvents';
import { SYSTEMD_COOKIE_FIX, systemdVersion } from '../knownVersions';

const FIXED_IN = SYSTEMD_COOKIE_FIX;

export const systemdDbusCheck: Check = {
  id: 'systemd-dbus',
  title: 'systemd D-Bus hang (sd-bus cookie overflow)',
  run(ctx: CheckContext): CheckOutcome {
    const driver = ctx.configz?.cgroupDriver;
    if (driver !== undefined && driver !== 'systemd') return notApplicable(`cgroupDriver is ${driver}: runc does not go through systemd`);
    const systemd = systemdVersion(ctx);
    if (systemd === undefined) return noEvidence('systemd version unknown: needs the node side (systemctl --version) or an EL7 nodeInfo');
    if (systemd.version >= FIXED_IN) return clear(`systemd ${systemd.version} ≥ ${FIXED_IN} has the cookie fix`);

    const signs: EvidenceLine[] = [];
    const c = ctx.classification;
    if (ctx.plegUnhealthy || c.verdict === 'runtime-down') signs.push({ origin: 'node', text: `the node is NotReady (${c.summary})` });
    const flaps = readyFlaps(ctx.events);
    if (flaps !== undefined && flaps.transitions >= 3) {
      signs.push({ origin: 'events', text: `${flaps.transitions} NodeReady/NodeNotReady events, about every ${seconds(flaps.meanGapSeconds)}` });
    }
    // The kubelet log's own "Node became not ready" lines: flapping seen from the node, events or not.
    const logFlaps = ctx.kubeletLog !== undefined && ctx.kubeletLog.notReady.count >= 3 ? notReadyHistoryLine(ctx.kubeletLog) : undefined;
    if (logFlaps !== undefined) signs.push(logFlaps);
    if (signs.length === 0) return clear(`systemd ${systemd.version} < ${FIXED_IN} carries the cookie-overflow risk, but the node shows none of its signs`);
    const lines = [systemd.line, ...signs];
    if (driver === 'systemd') lines.push({ origin: 'configz', text: `${quoted('cgroupDriver: systemd')}: every container start and stop goes through systemd over D-Bus` });
    const uptime = ctx.probes?.uptimeSeconds;
    if (uptime?.status === 'ok') lines.push({ origin: 'nodeSide', text: `uptime ${Math.floor(uptime.value / 86400)} days (the overflow takes very many unit creations, usually months)` });
    return found({
      cause: 3,
      severity: 'warning',
      title: `Possible systemd D-Bus hang: systemd ${systemd.version} predates the sd-bus cookie fix (v${FIXED_IN})`,
      summary:
        'Once systemd’s D-Bus cookie passes 0xffffffff it can no longer send messages; runc then hangs ' +
        'creating or removing container scopes, the runtime stalls and PLEG goes stale, often flapping every ' +
        '5–10 minutes. This finding is version-driven: it rests on the systemd version and the node’s state, ' +
        'as no output PLEG Doctor reads shows the cookie itself. Confirm on the node before acting.',
      evidence: lines,
      remediation: [
        { text: 'Does systemd still answer on D-Bus? A hang here is the sign', gate: 'readOnly', command: 'timeout 10 busctl tree org.freedesktop.systemd1 >/dev/null; echo "exit $?"' },
        { text: 'Look for piled-up runc processes and a "scope" process at 100 % CPU', gate: 'readOnly', command: 'ps -eo pid,stat,etime,pcpu,comm | grep -E "runc|scope"' },
        { text: 'Re-execute systemd (short-term relief)', gate: 'disruptive', command: 'systemctl daemon-reexec' },
        { text: 'Update systemd (v242+, or the RHEL 7 backport in 7.6.z), re-exec it, then restart the runtime and kubelet', gate: 'destructive', command: 'yum update -y systemd && systemctl daemon-reexec' },
      ],
      refs: ['systemd/systemd#11809', 'systemd/systemd#11818', 'opencontainers/runc#1959', 'kubernetes-sigs/kubespray#5134', 'kubernetes/kubernetes#110496'],
    });
  },
};
