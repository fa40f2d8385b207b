// Remediate Node… ranks its actions by the node's diagnosis and warns where the report warns (field
// guide §6): a stuck shim puts cordon and drain first, and says that a runtime restart does not free a
// shim stuck in the kernel and that daemon-reexec is not indicated; a hung runtime puts its restart first;
// a kubelet restart carries "often helps only briefly" whenever the cause is below the kubelet.

import { describe, expect, it } from 'vitest';
import { rankRemediations } from '../../../../src/core/diagnose/remediationRanking';
import { REMEDIATION_ACTIONS } from '../../../../src/core/diagnose/remediation';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { diagnosisJson } from '../../../../src/core/diagnose/verdicts';
import { evidence, goroutines, nodeObject, NOW, ok } from '../../../support/diagnoseBuilders';

const checksOf = (d: ReturnType<typeof diagnose>) => diagnosisJson(d).checks;

describe('rankRemediations', () => {
  it('a stuck shim (the demo node-07 story): cordon and drain first; restart-runtime warned; daemon-reexec not indicated; the kubelet restart "helps only briefly"', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'False' }), goroutines: ok(goroutines('PodSandboxStatus', 2)) }), { now: NOW });
    expect(checksOf(d).find((c) => c.id === 'stuck-container')?.verdict).toBe('fail');
    const ranked = rankRemediations(checksOf(d));
    expect(ranked.map((r) => [r.id, r.indicated])).toEqual([
      ['cordon', true],
      ['drain', true],
      ['restart-runtime', false],
      ['restart-kubelet', false],
      ['daemon-reexec', false],
    ]);
    expect(ranked[0]?.reason).toContain('one pod’s container or shim is stuck');
    expect(ranked.find((r) => r.id === 'daemon-reexec')?.reason).toBe('not indicated by the diagnosis');
    expect(ranked.find((r) => r.id === 'restart-runtime')?.warnings.join(' ')).toContain('does not free a shim');
    expect(ranked.find((r) => r.id === 'restart-kubelet')?.warnings.join(' ')).toContain('often helps only briefly');
  });

  it('a hung runtime: its restart first; no diagnosis: the fixed order, nothing indicated, no warnings added', () => {
    const ranked = rankRemediations([{ cause: 'runtime-hang', verdict: 'fail' }, { cause: 'shim-hang', verdict: 'ok' }]);
    expect(ranked.map((r) => r.id).slice(0, 2)).toEqual(['restart-runtime', 'cordon']);
    expect(ranked.find((r) => r.id === 'restart-runtime')?.warnings).toEqual([]);
    expect(rankRemediations([{ cause: 'systemd-dbus', verdict: 'warn' }])[0]?.id).toBe('daemon-reexec');
    const none = rankRemediations(undefined);
    expect(none.map((r) => r.id)).toEqual([...REMEDIATION_ACTIONS]);
    expect(none.every((r) => !r.indicated && r.warnings.length === 0 && r.reason === undefined)).toBe(true);
    expect(rankRemediations([{ cause: 'cni', verdict: 'ok' }]).every((r) => r.reason === 'the diagnosis found no cause')).toBe(true);
  });
});
