import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readKubeletLog } from '../../../src/core/parse/logReader';
import { AnalysisCancelled, CHUNK_LINES, DocumentAnalysis } from '../../../src/server/documentAnalysis';
import { hoverFor, summaryTitle, toCodeLenses, toDiagnostics, toFoldingRanges, toSymbols } from '../../../src/server/lspFeatures';

const REAL = readFileSync(new URL('../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url), 'utf8');
const live = { cancelled: false };

describe('DocumentAnalysis', () => {
  it('gives the same findings as the streaming reader', async () => {
    const a = new DocumentAnalysis();
    const r = await a.update(REAL, live);
    const ref = readKubeletLog(REAL);
    expect(r.summary.plegStretches).toEqual(ref.summary.plegStretches);
    expect(r.summary.skippedSyncStretches).toEqual(ref.summary.skippedSyncStretches);
    expect(r.findings.map((f) => f.line)).toEqual([...ref.findings.map((f) => f.line)].sort((x, y) => x - y));
  });

  it('an edit re-classifies only the changed lines and the stretches follow it', async () => {
    const a = new DocumentAnalysis();
    await a.update(REAL, live);
    const lines = REAL.split('\n');
    // Line 3748 (0-based 3747) is the last PLEG line; blank its message and the stretch ends at the one before.
    lines[3747] = 'I1122 03:05:41.587135   31657 kubelet.go:2273] "edited away"';
    const r = await a.update(lines.join('\n'), live);
    expect(a.lastReclassified).toBe(1);
    expect(r.summary.plegStretches[0]).toMatchObject({ firstLine: 3227, lastLine: 3739 });
    // Inserting lines shifts everything after them; the diff keeps the prefix and suffix.
    lines.splice(10, 0, 'a new line', 'another');
    const r2 = await a.update(lines.join('\n'), live);
    expect(a.lastReclassified).toBe(2);
    expect(r2.summary.plegStretches[0]).toMatchObject({ firstLine: 3229, lastLine: 3741 });
  });

  it('incremental LSP changes touch only their lines and match a full analysis of the edited text', async () => {
    const a = new DocumentAnalysis();
    await a.update(REAL, live);
    const lines = REAL.split('\n');
    // Delete lines 3740..3748 (0-based 3739..3747): the last two PLEG lines go.
    a.applyChange({ start: { line: 3739, character: 0 }, end: { line: 3748, character: 0 } }, '');
    lines.splice(3739, 9);
    // Type inside a line, then paste two lines in the middle of another.
    a.applyChange({ start: { line: 5, character: 3 }, end: { line: 5, character: 3 } }, 'typed');
    lines[5] = `${(lines[5] as string).slice(0, 3)}typed${(lines[5] as string).slice(3)}`;
    a.applyChange({ start: { line: 7, character: 10 }, end: { line: 7, character: 12 } }, 'A\nB\nC');
    const l7 = lines[7] as string;
    lines.splice(7, 1, `${l7.slice(0, 10)}A`, 'B', `C${l7.slice(12)}`);
    expect(a.lastReclassified).toBe(3);
    const r = a.resequence();
    expect(a.text()).toBe(lines.join('\n'));
    expect(r).toEqual(await new DocumentAnalysis().update(lines.join('\n'), live));
    // 3739 (1-based) is now the last PLEG line; the pasted lines moved it and the first one down by 2.
    expect(r.summary.plegStretches[0]).toMatchObject({ firstLine: 3229, lastLine: 3741 });
  });

  it('a cancelled update throws and leaves the previous state for the next diff', async () => {
    const a = new DocumentAnalysis();
    await a.update('x', live);
    const big = Array.from({ length: CHUNK_LINES * 3 }, (_, i) => `line ${i}`).join('\n');
    const token = { cancelled: false };
    const pending = a.update(big, token);
    token.cancelled = true;
    await expect(pending).rejects.toBeInstanceOf(AnalysisCancelled);
    expect(a.lineText(1)).toBeUndefined();
    await a.update(`${big}\nmore`, live);
    // Everything differs from the one-line "x" that the cancelled update left in place.
    expect(a.lastReclassified).toBe(CHUNK_LINES * 3 + 1);
  });
});

describe('LSP shapes', () => {
  const ref = readKubeletLog(REAL);
  const lines = REAL.split('\n');
  const text = (n: number): string | undefined => lines[n];

  it('a stretch is one diagnostic from its first to its last line', () => {
    const d = toDiagnostics(ref.findings, text).find((x) => x.code === 'pleg-stretch');
    expect(d?.range).toEqual({ start: { line: 3226, character: 0 }, end: { line: 3747, character: (lines[3747] as string).length } });
    expect(d?.severity).toBe(1);
  });

  it('symbols, folding and the summary lens', () => {
    const symbols = toSymbols(ref.findings, text);
    expect(symbols.find((s) => s.name.startsWith('03:03:46 PLEG unhealthy for 115 s'))?.detail).toBe('lines 3227–3748');
    expect(toFoldingRanges(ref.findings)).toEqual([
      { startLine: 3226, endLine: 3747, kind: 'region' },
      { startLine: 2941, endLine: 3747, kind: 'region' },
    ]);
    expect(summaryTitle(ref.findings, ref.summary)).toBe(
      'PLEG unhealthy 03:03:46 → 03:05:41: 1 stretch, 115 s in total, longest 115 s (line 3227) · 2 relist failures · 0 NotReady',
    );
    expect(toCodeLenses(ref.findings, ref.summary)[0]?.range.start.line).toBe(0);
  });

  it('hover inside a stretch says what it means and what to check next', () => {
    const h = hoverFor(ref.findings, 3300, text);
    const value = (h?.contents as { value: string }).value;
    expect(value).toContain('PLEG unhealthy for 115 s');
    expect(value).toContain('*Check next:*');
    expect(hoverFor(ref.findings, 5, text)).toBeNull();
  });
});
