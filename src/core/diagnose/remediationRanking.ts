// Which of Remediate Node…'s actions the node's diagnosis points to, in what order, and what to warn about
// them, from the causes of docs/root-causes.md and their remedies in remediation.ts: a hung runtime → restart it; one stuck
// container or shim (often `runc init` in D state) → cordon and drain, then reboot; the systemd D-Bus hang →
// `daemon-reexec`; the pre-1.14 PLEG deadlock → restart the kubelet as a stopgap. A remedy for a cause the
// diagnosis did not find is still offered, last, saying so, as the report's remediation would; and where
// the report warns (a kubelet restart "often helps only briefly", #77728), the picker warns too.

import type { RemediationActionId } from './remediation';
import { REMEDIATION_ACTIONS } from './remediation';
import type { CheckVerdict, DiagnosisCause } from './verdicts';

/** What the ranking reads of a diagnosis: each check's cause and verdict (the tree's stored diagnosis). */
export interface CauseVerdict {
  cause: DiagnosisCause | 'unclassified';
  verdict: CheckVerdict;
}

export interface RankedAction {
  id: RemediationActionId;
  /** The diagnosis names a cause this action remedies. */
  indicated: boolean;
  /** Why it is indicated, or why not; absent without a diagnosis. */
  reason?: string;
  /** Warnings from the diagnosis, added to the action's own. */
  warnings: string[];
}

const SUGGESTS: Partial<Record<DiagnosisCause, { actions: RemediationActionId[]; why: string }>> = {
  'runtime-hang': { actions: ['restart-runtime', 'cordon'], why: 'the container runtime is not answering CRI calls' },
  'shim-hang': { actions: ['cordon', 'drain'], why: 'one pod’s container or shim is stuck (the guide’s remedy: move the pods, then reboot)' },
  'systemd-dbus': { actions: ['daemon-reexec'], why: 'the systemd D-Bus hang (sd-bus cookie overflow)' },
  'relist-deadlock': { actions: ['restart-kubelet'], why: 'the pre-1.14 PLEG deadlock (a kubelet restart is the stopgap; upgrade)' },
  'too-many-containers': { actions: ['cordon'], why: 'too many pods or containers on the node' },
};

const SHIM_RESTART_WARNING =
  'The diagnosis found one stuck container or shim: restarting the runtime does not free a shim or `runc init` stuck in the kernel (D state): move the pods and reboot the node.';
const KUBELET_BRIEF =
  'The diagnosis names a cause below the kubelet: a kubelet restart often helps only briefly (kubernetes #77728). Fix the cause.';

/** The actions in the order to offer them: indicated ones first (in the order of the causes found), then the rest. */
export function rankRemediations(checks: readonly CauseVerdict[] | undefined): RankedAction[] {
  if (checks === undefined) return REMEDIATION_ACTIONS.map((id) => ({ id, indicated: false, warnings: [] }));
  const found = checks.filter((c) => c.verdict === 'fail' || c.verdict === 'warn').map((c) => c.cause);
  const reasons = new Map<RemediationActionId, string>();
  for (const cause of found) {
    const s = cause !== 'unclassified' ? SUGGESTS[cause] : undefined;
    for (const a of s?.actions ?? []) if (!reasons.has(a)) reasons.set(a, `suggested by the diagnosis: ${s?.why ?? ''}`);
  }
  const causeBelowKubelet = found.some((c) => c === 'runtime-hang' || c === 'shim-hang' || c === 'systemd-dbus' || c === 'cni' || c === 'network-mount');
  const ranked = REMEDIATION_ACTIONS.map((id): RankedAction => {
    const warnings: string[] = [];
    if (id === 'restart-runtime' && found.includes('shim-hang') && !found.includes('runtime-hang')) warnings.push(SHIM_RESTART_WARNING);
    if (id === 'restart-kubelet' && causeBelowKubelet && !found.includes('relist-deadlock')) warnings.push(KUBELET_BRIEF);
    const reason = reasons.get(id);
    return { id, indicated: reason !== undefined, reason: reason ?? (found.length > 0 ? 'not indicated by the diagnosis' : 'the diagnosis found no cause'), warnings };
  });
  const order = [...reasons.keys()];
  return ranked.sort((a, b) => (a.indicated ? order.indexOf(a.id) : order.length + REMEDIATION_ACTIONS.indexOf(a.id)) - (b.indicated ? order.indexOf(b.id) : order.length + REMEDIATION_ACTIONS.indexOf(b.id)));
}
