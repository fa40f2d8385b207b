// Differential: the byte scanner (the CLI's fast path, which decodes only lines holding an anchor) against
// the full line reader, on random logs mixing every line of the fixtures (all formats and prefixes),
// near-misses of each anchor, noise and broken bytes, cut into random chunks. Findings and summary must be
// identical, finding by finding. Both scan paths: the WebAssembly SIMD kernel and the JS key searches
// (its fallback where WebAssembly SIMD is missing).
import { fc, test } from '@fast-check/vitest';
import { FIXTURE_LINES, REAL_LINES } from '../../../support/sampleLines';
import { describe, expect } from 'vitest';
import { KubeletLogReader, readKubeletLog, type ReaderFinding } from '../../../../src/core/parse/logReader';
import { LINE_ANCHORS, LogByteScanner, type LogByteScannerOptions } from '../../../../src/core/parse/logReaderBytes';


/** Each anchor with one byte changed, or cut short: lines the scanner must skip exactly as the reader does. */
const NEAR_MISSES = LINE_ANCHORS.flatMap((a) => [`I1122 03:03:46.000000 1 x.go:1] "${a.slice(0, -1)}"`, `I1122 03:03:46.000000 1 x.go:1] "${a.slice(1)} ${a.toLowerCase()}"`]);

/**
 * "Container runtime" and what may follow it: the scanner's tail check must keep every line the reader
 * takes. (No lone \r: the line reader splits lines there, the byte scanner only at \n.)
 */
const RUNTIME_POLLS = fc
  .tuple(fc.constantFrom('', ' ', '  ', '\t', ' \x0b', '\x0c ', '\xa0', '"'), fc.constantFrom('sanity check failed', 'not ready', 'network not ready', 'network\tnot  ready', 'status', 'nota', 'ready', ''))
  .map(([ws, rest]) => `E1122 03:02:47.000000 1 kubelet.go:2891] "Container runtime${ws}${rest}" err="x"`);

const line = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FIXTURE_LINES) },
  { weight: 3, arbitrary: fc.constantFrom(...REAL_LINES) },
  { weight: 2, arbitrary: fc.constantFrom(...NEAR_MISSES) },
  { weight: 2, arbitrary: RUNTIME_POLLS },
  { weight: 2, arbitrary: fc.string({ maxLength: 80 }).map((s) => s.replace(/[\r\n]/gu, ' ')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('latin1').replace(/[\r\n]/gu, '')) },
);

function viaScanner(data: Buffer, cuts: number[], options: LogByteScannerOptions): { findings: ReaderFinding[]; summary: unknown } {
  const findings: ReaderFinding[] = [];
  const reader = new KubeletLogReader((f) => findings.push(f));
  const scanner = new LogByteScanner(reader, options);
  expect(scanner.usesSimd).toBe(options.simd !== false);
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    scanner.push(data.subarray(at, Math.max(at, c)));
    at = Math.max(at, c);
  }
  scanner.push(data.subarray(at));
  scanner.end();
  return { findings, summary: reader.end() };
}

describe.each([
  ['SIMD kernel', { simd: true }],
  ['JS key searches', { simd: false }],
] as const)('byte scanner (%s) against the full reader', (_name, options) => {
  test.prop([fc.array(line, { maxLength: 120 }), fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), fc.boolean()], { numRuns: 300 })(
    'random mixed logs, any chunking, LF or CRLF: the same findings and summary',
    (lines, cuts, crlf, trailingNewline) => {
      const text = lines.join(crlf ? '\r\n' : '\n') + (trailingNewline && lines.length > 0 ? '\n' : '');
      const data = Buffer.from(text, 'latin1');
      // The reader gets what the scanner decodes: the same bytes as UTF-8 (bad sequences become U+FFFD).
      const ref = readKubeletLog(data.toString('utf8'));
      expect(viaScanner(data, cuts.map((c) => c % (data.length + 1)), options)).toEqual(ref);
    },
  );
});
