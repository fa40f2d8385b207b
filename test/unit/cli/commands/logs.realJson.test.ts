// `pleg-doctor logs` as a user runs it (the bundle built as the build writes dist/cli.js) on a real kubelet
// v1.36.2 JSON log (--logging-format=json) of a containerd freeze, bare, behind a journalctl short-iso
// prefix and as journalctl -o json entries, from a file and from standard input. The expected stretch is
// computed from the fixture's text by jsonLogWindow.ts, not by the reader: its first and last lines are the
// window's first and last "PLEG is not healthy: pleg was last seen active" lines. A reader that took "ts"
// for seconds (it is epoch milliseconds) would make each of those lines a stretch of its own.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliTargets } from '../../../../esbuild.mjs';
import { JSON_FIXTURES, expectedStretches, fixturePath, fixtureText, plegPoints } from '../../../support/jsonLogWindow';

const ROOT = resolve(__dirname, '../../../..');
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-cli-json-'));
  await Promise.all(cliTargets({ production: true, outdir: dir }).map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, logLevel: 'silent' })));
}, 120_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await esbuild.stop();
});

interface Run {
  status: number | null;
  stderr: string;
  findings: Array<Record<string, unknown>>;
  summary: { plegStretches: unknown[]; lines: number; relistFailures: number };
}

function logs(args: string[], input?: Buffer): Run {
  const r = spawnSync(process.execPath, [join(dir, 'cli.js'), 'logs', ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
    ...(input === undefined ? {} : { input }),
  });
  const out = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const last = out.pop() as { summary: Run['summary'] };
  return { status: r.status, stderr: r.stderr, findings: out, summary: last.summary };
}

describe('pleg-doctor logs on a real kubelet JSON log', () => {
  for (const name of Object.values(JSON_FIXTURES)) {
    it(`${name}: exactly the stretch(es) from the first to the last "PLEG is not healthy" line, with their "last seen active"`, () => {
      const text = fixtureText(name);
      const points = plegPoints(text);
      // The window holds one freeze: at least a few unhealthy lines, all within the 60 s gap of each other.
      expect(points.length).toBeGreaterThanOrEqual(2);
      const expected = expectedStretches(points);
      expect(expected).toHaveLength(1);
      expect(expected[0]).toMatchObject({ firstLine: points[0]?.line, lastLine: points[points.length - 1]?.line });

      for (const run of [logs([fixturePath(name)]), logs(['-'], readFileSync(fixturePath(name)))]) {
        expect(run.stderr).toBe('');
        expect(run.status).toBe(1);
        expect(run.summary.lines).toBe(text.split('\n').length - (text.endsWith('\n') ? 1 : 0));
        expect(run.summary.plegStretches).toEqual(expected.map(({ firstLine, lastLine, durationSeconds, maxLastSeenAgoSeconds }) => ({ firstLine, lastLine, durationSeconds, maxLastSeenAgoSeconds })));
        const stretches = run.findings.filter((f) => f['kind'] === 'pleg-stretch');
        expect(stretches).toEqual(
          expected.map((e) =>
            expect.objectContaining({ firstLine: e.firstLine, lastLine: e.lastLine, lines: e.lines, clock: e.clock, lastClock: e.lastClock, maxLastSeenAgoSeconds: e.maxLastSeenAgoSeconds }),
          ),
        );
      }
    });
  }
});
