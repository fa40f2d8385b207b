// The subset of field selectors the API server supports for the resources we serve: `a=b`, `a==b`, `a!=b`,
// comma-joined (AND). Unsupported fields are a 400, as on a real server.

export interface FieldRequirement {
  path: string;
  value: string;
  negate: boolean;
}

export function parseFieldSelector(selector: string | null): FieldRequirement[] {
  if (!selector) return [];
  return selector.split(',').map((term) => {
    const m = /^([^!=]+)(==|!=|=)(.*)$/.exec(term.trim());
    if (!m?.[1] || m[2] === undefined || m[3] === undefined) throw new Error(`invalid field selector term "${term}"`);
    return { path: m[1], value: m[3], negate: m[2] === '!=' };
  });
}

function valueAt(object: unknown, path: string): string {
  let cur: unknown = object;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

export function matchesFields(object: unknown, requirements: readonly FieldRequirement[], allowed: readonly string[]): boolean {
  for (const r of requirements) {
    if (!allowed.includes(r.path)) throw new Error(`field label not supported: ${r.path}`);
    const equal = valueAt(object, r.path) === r.value;
    if (equal === r.negate) return false;
  }
  return true;
}
