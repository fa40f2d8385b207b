// The remediations PLEG Doctor can carry out for a node, and the gates in front of each (docs/root-causes.md,
// "Gating policy"). Nothing here runs anything: this decides what may be offered, what the confirmation
// shows (the exact command and its target, the impact, the guide's warnings) and whether the node name
// must be typed. Nothing is ever triggered by a diagnosis by itself: the guide's "never automate" row is
// why every action needs a person to pick it, read the modal and confirm.

export const REMEDIATION_ACTIONS = ['cordon', 'drain', 'restart-runtime', 'restart-kubelet', 'daemon-reexec'] as const;
export type RemediationActionId = (typeof REMEDIATION_ACTIONS)[number];

/** The classes of docs/root-causes.md: confirm (intrusive, not destructive) and disruptive (confirm with a stated impact). */
export type RemediationClass = 'confirm' | 'disruptive';

export interface RemediationTarget {
  context: string;
  node: string;
  /** `nodeInfo.containerRuntimeVersion`, e.g. `containerd://1.6.20`. */
  runtimeVersion?: string;
  /** The node's Ready status: a drain of a NotReady node hangs. */
  ready: 'True' | 'False' | 'Unknown' | 'missing';
}

export type RemediationStep =
  /** A Kubernetes API request, shown as its method and path with the body. */
  | { kind: 'api'; method: 'PATCH'; path: string; body: string; contentType: string }
  /** Commands on the node over SSH, each an argv array (quoted by src/infra/ssh/shellQuote.ts when sent). */
  | { kind: 'node'; argv: string[] }
  /** kubectl run by the user (drain): shown and copied, its argv quoted the same way. */
  | { kind: 'kubectl'; argv: string[] };

export interface RemediationPlan {
  id: RemediationActionId;
  title: string;
  cls: RemediationClass;
  /** The node name must be typed to confirm. */
  typeNodeName: boolean;
  steps: RemediationStep[];
  impact: string;
  /** The warnings of docs/root-causes.md that apply to this node. */
  warnings: string[];
}

/** The systemd unit of the node's runtime, from `nodeInfo.containerRuntimeVersion`. */
export function runtimeUnit(runtimeVersion: string | undefined): string | undefined {
  const scheme = /^([a-z0-9-]+):\/\//u.exec(runtimeVersion ?? '')?.[1] ?? '';
  const units: Record<string, string> = { containerd: 'containerd', 'cri-o': 'crio', docker: 'docker' };
  return Object.hasOwn(units, scheme) ? units[scheme] : undefined;
}

const NEVER_AUTOMATE =
  'Never restart on a count of "PLEG is not healthy" lines: a monitor that did so caused reboot loops (gardener #844, removed in PR #845/#861).';

export function remediationPlan(id: RemediationActionId, target: RemediationTarget): RemediationPlan | { unavailable: string } {
  const node = target.node;
  switch (id) {
    case 'cordon':
      return {
        id,
        title: 'Cordon',
        cls: 'confirm',
        typeNodeName: false,
        steps: [{ kind: 'api', method: 'PATCH', path: `/api/v1/nodes/${encodeURIComponent(node)}`, body: '{"spec":{"unschedulable":true}}', contentType: 'application/strategic-merge-patch+json' }],
        impact: 'No new pods are scheduled to the node; running pods stay.',
        warnings: [],
      };
    case 'drain': {
      const warnings = ['Drain evicts every pod that is not a DaemonSet pod; pods without a controller are deleted for good.'];
      if (target.ready !== 'True') {
        warnings.unshift(
          'The node is not Ready: a drain hangs on a NotReady node, because the kubelet that should stop the pods does not answer (k9s #237). The timeout below bounds it; pods may stay Terminating until the node is back or deleted.',
        );
      }
      return {
        id,
        title: 'Drain',
        cls: 'disruptive',
        typeNodeName: true,
        steps: [{ kind: 'kubectl', argv: ['kubectl', '--context', target.context, 'drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s'] }],
        impact: 'The node is cordoned and its pods are evicted: the workloads restart elsewhere, emptyDir data is lost.',
        warnings,
      };
    }
    case 'restart-runtime': {
      const unit = runtimeUnit(target.runtimeVersion);
      if (unit === undefined) return { unavailable: `the node's runtime (${target.runtimeVersion ?? 'nodeInfo.containerRuntimeVersion is empty'}) is not one PLEG Doctor knows the systemd unit of` };
      const warnings = [NEVER_AUTOMATE];
      if (unit === 'docker') warnings.unshift('Docker without live-restore stops every container on the node when it restarts. Take a goroutine dump first (kill -USR1 on dockerd) so the hang can be reported.');
      return {
        id,
        title: `Restart ${unit}`,
        cls: 'disruptive',
        typeNodeName: true,
        steps: [{ kind: 'node', argv: ['sudo', '-n', 'systemctl', 'restart', unit] }],
        impact: `${unit} restarts: CRI calls fail for a few seconds; with containerd and CRI-O the containers keep running.`,
        warnings,
      };
    }
    case 'restart-kubelet':
      return {
        id,
        title: 'Restart the kubelet',
        cls: 'disruptive',
        typeNodeName: true,
        steps: [{ kind: 'node', argv: ['sudo', '-n', 'systemctl', 'restart', 'kubelet'] }],
        impact: 'The kubelet restarts: the node may go NotReady briefly; pods keep running.',
        warnings: ['A kubelet restart often helps only briefly when the runtime underneath is the problem (kubernetes #77728).', NEVER_AUTOMATE],
      };
    case 'daemon-reexec':
      return {
        id,
        title: 'systemctl daemon-reexec',
        cls: 'disruptive',
        typeNodeName: true,
        steps: [{ kind: 'node', argv: ['sudo', '-n', 'systemctl', 'daemon-reexec'] }],
        impact: 'systemd (PID 1) re-executes itself, serializing its state: the short-term fix for the sd-bus cookie overflow.',
        warnings: ['A new systemd package takes effect only after a re-exec or a reboot; afterwards restart the runtime and the kubelet (docs/root-causes.md, cause 3).'],
      };
  }
}

export type RemediationGate = { allowed: true } | { allowed: false; reason: string };

/** Remediation is offered only in a trusted workspace (a cloned repository must not be able to reach it). */
export function remediationGate(options: { workspaceTrusted: boolean }): RemediationGate {
  if (!options.workspaceTrusted) return { allowed: false, reason: 'remediation is not available in an untrusted workspace' };
  return { allowed: true };
}

/** The typed confirmation must be the node name exactly (no trimming of the name itself, no case folding). */
export function typedNameMatches(expected: string, typed: string | undefined): boolean {
  return typed !== undefined && typed.trim() === expected && expected !== '';
}
