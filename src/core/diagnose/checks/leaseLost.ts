// Ready=Unknown is not a PLEG failure (docs/pleg-health.md, row 10): the node controller set it because no
// heartbeat arrived for the grace period. The kubelet is dead, hung or cut off, and calls through the node
// proxy usually fail, which is why the kubelet endpoints are missing from such a report.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { readyLine, referenceWord } from '../signals';
import { missingNote } from '../sourceNotes';
import { age } from '../textFormat';

export const leaseLostCheck: Check = {
  id: 'lease-lost',
  title: 'Kubelet stopped posting status (Ready=Unknown)',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    if (c.readyStatus === 'missing') return noEvidence('the Node has no Ready condition');
    if (c.verdict !== 'lease-lost') return clear(`Ready=${c.readyStatus}: the kubelet is posting status`);
    const lines: EvidenceLine[] = [readyLine(ctx)];
    if (c.lastHeartbeat !== undefined) {
      const ago = (ctx.now.getTime() - Date.parse(c.lastHeartbeat)) / 1000;
      lines.push({ origin: 'node', text: `last heartbeat ${c.lastHeartbeat}${ago >= 0 ? ` (${age(ago)} before ${referenceWord(ctx)})` : ''}` });
    }
    if (c.taints.some((t) => t.startsWith('node.kubernetes.io/unreachable'))) {
      lines.push({ origin: 'node', text: 'taint node.kubernetes.io/unreachable is set' });
    }
    if (ctx.evidence.metrics.status !== 'ok') lines.push({ origin: 'metrics', text: missingNote(ctx.evidence, 'metrics') });
    const never = c.message.includes('never posted');
    return found({
      severity: 'problem',
      title: never ? 'The kubelet never posted node status (Ready=Unknown)' : 'The kubelet stopped posting node status (Ready=Unknown)',
      summary:
        'This is a different failure from "PLEG is not healthy": the API server has had no heartbeat from the ' +
        'kubelet for the node-monitor grace period (40 s; 50 s from 1.32), so the kubelet is down, hung, or ' +
        'cut off from the API server. Pods are evicted after the 300 s toleration of the unreachable taint.',
      evidence: lines,
      remediation: [
        { text: 'On the node, see whether the kubelet runs and what it last logged', gate: 'readOnly', command: 'systemctl status kubelet; journalctl -u kubelet --since "-30min" --no-pager | tail -n 200' },
        { text: 'Check the network path from the node to the API server and the node’s clock', gate: 'readOnly' },
        { text: 'Restart the kubelet once the cause is known (running pods keep running)', gate: 'disruptive', command: 'systemctl restart kubelet' },
      ],
      refs: ['kubernetes/kubernetes#126287'],
    });
  },
};
