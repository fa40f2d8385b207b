// /healthz?verbose on the kubelet's main port: the `syncloop` check fails once no sync-loop pass has
// started for max(2 × syncFrequency, 5 min) — about 5 minutes into the skipping that PLEG or runtime
// errors cause (docs/pleg-health.md, row 9 and the recorded freeze). From 1.32, systemd restarts a kubelet whose unit sets
// WatchdogSec once this check fails.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { missingNote } from '../sourceNotes';
import { quoted } from '../textFormat';

export const syncloopHealthzCheck: Check = {
  id: 'syncloop-healthz',
  title: 'Sync loop stalled (/healthz syncloop)',
  run(ctx: CheckContext): CheckOutcome {
    const h = ctx.healthz;
    if (h === undefined) return noEvidence(missingNote(ctx.evidence, 'healthz'));
    const checks = Array.isArray(h.checks) ? h.checks : [];
    const syncloop = checks.find((c) => c.name === 'syncloop');
    if (syncloop === undefined) {
      return h.healthy ? clear('healthz passed (this kubelet lists no syncloop check)') : noEvidence('healthz failed but lists no syncloop check');
    }
    if (syncloop.ok) return clear('[+]syncloop ok');
    const lines: EvidenceLine[] = [
      { origin: 'healthz', text: `/healthz?verbose: ${quoted(`[-]syncloop failed${syncloop.detail !== undefined ? `: ${syncloop.detail}` : ''}`)}` },
    ];
    const minor = ctx.kubelet?.minor;
    if (minor !== undefined && minor >= 32) {
      lines.push({ origin: 'node', text: `kubelet 1.${minor}: with SystemdWatchdog (beta, on) a unit with WatchdogSec= is restarted by systemd` });
    }
    return found({
      severity: 'problem',
      title: 'The kubelet’s sync loop has not run for 5 minutes (/healthz syncloop failed)',
      summary:
        'The sync loop has skipped every pass for at least max(2 × syncFrequency, 5 min) because of the ' +
        'runtime or PLEG errors: no pod on this node has been created, updated or killed since. Anything that ' +
        'restarts the kubelet on this check (a systemd watchdog, a liveness monitor) will do so now.',
      evidence: lines,
      remediation: [
        { text: 'Read why the loop skips (the error after "Skipping pod synchronization")', gate: 'readOnly', command: 'journalctl -u kubelet --since "-15min" --no-pager | grep -i "skipping pod synchronization" | tail -n 5' },
      ],
      refs: ['kubernetes/kubernetes#37865'],
    });
  },
};
