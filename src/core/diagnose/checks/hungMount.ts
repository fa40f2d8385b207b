// Root cause 8: a hung network filesystem. Tasks touching it sleep uninterruptibly (D state) in the NFS,
// RPC, Ceph or CIFS code, container teardown waits for them, and status calls for the affected pods wait
// out the CRI deadline (≈ 2 × runtimeRequestTimeout per relist). The wchan of D-state tasks names the code.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { probesMissingNote } from '../sourceNotes';
import { quoted } from '../textFormat';

/** Kernel wait channels of network filesystems: nfs_*, rpc_wait_bit_killable, ceph_*, cifs_*, smb2_*, fuse_*. */
export const NETWORK_FS_WCHAN = /nfs|rpc|ceph|cifs|smb|fuse/iu;

export const hungMountCheck: Check = {
  id: 'hung-mount',
  title: 'Hung network filesystem',
  run(ctx: CheckContext): CheckOutcome {
    const lines: EvidenceLine[] = [];
    for (const e of ctx.events ?? []) {
      if (e !== null && typeof e === 'object' && (e.reason === 'FailedMount' || e.reason === 'FailedKillPod')) {
        lines.push({ origin: 'events', text: `event ${quoted(e.reason)}: ${quoted(e.message ?? '')}` });
        if (lines.length >= 3) break;
      }
    }
    const d = ctx.probes?.dStateProcesses;
    const onNetworkFs = d?.status === 'ok' ? d.value.filter((p) => p.wchan !== undefined && NETWORK_FS_WCHAN.test(p.wchan)) : [];
    for (const p of onNetworkFs.slice(0, 8)) {
      lines.push({ origin: 'nodeSide', text: `${quoted(p.comm)} (pid ${p.pid}) in D state in ${quoted(p.wchan ?? '')}` });
    }
    if (onNetworkFs.length > 8) lines.push({ origin: 'nodeSide', text: `… and ${onNetworkFs.length - 8} more tasks on a network filesystem` });
    if (onNetworkFs.length > 0) {
      return found({
        cause: 8,
        severity: ctx.plegUnhealthy ? 'problem' : 'warning',
        title: `${onNetworkFs.length} task${onNetworkFs.length === 1 ? '' : 's'} stuck on a network filesystem (NFS, CIFS or Ceph)`,
        summary:
          'Processes wait uninterruptibly on a network filesystem that does not answer. Containers using it ' +
          'cannot be inspected or stopped, so their status calls wait out the CRI deadline and relists take ' +
          'about 2 × runtimeRequestTimeout.',
        evidence: lines,
        remediation: [
          { text: 'Is the server answering?', gate: 'readOnly', command: "dmesg -T | grep -E 'not responding|blocked for more than' | tail -n 20" },
          { text: 'Find the hung mount: stat each network mount with a timeout', gate: 'readOnly', command: "awk '$3 ~ /^(nfs|nfs4|cifs|smb3|ceph|fuse)/ {print $2}' /proc/mounts | while read -r m; do timeout 5 stat -f \"$m\" >/dev/null || echo \"hung: $m\"; done" },
          { text: 'Restore the file server first; then force-delete the stuck pods', gate: 'disruptive' },
          { text: 'Lazy or forced unmount of the hung mount', gate: 'disruptive' },
        ],
        refs: ['kubernetes/kubernetes#94829', 'kubernetes/kubernetes#74135', 'kubernetes/kubernetes#90593'],
      });
    }
    if (d?.status === 'ok') {
      const other = d.value.length;
      return clear(other === 0 ? 'no task in D state' : `${other} task${other === 1 ? '' : 's'} in D state, none on a network filesystem`);
    }
    if (lines.length > 0) {
      return found({
        cause: 8,
        severity: 'warning',
        title: 'Mount or kill failures reported for pods on this node',
        summary: 'The node’s events report failing mounts or pod kills, which is how a hung network filesystem shows from the API. Node access would show the stuck tasks.',
        evidence: lines,
        remediation: [{ text: 'On the node, look for hung mounts and blocked tasks', gate: 'readOnly', command: "dmesg -T | grep -E 'not responding|blocked for more than' | tail -n 20" }],
        refs: ['kubernetes/kubernetes#94829'],
      });
    }
    return noEvidence(`needs D-state processes from the node side: ${d === undefined ? probesMissingNote(ctx.evidence) : `probe ${d.status}`}`);
  },
};
