import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HealthzParseError, parseHealthz } from '../../../../src/core/parse/healthz';

const DIR = new URL('../../../fixtures/real-kubelet-1.32/', import.meta.url);

interface Recorded {
  url: string;
  body: string;
  httpStatus: number;
}

/** A recorded healthz-*.txt holds three requests: `# <time> GET <url>`, the body, `# http_code=… time=…`. */
function recordedRequests(file: string): Recorded[] {
  const out: Recorded[] = [];
  let current: { url: string; lines: string[] } | undefined;
  for (const line of readFileSync(new URL(file, DIR), 'utf8').split('\n')) {
    const get = /^# \S+ GET (\S+)/.exec(line);
    const code = /^# http_code=(\d+)/.exec(line);
    if (get !== null) current = { url: get[1] ?? '', lines: [] };
    else if (code !== null && current !== undefined) {
      out.push({ url: current.url, body: current.lines.join('\n'), httpStatus: Number(code[1]) });
      current = undefined;
    } else current?.lines.push(line);
  }
  return out;
}

const FILES = readdirSync(DIR).filter((f) => f.startsWith('healthz-'));

describe('parseHealthz on the real kubelet 1.32 recording', () => {
  it('has the healthy, every stopped and every recovered phase', () => {
    expect(FILES).toHaveLength(17);
    expect(FILES.filter((f) => f.startsWith('healthz-stopped-'))).toHaveLength(10);
  });

  // The syncloop check fails only 5 min after the loop's last completed pass (≈ +421 s after the freeze),
  // and the runtime resumed at +300 s, so even the frozen phases stay healthy: README, docs/pleg-health.md.
  it.each(FILES)('%s: all three ports healthy, the verbose ones listing syncloop ok', (file) => {
    const requests = recordedRequests(file);
    expect(requests.map((r) => r.url)).toEqual(['https://127.0.0.1:10250/healthz?verbose', 'http://127.0.0.1:10255/healthz?verbose', 'http://127.0.0.1:10248/healthz']);
    const [main, readOnly, healthzPort] = requests.map((r) => parseHealthz(r.body, r.httpStatus));
    const verbose = {
      healthy: true,
      checks: [
        { name: 'ping', ok: true },
        { name: 'log', ok: true },
        { name: 'syncloop', ok: true },
        { name: 'device-plugin', ok: true },
      ],
    };
    expect(main).toEqual(verbose);
    expect(readOnly).toEqual(verbose);
    expect(healthzPort).toEqual({ healthy: true, checks: [] });
  });
});

describe('parseHealthz', () => {
  it('reads a failing syncloop, as the main port shows ≈5 min into a stall', () => {
    const body = '[+]ping ok\n[+]log ok\n[-]syncloop failed: reason withheld\nhealthz check failed\n';
    expect(parseHealthz(body, 500)).toEqual({
      healthy: false,
      checks: [
        { name: 'ping', ok: true },
        { name: 'log', ok: true },
        { name: 'syncloop', ok: false, detail: 'reason withheld' },
      ],
    });
  });

  it('reads excluded checks as passing, with a note', () => {
    expect(parseHealthz('[+]ping ok\n[+]syncloop excluded: ok\nhealthz check passed\n', 200).checks[1]).toEqual({ name: 'syncloop', ok: true, detail: 'excluded' });
  });

  it('lets the HTTP status overrule a body that claims success, and a failed line overrule 200', () => {
    expect(parseHealthz('ok', 500).healthy).toBe(false);
    expect(parseHealthz('[+]ping ok\nhealthz check passed\n', 503).healthy).toBe(false);
    expect(parseHealthz('[-]syncloop failed: reason withheld\n', 200).healthy).toBe(false);
    expect(parseHealthz('[+]ping ok\nhealthz check failed\n', 200).healthy).toBe(false);
  });

  it('accepts CRLF and a body without its status line', () => {
    expect(parseHealthz('[+]ping ok\r\n[+]syncloop ok\r\n', 200)).toEqual({ healthy: true, checks: [{ name: 'ping', ok: true }, { name: 'syncloop', ok: true }] });
  });

  const bad: [string, string, RegExp][] = [
    ['an empty body', '\n', /empty body/],
    ['an HTML page', '<html>Unauthorized</html>', /line 1: not a healthz check line: "<html>Unauthorized<\/html>"/],
    ['text after the status line', '[+]ping ok\nhealthz check passed\nextra\n', /line 3: text after the status line/],
    ['an unknown check result', '[+]ping fine\n', /line 1: unexpected text after \[\+\]ping/],
    ['a garbled failure', '[+]ping ok\n[-]syncloop broken\n', /line 2: unexpected text after \[-\]syncloop/],
  ];
  it.each(bad)('names the line for %s', (_what, body, message) => {
    expect(() => parseHealthz(body, 500)).toThrow(HealthzParseError);
    expect(() => parseHealthz(body, 500)).toThrow(message);
  });

  it('names the HTTP status in its errors', () => {
    expect(() => parseHealthz('Forbidden', 403)).toThrow(/healthz \(HTTP 403\)/);
  });
});
