// Root cause 11: every kubelet says "pleg has yet to be successful" or "container runtime status check may
// not have completed yet" for its first seconds. That is benign while it lasts less than 3 minutes
// (classifyNode gives `startup` then, and `pleg` / `runtime-down` afterwards). The kubelet log shows the
// start itself ("Kubelet version" / a new pid) and every restart: one restart is worth knowing (from 1.32
// systemd's watchdog restarts a kubelet whose sync loop is stuck), several mean a restart loop.

import { clear, found, notApplicable, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { lastKubeletStart } from '../nodeEvents';
import { lastOf, refsLine } from '../logSignals';
import { readyLine, referenceWord } from '../signals';
import { age, plural } from '../textFormat';

/** The kubelet's starts in its log, as one evidence line. */
function startsLine(ctx: CheckContext): EvidenceLine | undefined {
  const log = ctx.kubeletLog;
  if (log === undefined) return undefined;
  return refsLine(log.kubeletStarts, log.kubeletRestarts > 0 ? 'kubelet start or restart' : 'kubelet start');
}

/** Restarts in the log when the Ready message has no start-up form. */
function restartsOutcome(ctx: CheckContext, note: string): CheckOutcome {
  const log = ctx.kubeletLog;
  const line = startsLine(ctx);
  if (log === undefined || log.kubeletRestarts === 0 || line === undefined) return notApplicable(note);
  const latest = lastOf(log.kubeletStarts.recent);
  const evidence: EvidenceLine[] = [line];
  if (latest?.beforeEndSeconds !== undefined) evidence.push({ origin: 'kubeletLog', text: `the latest start is ${age(latest.beforeEndSeconds)} before the log's last line` });
  const loop = log.kubeletRestarts >= 2;
  return found({
    cause: 11,
    severity: loop ? 'warning' : 'info',
    title: `The kubelet restarted ${plural(log.kubeletRestarts, 'time')} in its log`,
    summary: loop
      ? 'The kubelet keeps restarting: each start begins with "pleg has yet to be successful" and a new PLEG, so restarts hide how long the node has really been unhealthy. Find what restarts it (a crash, a watchdog, a supervisor) before treating any one start as a transient.'
      : 'A new kubelet process started during the log. Its PLEG starts afresh, so PLEG stretches before and after it are separate; from 1.32 a systemd unit with WatchdogSec= restarts a kubelet whose sync loop has been stuck for minutes.',
    evidence,
    remediation: [{ text: 'See why the kubelet restarted (exit status, watchdog, OOM)', gate: 'readOnly', command: 'systemctl status kubelet --no-pager; journalctl -u kubelet --no-pager | grep -E "Started|Stopped|watchdog|Main process exited" | tail -n 20' }],
    refs: ['kubernetes/kubernetes#69008'],
  });
}

export const startupTransientCheck: Check = {
  id: 'startup-transient',
  title: 'Kubelet still starting',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const startupForm = c.errors.some((e) => e.kind === 'pleg-never' || e.kind === 'runtime-status-pending');
    if (!startupForm) return restartsOutcome(ctx, 'the Ready message has no start-up form');
    if (c.verdict !== 'startup') {
      return clear('the start-up message has lasted more than 3 minutes: not a transient (see the other findings)');
    }
    const lines: EvidenceLine[] = [readyLine(ctx)];
    const started = lastKubeletStart(ctx.events);
    if (started !== undefined) lines.push({ origin: 'events', text: `kubelet "Starting" event ${age((ctx.now.getTime() - started) / 1000)} before ${referenceWord(ctx)}` });
    const starts = startsLine(ctx);
    if (starts !== undefined) lines.push(starts);
    return found({
      cause: 11,
      severity: 'info',
      title: 'The kubelet is still starting',
      summary: 'A kubelet reports this until its first relist and runtime status check succeed. It is expected for up to 3 minutes after a start; diagnose again if it lasts longer.',
      evidence: lines,
      remediation: [{ text: 'Wait, then diagnose again', gate: 'readOnly' }],
      refs: ['kubernetes/kubernetes#69008'],
    });
  },
};
