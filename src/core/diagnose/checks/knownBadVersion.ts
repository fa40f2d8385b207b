// The known-bad versions of docs/root-causes.md: the runtime, kubelet, kernel and systemd releases that the guide's
// public sources tie to PLEG trouble (containerd 1.4.4, Docker 20.10.19, kubelet < 1.14, Ubuntu
// 5.4.0-132-generic, systemd < 242 with the systemd cgroup driver). The list and its sources live in
// knownVersions.ts, shared with the cause checks; this check names every entry the node matches, from
// nodeInfo (API tier) and, when node access ran, the probes. A version alone proves no hang: on a healthy
// node it is a warning, on a PLEG-unhealthy one it fails.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import { reviewVersions } from '../knownVersions';

export const knownBadVersionCheck: Check = {
  id: 'known-bad-version',
  title: 'Known-bad runtime, kubelet, kernel or systemd version',
  run(ctx: CheckContext): CheckOutcome {
    const review = reviewVersions(ctx);
    if (review.matches.length === 0) {
      if (review.undecided !== undefined) return noEvidence(review.undecided);
      if (review.seen.length === 0) return noEvidence('no version in nodeInfo and no node-side probes');
      return clear(`${review.seen.join(', ')}: none on the known-bad list`);
    }
    const [first] = review.matches;
    const many = review.matches.length > 1;
    return found({
      ...(many || first === undefined ? {} : { cause: first.cause }),
      severity: ctx.plegUnhealthy ? 'problem' : 'warning',
      title: many ? `${review.matches.length} known-bad versions` : 'Known-bad version',
      summary: review.matches.map((m) => m.why).join(' '),
      evidence: review.matches.map((m) => ({ origin: m.origin, text: m.text })),
      remediation: [{ text: 'Upgrade (or pin back) the named component to a release outside the list, one node at a time (drain first)', gate: 'destructive' }],
      refs: [...new Set(review.matches.flatMap((m) => m.refs))],
    });
  },
};
