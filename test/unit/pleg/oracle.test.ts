// Conformance: every oracle trace replayed through the model, for kubelet 1.26 (stands for 1.26–1.31)
// and 1.32, compared with the rules in test/fixtures/pleg-oracle/README.md. One test per trace.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReplayKubelet } from '../../../src/core/pleg/replay';
import { replayTrace } from '../../../src/core/pleg/replay';
import { compareStep } from './oracleCompare';

const ROOT = join(__dirname, '../../fixtures/pleg-oracle');

interface OracleFile {
  trace: { config: { useCache?: boolean } };
  result: { steps: Record<string, unknown>[] };
}

for (const kubelet of ['1.26', '1.32'] as const satisfies readonly ReplayKubelet[]) {
  const dir = join(ROOT, `kubelet-${kubelet}`);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
  const tally = { passed: 0, failed: 0, skipped: new Map<string, number>() };

  describe(`PLEG oracle conformance, kubelet ${kubelet}`, () => {
    it('has the corpus', () => {
      expect(files.length).toBeGreaterThan(100);
    });

    for (const file of files) {
      const oracle = JSON.parse(readFileSync(join(dir, file), 'utf8')) as OracleFile;
      const panics = oracle.result.steps.some((s) => s.panic !== undefined);
      if (panics) {
        // The README: 1.32 without a cache panics; it is not a real configuration.
        const reason = oracle.trace.config.useCache === false ? 'not a real configuration (useCache:false panics in 1.32)' : 'kubelet panicked';
        tally.skipped.set(reason, (tally.skipped.get(reason) ?? 0) + 1);
        it.skip(`${file} — skipped: ${reason}`, () => undefined);
        continue;
      }
      it(file, () => {
        const actual = replayTrace(oracle, kubelet);
        expect(actual.steps).toHaveLength(oracle.result.steps.length);
        const problems: string[] = [];
        oracle.result.steps.forEach((expected, i) => {
          const got = actual.steps[i] as unknown as Record<string, unknown>;
          for (const p of compareStep(expected, got)) problems.push(`${file} step ${i} (${String(expected.op)}): ${p}`);
        });
        if (problems.length === 0) tally.passed++;
        else tally.failed++;
        expect(problems).toEqual([]);
      });
    }

    afterAll(() => {
      const total = tally.passed + tally.failed;
      const skipped = [...tally.skipped].map(([reason, n]) => `${n} skipped: ${reason}`).join('; ');
      console.log(`PLEG oracle kubelet ${kubelet}: ${tally.passed}/${total} passed${skipped ? ` (${skipped})` : ''}`);
    });
  });
}
