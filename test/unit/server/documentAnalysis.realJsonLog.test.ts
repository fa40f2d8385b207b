// The language server's path (DocumentAnalysis, then the LSP diagnostics) on the real kubelet v1.36.2 JSON
// log, bare, behind journalctl short-iso and as journalctl -o json entries: one diagnostic per PLEG
// stretch, spanning the window's first to last "PLEG is not healthy" line as jsonLogWindow.ts finds them.

import { describe, expect, it } from 'vitest';
import { DocumentAnalysis } from '../../../src/server/documentAnalysis';
import { toDiagnostics } from '../../../src/server/lspFeatures';
import { JSON_FIXTURES, expectedStretches, fixtureText, plegPoints } from '../../support/jsonLogWindow';

describe('language server diagnostics on a real JSON kubelet log', () => {
  for (const name of Object.values(JSON_FIXTURES)) {
    it(`${name}: one pleg-stretch diagnostic per stretch, first to last unhealthy line`, async () => {
      const text = fixtureText(name);
      const lines = text.split('\n');
      const expected = expectedStretches(plegPoints(text));
      const r = await new DocumentAnalysis().update(text, { cancelled: false });
      const diags = toDiagnostics(r.findings, (n) => lines[n]).filter((d) => d.code === 'pleg-stretch');
      expect(diags.map((d) => [d.range.start.line, d.range.end.line])).toEqual(expected.map((e) => [e.firstLine - 1, e.lastLine - 1]));
      for (const [i, d] of diags.entries()) {
        const e = expected[i];
        expect(d.message).toContain(`(${e?.clock} → ${e?.lastClock}, ${e?.lines} lines)`);
      }
    });
  }
});
