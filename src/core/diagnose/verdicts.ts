// The catalog as the issue names it: every check tests one root cause from a fixed list, needs the API
// only or the node too, and ends in one of four verdicts. The report's richer statuses (found with a
// severity, clear, not applicable, no evidence) map onto them here, in one place, for the JSON output,
// the tree and the exit code.

import type { CheckResult, Diagnosis } from './diagnosis';

export const DIAGNOSIS_CAUSES = [
  'runtime-hang',
  'shim-hang',
  'too-many-containers',
  'node-load',
  'systemd-dbus',
  'relist-deadlock',
  'cni',
  'network-mount',
  'kernel',
  'event-storm',
  'startup-transient',
  'known-bad-version',
  'pleg-metrics',
  'kubelet-down',
  'evented-pleg',
] as const;
export type DiagnosisCause = (typeof DIAGNOSIS_CAUSES)[number];

/** api: can conclude from the Kubernetes API (and the kubelet through it); node: needs the node over SSH. */
export type CheckTier = 'api' | 'node';

export type CheckVerdict = 'ok' | 'warn' | 'fail' | 'unknown';

export const CHECK_TAXONOMY: Readonly<Record<string, { cause: DiagnosisCause; tier: CheckTier }>> = {
  'pleg-health': { cause: 'pleg-metrics', tier: 'api' },
  'lease-lost': { cause: 'kubelet-down', tier: 'api' },
  'runtime-hung': { cause: 'runtime-hang', tier: 'api' },
  'stuck-container': { cause: 'shim-hang', tier: 'api' },
  'systemd-dbus': { cause: 'systemd-dbus', tier: 'api' },
  'pleg-deadlock': { cause: 'relist-deadlock', tier: 'api' },
  density: { cause: 'too-many-containers', tier: 'api' },
  'event-storm': { cause: 'event-storm', tier: 'api' },
  cni: { cause: 'cni', tier: 'api' },
  'hung-mount': { cause: 'network-mount', tier: 'node' },
  'node-load': { cause: 'node-load', tier: 'node' },
  'kernel-regression': { cause: 'kernel', tier: 'api' },
  'known-bad-version': { cause: 'known-bad-version', tier: 'api' },
  'startup-transient': { cause: 'startup-transient', tier: 'api' },
  'evented-pleg': { cause: 'evented-pleg', tier: 'api' },
  'syncloop-healthz': { cause: 'kubelet-down', tier: 'api' },
  'relist-latency': { cause: 'pleg-metrics', tier: 'api' },
};

/**
 * A problem fails, a warning warns, an informational finding (a startup transient still within its 3
 * minutes) is ok; a check that lacked its evidence is unknown, never fail.
 */
export function checkVerdict(result: CheckResult): CheckVerdict {
  switch (result.status) {
    case 'found':
      return result.finding?.severity === 'problem' ? 'fail' : result.finding?.severity === 'warning' ? 'warn' : 'ok';
    case 'clear':
    case 'notApplicable':
      return 'ok';
    case 'noEvidence':
      return 'unknown';
  }
}

export interface CheckSummary {
  id: string;
  cause: DiagnosisCause | 'unclassified';
  tier: CheckTier;
  verdict: CheckVerdict;
  /** The finding's title and summary, or why the check is ok or unknown. */
  summary: string;
  /** The quoted evidence lines (empty unless something was found). */
  evidence: string[];
}

export function summarizeCheck(result: CheckResult): CheckSummary {
  const taxonomy = CHECK_TAXONOMY[result.checkId];
  const finding = result.finding;
  return {
    id: result.checkId,
    cause: taxonomy?.cause ?? 'unclassified',
    tier: taxonomy?.tier ?? 'api',
    verdict: checkVerdict(result),
    summary: finding !== undefined ? `${finding.title}. ${finding.summary}` : (result.note ?? result.title),
    evidence: finding?.evidence.map((line) => line.text) ?? [],
  };
}

/** The `--format json` document: `{"node", "checks": [{"id", "cause", "verdict", "summary", "evidence"}]}`. */
export function diagnosisJson(diagnosis: Diagnosis): { node: string; context: string; headline: string; checks: CheckSummary[] } {
  return { node: diagnosis.nodeName, context: diagnosis.context, headline: diagnosis.headline, checks: diagnosis.checks.map(summarizeCheck) };
}

export function anyCheckFails(diagnosis: Diagnosis): boolean {
  return diagnosis.checks.some((c) => checkVerdict(c) === 'fail');
}
