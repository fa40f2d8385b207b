// Root cause 9: the node is overloaded, so the runtime answers slowly across every operation. Judged from
// the 5-minute load average per CPU (above 1 runnable-or-blocked task per CPU is saturated).

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import { probesMissingNote } from '../sourceNotes';

export const nodeLoadCheck: Check = {
  id: 'node-load',
  title: 'Node overloaded',
  run(ctx: CheckContext): CheckOutcome {
    const load = ctx.probes?.load;
    if (load?.status !== 'ok') {
      return noEvidence(`needs /proc/loadavg and nproc from the node side: ${load === undefined ? probesMissingNote(ctx.evidence) : `probe ${load.status}`}`);
    }
    const { loadavg, cpus } = load.value;
    const perCpu5 = cpus > 0 ? loadavg.load5 / cpus : Number.POSITIVE_INFINITY;
    const text = `load average ${loadavg.load1} / ${loadavg.load5} / ${loadavg.load15} on ${cpus} CPUs (${Math.round(perCpu5 * 100) / 100} per CPU over 5 min)`;
    if (!(perCpu5 > 1)) return clear(text);
    return found({
      cause: 9,
      severity: ctx.plegUnhealthy ? 'problem' : 'warning',
      title: 'The node is overloaded',
      summary: 'More tasks want to run (or wait on I/O) than there are CPUs. The runtime and the kubelet compete for CPU and disk, every CRI call slows down, and relists grow long.',
      evidence: [{ origin: 'nodeSide', text }],
      remediation: [
        { text: 'See what saturates: CPU, I/O wait (wa) or memory', gate: 'readOnly', command: 'vmstat 1 5; free -m; top -b -n 1 | head -n 20' },
        { text: 'Reserve resources for system and kube daemons; set requests and limits', gate: 'readOnly' },
        { text: 'Evict the noisy workloads', gate: 'disruptive' },
      ],
      refs: ['kubernetes/kubernetes#45419', 'kubernetes/kubernetes#61117'],
    });
  },
};
