// Root cause 7: the network plugin. The kubelet's Ready message carries "container runtime network not
// ready: NetworkReady=false …" (R5), NetworkUnavailable=True is set by the cloud or the CNI, and the CRI
// Status call reports the NetworkReady condition. A CNI that hangs sandbox status shows up as one stuck
// pod (cause 2), whose finding names it.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { readyLine } from '../signals';
import { quoted } from '../textFormat';

export const cniCheck: Check = {
  id: 'cni',
  title: 'Network plugin (CNI) slow or not ready',
  run(ctx: CheckContext): CheckOutcome {
    const c = ctx.classification;
    const lines: EvidenceLine[] = [];
    if (c.errors.some((e) => e.kind === 'network-not-ready')) lines.push(readyLine(ctx));
    if (c.networkUnavailable === true) lines.push({ origin: 'node', text: 'condition NetworkUnavailable=True' });
    const network = ctx.snapshot?.status?.conditions.find((cond) => cond.type === 'NetworkReady');
    if (network !== undefined && !network.status) {
      lines.push({ origin: 'nodeSide', text: `CRI Status: NetworkReady=false reason ${quoted(network.reason)} message ${quoted(network.message)}` });
    }
    if (lines.length > 0) {
      return found({
        cause: 7,
        severity: c.verdict === 'network' || c.verdict === 'pleg' ? 'problem' : 'warning',
        title: 'The network plugin (CNI) is not ready',
        summary:
          'The runtime reports its network not ready, so new pod sandboxes cannot get an address and the ' +
          'kubelet reports the node NotReady. A slow CNI can also hold sandbox status and teardown calls, which ' +
          'lengthens relists.',
        evidence: lines,
        remediation: [
          { text: 'Read the runtime’s view of the network', gate: 'readOnly', command: 'timeout 15 crictl -t 10s info | grep -A3 NetworkReady' },
          { text: 'Check the CNI plugin pods, their logs, and IPAM state; fix or upgrade the plugin', gate: 'readOnly', command: 'ls -l /etc/cni/net.d/ /opt/cni/bin/' },
          { text: 'Clean up leaked IPAM allocations', gate: 'disruptive' },
        ],
        refs: ['kubernetes/kubernetes#107749', 'kubernetes/kubernetes#98044'],
      });
    }
    if (c.readyStatus === 'missing') return noEvidence('the Node has no Ready condition');
    return clear(network !== undefined ? 'NetworkReady=true in CRI Status; no network error in the Ready message' : 'no network error in the Ready message and NetworkUnavailable is not set');
  },
};
