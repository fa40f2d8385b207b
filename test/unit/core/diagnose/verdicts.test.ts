// The catalog's taxonomy: every check names one cause from the fixed list, and the report's
// statuses map onto ok / warn / fail / unknown so a missing source can never fail a check.

import { describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../../../../src/core/diagnose/catalog';
import { diagnose } from '../../../../src/core/diagnose/runDiagnosis';
import { CHECK_TAXONOMY, DIAGNOSIS_CAUSES, anyCheckFails, checkVerdict, diagnosisJson } from '../../../../src/core/diagnose/verdicts';
import { evidence, nodeObject } from '../../../support/diagnoseBuilders';

describe('check taxonomy', () => {
  it('every catalog check has a cause from the fixed list', () => {
    for (const check of CHECK_CATALOG) {
      const entry = CHECK_TAXONOMY[check.id];
      expect(entry, check.id).toBeDefined();
      expect(DIAGNOSIS_CAUSES).toContain(entry?.cause);
    }
  });

  it('verdicts: problem fails, warning warns, info and clear are ok, no evidence is unknown', () => {
    const base = { checkId: 'density', title: 't' };
    const finding = (severity: 'problem' | 'warning' | 'info') => ({ checkId: 'density', severity, title: 'x', summary: 'y', evidence: [], remediation: [], refs: [] });
    expect(checkVerdict({ ...base, status: 'found', finding: finding('problem') })).toBe('fail');
    expect(checkVerdict({ ...base, status: 'found', finding: finding('warning') })).toBe('warn');
    expect(checkVerdict({ ...base, status: 'found', finding: finding('info') })).toBe('ok');
    expect(checkVerdict({ ...base, status: 'clear', note: '' })).toBe('ok');
    expect(checkVerdict({ ...base, status: 'notApplicable', note: '' })).toBe('ok');
    expect(checkVerdict({ ...base, status: 'noEvidence', note: '' })).toBe('unknown');
  });

  it('a node with nothing but its Node object: no check fails, the ones without evidence are unknown', () => {
    const d = diagnose(evidence({ node: nodeObject({ ready: 'True' }) }), { now: new Date('2026-11-22T03:00:00Z') });
    const json = diagnosisJson(d);
    expect(json.checks.map((c) => c.id)).toEqual(CHECK_CATALOG.map((c) => c.id));
    expect(json.checks.some((c) => c.verdict === 'fail')).toBe(false);
    expect(anyCheckFails(d)).toBe(false);
    expect(json.checks.find((c) => c.id === 'node-load')).toMatchObject({ cause: 'node-load', tier: 'node', verdict: 'unknown', evidence: [] });
  });
});
