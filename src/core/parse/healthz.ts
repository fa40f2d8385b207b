// The kubelet's /healthz. With ?verbose (or whenever a check fails) the body lists each check:
//   [+]ping ok
//   [-]syncloop failed: reason withheld
//   [+]log excluded: ok
//   healthz check failed
// Without it, a passing kubelet (and the separate healthz port 10248) answers the bare word `ok`.
// The HTTP status decides as much as the text: the server answers 500 when any check fails.

import type { HealthzReport } from './kubeletEndpointTypes';

export class HealthzParseError extends Error {
  override readonly name = 'HealthzParseError';
}

const CHECK_LINE = /^\[([+-])\](\S+) (.+)$/;
const STATUS_LINE = /^(\w+) check (passed|failed)$/;

export function parseHealthz(text: string, httpStatus: number): HealthzReport {
  const statusOk = httpStatus >= 200 && httpStatus < 300;
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const meaningful = lines.map((content, i) => ({ content, lineNo: i + 1 })).filter((l) => l.content.trim() !== '');
  if (meaningful.length === 0) throw new HealthzParseError(`healthz (HTTP ${httpStatus}): empty body`);
  if (meaningful.length === 1 && meaningful[0]?.content.trim() === 'ok') return { healthy: statusOk, checks: [] };

  const checks: HealthzReport['checks'] = [];
  let verdict: 'passed' | 'failed' | undefined;
  for (const { content, lineNo } of meaningful) {
    const fail = (reason: string): never => {
      const shown = content.length > 120 ? `${content.slice(0, 120)}…` : content;
      throw new HealthzParseError(`healthz (HTTP ${httpStatus}) line ${lineNo}: ${reason}: ${JSON.stringify(shown)}`);
    };
    if (verdict !== undefined) fail('text after the status line');
    const status = STATUS_LINE.exec(content);
    if (status !== null) {
      verdict = status[2] === 'passed' ? 'passed' : 'failed';
      continue;
    }
    const check = CHECK_LINE.exec(content);
    if (check === null) fail('not a healthz check line');
    const [, sign = '', name = '', rest = ''] = check ?? [];
    if (sign === '+') {
      if (rest === 'ok') checks.push({ name, ok: true });
      else if (rest === 'excluded: ok') checks.push({ name, ok: true, detail: 'excluded' });
      else fail(`unexpected text after [+]${name}`);
    } else {
      const detail = rest.startsWith('failed: ') ? rest.slice('failed: '.length) : rest === 'failed' ? undefined : fail(`unexpected text after [-]${name}`);
      checks.push(detail === undefined ? { name, ok: false } : { name, ok: false, detail });
    }
  }
  if (verdict === undefined && checks.length === 0) throw new HealthzParseError(`healthz (HTTP ${httpStatus}): no checks and no status line`);
  const healthy = statusOk && verdict !== 'failed' && checks.every((c) => c.ok);
  return { healthy, checks };
}
