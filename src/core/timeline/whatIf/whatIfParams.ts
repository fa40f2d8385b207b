// Runtime checking of what-if knobs that arrive from outside (the webview). The result names the field
// and the limit, so each side can word the message in its own language.

import { KUBELET_LINES, WHAT_IF_LIMITS, WHAT_IF_NUMERIC_KEYS, type WhatIfNumericKey, type WhatIfParams } from './whatIfTypes';

export type ParamProblem =
  | { kind: 'notAnObject' }
  | { kind: 'notANumber'; field: WhatIfNumericKey }
  | { kind: 'outOfRange'; field: WhatIfNumericKey; value: number; min: number; max: number }
  | { kind: 'badKubelet'; value: string }
  | { kind: 'unknownField'; field: string };

export type ParamCheck = { ok: true; params: WhatIfParams } | { ok: false; problem: ParamProblem };

const KNOWN = new Set<string>([...WHAT_IF_NUMERIC_KEYS, 'kubelet']);

export function checkWhatIfParams(value: unknown): ParamCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: { kind: 'notAnObject' } };
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!KNOWN.has(key)) return { ok: false, problem: { kind: 'unknownField', field: key } };
  const out: Partial<WhatIfParams> = {};
  for (const field of WHAT_IF_NUMERIC_KEYS) {
    const n = record[field];
    if (typeof n !== 'number' || !Number.isFinite(n)) return { ok: false, problem: { kind: 'notANumber', field } };
    const [min, max] = WHAT_IF_LIMITS[field];
    if (n < min || n > max) return { ok: false, problem: { kind: 'outOfRange', field, value: n, min, max } };
    out[field] = n;
  }
  const kubelet = record['kubelet'];
  const line = KUBELET_LINES.find((l) => l === kubelet);
  if (line === undefined) return { ok: false, problem: { kind: 'badKubelet', value: String(kubelet) } };
  out.kubelet = line;
  return { ok: true, params: out as WhatIfParams };
}

/** English wording of a problem (logs, CLI, tests); the panel words it through its own strings. */
export function describeParamProblem(problem: ParamProblem): string {
  switch (problem.kind) {
    case 'notAnObject':
      return 'params must be an object';
    case 'notANumber':
      return `${problem.field} must be a number`;
    case 'outOfRange':
      return `${problem.field} must be between ${problem.min} and ${problem.max} (got ${problem.value})`;
    case 'badKubelet':
      return `kubelet must be "1.26", "1.32" or "1.36" (got ${JSON.stringify(problem.value)})`;
    case 'unknownField':
      return `unknown field ${JSON.stringify(problem.field)}`;
  }
}
