// What the user sees while and after a node is diagnosed: the progress line per collection stage and the
// closing notification. Pure (Localize is handed in), so the wording and the severity rule are tested.

import type { Diagnosis } from '../../core/diagnose/diagnosis';
import type { Localize } from '../../core/tree/localize';
import type { EvidenceStage } from '../../infra/diagnose/collectEvidence';

export function diagnosisStageMessage(stage: EvidenceStage, t: Localize): string {
  switch (stage) {
    case 'api':
      return t('Reading the API…');
    case 'kubelet':
      return t('Reading the kubelet through the API server…');
    case 'metricsLater':
      return t('Second metrics scrape…');
    case 'node':
      return t('Reading the node over SSH…');
  }
}

export type DiagnosisNotification = { severity: 'info' | 'warning'; message: string };

/** Information when no finding is a problem (warnings and notes included), a warning otherwise; the text is the headline. */
export function diagnosisNotification(diagnosis: Diagnosis, t: Localize): DiagnosisNotification {
  const problems = diagnosis.findings.filter((f) => f.severity === 'problem').length;
  const message = t('{0}: {1}', diagnosis.nodeName, diagnosis.headline);
  return { severity: problems > 0 ? 'warning' : 'info', message };
}
