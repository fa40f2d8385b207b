// Root cause 5: too many pods or containers — exited ones included, since every relist lists them all.
// Thresholds from docs/root-causes.md (cause 5): KubeletTooManyPods fires above 95 % of the node's pod capacity, and
// more than 1000 exited containers pushed a relist past 3 minutes (#45419, #95750). Below that, more exited
// containers than both the pod capacity and the live containers is already a warning: the kubelet's
// container GC keeps one dead container per pod container by default (--maximum-dead-containers-per-
// container=1), so such a pile means GC is not keeping up or the containers are not the kubelet's (a CNI
// bug, a CI job), and every relist pays for them.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine } from '../diagnosis';
import { missingNotes } from '../sourceNotes';
import { quoted } from '../textFormat';

export const TOO_MANY_PODS_FRACTION = 0.95;
export const TOO_MANY_EXITED = 1000;
/** The API server's count, as the tree's tooltip names it ("Pods bound to the node (API server): n / max"). */
const BOUND_PODS = "pods bound to the node (API server, the tree tooltip's count)";

export const densityCheck: Check = {
  id: 'density',
  title: 'Too many pods or containers',
  run(ctx: CheckContext): CheckOutcome {
    const lines: EvidenceLine[] = [];
    const facts: string[] = [];
    const capacity = ctx.configz?.maxPods ?? ctx.classification.pods.capacity;
    const capacityOrigin = ctx.configz?.maxPods !== undefined ? 'configz maxPods' : 'status.capacity.pods';
    const metricPods = ctx.metrics?.runningPods;
    const pods = metricPods ?? ctx.podCount ?? (ctx.snapshot !== undefined ? ctx.snapshot.sandboxes.filter((s) => s.state === 'SANDBOX_READY').length : undefined);
    const podsOrigin = metricPods !== undefined ? 'metrics' : ctx.podCount !== undefined ? 'podCount' : 'nodeSide';
    const podsName = metricPods !== undefined ? `the kubelet's running pods (${quoted('kubelet_running_pods')})` : ctx.podCount !== undefined ? BOUND_PODS : 'ready sandboxes';

    if (pods !== undefined && capacity !== undefined && capacity > 0) {
      const share = pods / capacity;
      // Two counts of "pods" differ by design: the kubelet's running sandboxes, and the pods the API binds to the
      // node (pending and finished ones included), which the tree's tooltip shows. Each is labelled as what it
      // counts, in the words the tooltip uses (core/tree/nodeTooltip.ts podsLine), so the two never read as one.
      const bound = metricPods !== undefined && ctx.podCount !== undefined ? `; ${BOUND_PODS} = ${ctx.podCount}` : '';
      const text = `${podsName} = ${pods} of ${capacity} (${capacityOrigin}): ${Math.round(share * 1000) / 10} %${bound}`;
      if (share > TOO_MANY_PODS_FRACTION) lines.push({ origin: podsOrigin, text });
      else facts.push(text);
    } else if (pods !== undefined) facts.push(`${pods} pods (capacity unknown)`);

    const exitedMetric = ctx.metrics?.runningContainers?.['exited'];
    const exited =
      exitedMetric ?? (ctx.snapshot !== undefined ? ctx.snapshot.containers.filter((c) => c.state === 'CONTAINER_EXITED').length : undefined);
    const runningMetric = ctx.metrics?.runningContainers?.['running'];
    const live = runningMetric ?? (ctx.snapshot !== undefined ? ctx.snapshot.containers.filter((c) => c.state === 'CONTAINER_RUNNING').length : undefined);
    let exitedLimit = TOO_MANY_EXITED;
    if (exited !== undefined) {
      const text = exitedMetric !== undefined ? `${quoted('kubelet_running_containers{container_state="exited"}')} = ${exited}` : `${exited} exited containers in the CRI snapshot`;
      const pileLimit = capacity !== undefined && capacity > 0 ? Math.max(capacity, live ?? 0) : undefined;
      if (exited > TOO_MANY_EXITED) lines.push({ origin: exitedMetric !== undefined ? 'metrics' : 'nodeSide', text });
      else if (pileLimit !== undefined && exited > pileLimit) {
        exitedLimit = pileLimit;
        lines.push({
          origin: exitedMetric !== undefined ? 'metrics' : 'nodeSide',
          text: `${text}: more than the pod capacity (${capacity}, ${capacityOrigin}) and the ${live ?? 0} running containers`,
        });
      } else facts.push(text);
    }
    if (lines.length > 0) {
      const tooManyExited = exited !== undefined && exited > exitedLimit;
      return found({
        cause: 5,
        severity: 'warning',
        title: tooManyExited
          ? exitedLimit === TOO_MANY_EXITED
            ? `More than ${TOO_MANY_EXITED} exited containers on the node`
            : 'More exited containers than the node’s pod capacity: container GC is not keeping up'
          : 'The node runs more than 95 % of its pod capacity',
        summary:
          'Every relist lists every container, exited ones included, and inspects each changed pod one after ' +
          'another; at this density a relist (and the first one after a kubelet restart) can pass the 3 minute ' +
          'threshold.',
        evidence: lines,
        remediation: [
          { text: 'Count what the runtime holds', gate: 'readOnly', command: 'crictl pods -q | wc -l; crictl ps -a -q | wc -l; crictl ps -a -q --state exited | wc -l' },
          { text: 'Remove exited containers (and fix what leaves them behind, often a CNI bug)', gate: 'disruptive', command: 'crictl rm $(crictl ps -a -q --state exited)' },
          { text: 'Lower density: add nodes, lower maxPods, set requests and limits, reserve resources for system daemons', gate: 'readOnly' },
        ],
        refs: ['kubernetes/kubernetes#45419', 'kubernetes/kubernetes#95750'],
      });
    }
    if (facts.length > 0) return clear(facts.join('; '));
    return noEvidence(missingNotes(ctx.evidence, ['metrics', 'podCount', 'nodeSide']));
  },
};
