// Differential: `pleg-doctor logs`' segmented scan of a big file (logsWorker.ts: segments cut at line
// starts, each scanned and classified on its own, facts sequenced in segment order) against the full line
// reader on the whole text. Run in-process, where the main thread takes every segment (a worker runs the
// same SegmentScanner; test/unit/build/logsWorker.test.ts runs the bundled CLI with one). Segments of a
// few bytes, so lines, CRLF pairs and anchors straddle their borders and long lines cover several.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { FIXTURE_LINES, REAL_LINES } from './sampleLines';
import { afterAll, describe, expect, it } from 'vitest';
import { scanSegmented } from '../../../src/cli/commands/logsWorker';
import { LogSequencer, readKubeletLog, type ReaderFinding } from '../../../src/core/parse/logReader';
import { LINE_ANCHORS } from '../../../src/core/parse/logReaderBytes';


const line = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIXTURE_LINES) },
  { weight: 4, arbitrary: fc.constantFrom(...REAL_LINES) },
  { weight: 1, arbitrary: fc.constantFrom(...LINE_ANCHORS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }).map((s) => s.replace(/[\r\n]/gu, ' ')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('latin1').replace(/[\r\n]/gu, '')) },
  // Longer than many segments, an anchor near its end.
  { weight: 1, arbitrary: fc.nat(3000).map((n) => `${'x'.repeat(n)} PLEG is not healthy: pleg was last seen active 3m1s ago; threshold is 3m0s`) },
);

const tmp = mkdtempSync(join(tmpdir(), 'pleg-segments-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let files = 0;

async function viaSegments(data: Buffer, segmentBytes: number): Promise<{ findings: ReaderFinding[]; summary: unknown }> {
  const path = join(tmp, `log-${files++}`);
  writeFileSync(path, data);
  const fd = openSync(path, 'r');
  try {
    const findings: ReaderFinding[] = [];
    const seq = new LogSequencer((f) => findings.push(f));
    const lines = await scanSegmented(fd, data.length, seq, new AbortController().signal, { segmentBytes });
    expect(lines).toBeDefined();
    seq.countLines(lines as number);
    return { findings, summary: seq.finish() };
  } finally {
    closeSync(fd);
    rmSync(path);
  }
}

describe('segmented scan against the full reader', () => {
  test.prop([fc.array(line, { maxLength: 80 }), fc.integer({ min: 1, max: 700 }), fc.boolean(), fc.boolean()], { numRuns: 150 })(
    'random mixed logs, any segment size, LF or CRLF: the same findings (line numbers included) and summary',
    async (lines, segmentBytes, crlf, trailingNewline) => {
      const text = lines.join(crlf ? '\r\n' : '\n') + (trailingNewline && lines.length > 0 ? (crlf ? '\r\n' : '\n') : '');
      const data = Buffer.from(text, 'latin1');
      expect(await viaSegments(data, segmentBytes)).toEqual(readKubeletLog(data.toString('utf8')));
    },
  );

  it('the real recording in 64 KiB segments: its stretch and counts as read whole', async () => {
    const data = readFileSync(new URL('../../fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log', import.meta.url));
    const got = await viaSegments(data, 64 * 1024);
    expect(got).toEqual(readKubeletLog(data.toString('utf8')));
    expect((got.summary as { plegStretches: unknown[] }).plegStretches).toHaveLength(1);
  });

  it('an aborted scan stops and says so', async () => {
    const controller = new AbortController();
    controller.abort();
    const path = join(tmp, 'aborted');
    writeFileSync(path, REAL_LINES.join('\n'));
    const fd = openSync(path, 'r');
    try {
      expect(await scanSegmented(fd, readFileSync(path).length, new LogSequencer(() => undefined), controller.signal, { segmentBytes: 256 })).toBeUndefined();
    } finally {
      closeSync(fd);
    }
  });
});
