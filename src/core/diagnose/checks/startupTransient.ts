// Root cause 11: every kubelet says "pleg has yet to be successful" or "container runtime status check may
// not have completed yet" for its first seconds. That is benign while it lasts less than 3 minutes
// (classifyNode gives `startup` then, and `pleg` / `runtime-down` afterwards).

import { clear, found, notApplicable, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { lastKubeletStart } from '../nodeEvents';
import { readyLine, referenceWord } from '../signals';
import { age } from '../textFormat';

export const startupTransientCheck: Check = {
  id: 'startup-transient',
  title: 'Kubelet still starting',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const startupForm = c.errors.some((e) => e.kind === 'pleg-never' || e.kind === 'runtime-status-pending');
    if (!startupForm) return notApplicable('the Ready message has no start-up form');
    if (c.verdict !== 'startup') {
      return clear('the start-up message has lasted more than 3 minutes: not a transient (see the other findings)');
    }
    const lines: EvidenceLine[] = [readyLine(ctx)];
    const started = lastKubeletStart(ctx.events);
    if (started !== undefined) lines.push({ origin: 'events', text: `kubelet "Starting" event ${age((ctx.now.getTime() - started) / 1000)} before ${referenceWord(ctx)}` });
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
