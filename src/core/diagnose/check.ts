// The shape every check of the catalog has, and the four ways a check can end. A check is a pure function
// of the precomputed context: it never throws on purpose (runDiagnosis.ts still guards each one, so one
// buggy rule cannot take the whole report down).

import type { CheckContext } from './checkContext';
import type { CheckResult, Finding } from './diagnosis';

export interface Check {
  id: string;
  title: string;
  run(ctx: CheckContext): CheckOutcome;
}

/** What a check returns; runDiagnosis adds the id and title. */
export type CheckOutcome =
  | { status: 'found'; finding: Omit<Finding, 'checkId'>; note?: string }
  | { status: 'clear' | 'notApplicable' | 'noEvidence'; note: string };

export function found(finding: Omit<Finding, 'checkId'>, note?: string): CheckOutcome {
  return note === undefined ? { status: 'found', finding } : { status: 'found', finding, note };
}

export function clear(note: string): CheckOutcome {
  return { status: 'clear', note };
}

export function notApplicable(note: string): CheckOutcome {
  return { status: 'notApplicable', note };
}

export function noEvidence(note: string): CheckOutcome {
  return { status: 'noEvidence', note };
}

export function toResult(check: Check, outcome: CheckOutcome): CheckResult {
  if (outcome.status === 'found') {
    const result: CheckResult = {
      checkId: check.id,
      title: check.title,
      status: 'found',
      finding: { ...outcome.finding, checkId: check.id },
    };
    if (outcome.note !== undefined) result.note = outcome.note;
    return result;
  }
  return { checkId: check.id, title: check.title, status: outcome.status, note: outcome.note };
}
