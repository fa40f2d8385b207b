// Remediation gating (pure): what each action is, which gate it gets, the warnings of docs/root-causes.md where the
// guide warns, the exact argv, and the typed-name and workspace-trust checks. The host's command string
// is checked here too: the argv reaches the node through shellQuote, arguments single-quoted.

import { describe, expect, it } from 'vitest';
import { REMEDIATION_ACTIONS, remediationGate, remediationPlan, runtimeUnit, typedNameMatches, type RemediationTarget } from '../../../../src/core/diagnose/remediation';
import { describeStep, sshCommandLine } from '../../../../src/host/diagnostics/remediateCommand';

const target = (over: Partial<RemediationTarget> = {}): RemediationTarget => ({ context: 'prod', node: 'node-07', runtimeVersion: 'containerd://1.6.20', ready: 'False', ...over });

describe('remediation plans', () => {
  it('cordon only confirms; everything that restarts or evicts asks for the node name', () => {
    const classes = Object.fromEntries(
      REMEDIATION_ACTIONS.map((id) => {
        const plan = remediationPlan(id, target());
        if ('unavailable' in plan) throw new Error(plan.unavailable);
        return [id, `${plan.cls}/${plan.typeNodeName}`];
      }),
    );
    expect(classes).toEqual({
      cordon: 'confirm/false',
      drain: 'disruptive/true',
      'restart-runtime': 'disruptive/true',
      'restart-kubelet': 'disruptive/true',
      'daemon-reexec': 'disruptive/true',
    });
  });

  it('cordon is a PATCH of spec.unschedulable on the node, its name encoded', () => {
    const plan = remediationPlan('cordon', target({ node: 'a/b' }));
    expect(plan).toMatchObject({ steps: [{ kind: 'api', method: 'PATCH', path: '/api/v1/nodes/a%2Fb', body: '{"spec":{"unschedulable":true}}' }] });
  });

  it('drain warns that it hangs on a NotReady node, and only then', () => {
    const notReady = remediationPlan('drain', target({ ready: 'False' }));
    const ready = remediationPlan('drain', target({ ready: 'True' }));
    if ('unavailable' in notReady || 'unavailable' in ready) throw new Error('drain unavailable');
    expect(notReady.warnings[0]).toContain('a drain hangs on a NotReady node');
    expect(notReady.warnings[0]).toContain('k9s #237');
    expect(ready.warnings.join(' ')).not.toContain('NotReady');
    expect(notReady.steps).toEqual([{ kind: 'kubectl', argv: ['kubectl', '--context', 'prod', 'drain', 'node-07', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s'] }]);
  });

  it('restarts warn against automating them on counted PLEG lines; Docker warns about live-restore', () => {
    for (const id of ['restart-runtime', 'restart-kubelet'] as const) {
      const plan = remediationPlan(id, target());
      if ('unavailable' in plan) throw new Error(plan.unavailable);
      expect(plan.warnings.join(' ')).toContain('gardener #844');
    }
    const docker = remediationPlan('restart-runtime', target({ runtimeVersion: 'docker://20.10.19' }));
    if ('unavailable' in docker) throw new Error(docker.unavailable);
    expect(docker.warnings[0]).toContain('live-restore');
    expect(docker.steps).toEqual([{ kind: 'node', argv: ['sudo', '-n', 'systemctl', 'restart', 'docker'] }]);
  });

  it('the runtime unit comes from nodeInfo; an unknown runtime makes the restart unavailable, never a guess', () => {
    expect(runtimeUnit('containerd://1.7.27')).toBe('containerd');
    expect(runtimeUnit('cri-o://1.30.1')).toBe('crio');
    expect(runtimeUnit('remote://1.0')).toBeUndefined();
    expect(remediationPlan('restart-runtime', target({ runtimeVersion: 'remote://1.0' }))).toEqual({ unavailable: expect.stringContaining('remote://1.0') as string });
    expect(remediationPlan('restart-runtime', { context: 'c', node: 'n', ready: 'Unknown' })).toMatchObject({ unavailable: expect.stringContaining('nodeInfo.containerRuntimeVersion is empty') as string });
  });
});

describe('remediation gates', () => {
  it('untrusted workspace: refused', () => {
    expect(remediationGate({ workspaceTrusted: false })).toEqual({ allowed: false, reason: 'remediation is not available in an untrusted workspace' });
    expect(remediationGate({ workspaceTrusted: true })).toEqual({ allowed: true });
  });

  it('the typed name must be the node name exactly', () => {
    expect(typedNameMatches('node-07', 'node-07')).toBe(true);
    expect(typedNameMatches('node-07', ' node-07 ')).toBe(true);
    expect(typedNameMatches('node-07', 'NODE-07')).toBe(false);
    expect(typedNameMatches('node-07', 'node-0')).toBe(false);
    expect(typedNameMatches('node-07', undefined)).toBe(false);
    expect(typedNameMatches('', '')).toBe(false);
  });

  it('the command shown is the one sent: argv single-quoted for the node, the whole remote command quoted for the local shell', () => {
    const ssh = { nodeName: 'node-07', host: '10.0.0.7', addressSource: 'InternalIP' as const, port: 2222, user: 'core', sudo: true };
    expect(sshCommandLine(ssh, ['sudo', '-n', 'systemctl', 'restart', 'containerd'])).toBe(
      `ssh -p 2222 'core@10.0.0.7' -- ''\\''sudo'\\'' '\\''-n'\\'' '\\''systemctl'\\'' '\\''restart'\\'' '\\''containerd'\\'''`,
    );
    expect(describeStep({ kind: 'kubectl', argv: ['kubectl', 'drain', "x'; rm -rf /"] }, undefined)).toBe(`'kubectl' 'drain' 'x'\\''; rm -rf /'`);
  });
});
