// Root cause 10: Ubuntu's 5.4.0-132-generic kernel made nodes go NotReady with PLEG periodically; 135 fixed it.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import { BAD_KERNELS, kernelVersions } from '../knownVersions';
import { quoted } from '../textFormat';

export const kernelRegressionCheck: Check = {
  id: 'kernel-regression',
  title: 'Kernel with a known PLEG regression',
  run(ctx: CheckContext): CheckOutcome {
    const kernels = kernelVersions(ctx);
    if (kernels.length === 0) return noEvidence('no kernel version in nodeInfo or from the node side');
    const bad = kernels.find((k) => BAD_KERNELS.includes(k.value.trim()));
    if (bad === undefined) return clear(`kernel ${kernels.map((k) => k.value).join(' / ')} is not on the known-bad list`);
    return found({
      cause: 10,
      severity: ctx.plegUnhealthy ? 'problem' : 'warning',
      title: `Kernel ${bad.value.trim()} has a known PLEG regression`,
      summary: 'Nodes on this Ubuntu kernel go NotReady with "PLEG is not healthy" periodically; 5.4.0-135-generic fixed it.',
      evidence: [{ origin: bad.origin, text: `${bad.origin === 'node' ? 'nodeInfo.kernelVersion' : 'uname -r'} = ${quoted(bad.value)}` }],
      remediation: [{ text: 'Upgrade the kernel to 5.4.0-135-generic or later and reboot (drain first)', gate: 'destructive' }],
      refs: ['Netcracker/KubeMarine documentation/Troubleshooting.md'],
    });
  },
};
