// diagnose(): evidence in, Diagnosis out. Pure and total: whatever the evidence holds (real Node objects
// omit fields everywhere, and a collector can hand over anything), it returns a Diagnosis. A check that
// throws (a bug) becomes a `noEvidence` row naming the error, so one rule cannot hide the others.

import type { Check, CheckOutcome } from './check';
import { toResult } from './check';
import { CHECK_CATALOG } from './catalog';
import { buildCheckContext, referenceTime, type CheckContext } from './checkContext';
import type { CheckResult, Diagnosis, Finding, Severity } from './diagnosis';
import type { NodeEvidence } from './evidence';
import { collectGaps, type AdviceSurface } from './gaps';
import { makeHeadline } from './headline';
import { atRiskCountdown, countdownText } from '../npd/atRiskCondition';
import { sourceReports } from './sourceNotes';
import { errorText } from '../util/errorText';

const SEVERITY_RANK: Record<Severity, number> = { problem: 0, warning: 1, info: 2 };

export function severityRank(s: Severity): number {
  return SEVERITY_RANK[s] ?? 3;
}

function runCheck(check: Check, ctx: CheckContext): CheckResult {
  let outcome: CheckOutcome;
  try {
    outcome = check.run(ctx);
  } catch (e) {
    outcome = { status: 'noEvidence', note: `internal error in this check: ${errorText(e)}` };
  }
  return toResult(check, outcome);
}

function text(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v : fallback;
}

export interface DiagnoseOptions {
  now?: Date;
  /** Who reads the advice on what was not collected: settings in VS Code (the default), flags in the CLI. */
  advice?: AdviceSurface;
}

export function diagnose(evidence: NodeEvidence, options?: DiagnoseOptions): Diagnosis {
  const now = referenceTime(evidence, options?.now);
  let ctx: CheckContext | undefined;
  let contextError: string | undefined;
  try {
    ctx = buildCheckContext(evidence, now);
  } catch (e) {
    contextError = errorText(e);
  }
  const checks: CheckResult[] =
    ctx !== undefined
      ? CHECK_CATALOG.map((check) => runCheck(check, ctx))
      : CHECK_CATALOG.map((check) => toResult(check, { status: 'noEvidence', note: `the evidence could not be read: ${contextError ?? 'unknown error'}` }));

  // Stable sort: equal severities keep catalog order, so the symptom precedes its cause.
  const findings: Finding[] = checks
    .map((c) => c.finding)
    .filter((f): f is Finding => f !== undefined)
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity));

  const verdict = ctx?.classification.verdict ?? 'not-ready-other';
  let sources: Diagnosis['sources'];
  let gaps: string[];
  try {
    sources = sourceReports(evidence);
    gaps = collectGaps(evidence, verdict, options?.advice ?? 'vscode');
  } catch (e) {
    sources = [];
    gaps = [`the evidence sources could not be read: ${errorText(e)}`];
  }
  if (contextError !== undefined) gaps.unshift(`the evidence could not be read: ${contextError}`);

  const diagnosis: Diagnosis = {
    context: text(evidence?.context, ''),
    nodeName: ctx?.nodeName ?? text(evidence?.nodeName, ''),
    collectedAt: text(evidence?.collectedAt, ''),
    verdict,
    headline: makeHeadline(verdict, findings, verdict === 'pleg-at-risk' && ctx?.classification.atRisk !== undefined ? countdownText(atRiskCountdown(ctx.classification.atRisk, now)) : undefined),
    findings,
    checks,
    sources,
    gaps,
  };
  const c = ctx?.classification;
  if (c !== undefined && c.readyStatus !== 'missing') {
    diagnosis.readyMessage = c.message;
    if (c.since !== undefined) diagnosis.readySince = c.since;
  }
  return diagnosis;
}
