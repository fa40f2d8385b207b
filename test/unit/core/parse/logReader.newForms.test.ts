// Forms of kubelet log the reader was not built against, written by hand from docs/kubelet-messages.md: a
// traditional /var/log/syslog (space-padded day, no sub-seconds) around glog 1.12 lines with another
// daemon and the kernel interleaved; structured 1.28 lines behind short-precise with CRLF line
// ends, where the first unhealthy line is the "Node became not ready" condition, not a skip line.
// Every stretch's first and last line (1-based) and duration were worked out from the timestamps by hand;
// each file is read both as text and through the CLI's byte scanner, in uneven chunks. Beside them, a real
// kubelet 1.36 JSON log behind the journalctl short-iso prefix (derived from the capture, see the folder's
// README), with its nested Ready condition and errCauses arrays.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KubeletLogReader, readKubeletLog, type LogSummary, type ReaderFinding } from '../../../../src/core/parse/logReader';
import { LogByteScanner } from '../../../../src/core/parse/logReaderBytes';
import { JSON_FIXTURES, expectedStretches, fixtureText, plegPoints } from '../../../support/jsonLogWindow';

const bytes = (name: string): Buffer => readFileSync(new URL(`../../../fixtures/logs/${name}`, import.meta.url));

function viaScanner(data: Buffer, chunk: number): { findings: ReaderFinding[]; summary: LogSummary } {
  const findings: ReaderFinding[] = [];
  const reader = new KubeletLogReader((f) => findings.push(f));
  const scanner = new LogByteScanner(reader);
  for (let at = 0; at < data.length; at += chunk) scanner.push(data.subarray(at, at + chunk));
  scanner.end();
  return { findings, summary: reader.end() };
}

const CASES: Array<[string, Partial<LogSummary>, Array<[string, number]>]> = [
  [
    'glog-1.12-syslog.log',
    {
      // 5 → 8 is 60 s, 8 → 9 exactly 60 s (a gap must be longer than 60 s), 9 → 10 is 90 s; the
      // "Node became not ready" line 6 carries R1 in its condition and belongs to the first stretch.
      plegStretches: [
        { firstLine: 5, lastLine: 9, durationSeconds: 120, maxLastSeenAgoSeconds: 301.25 },
        { firstLine: 10, lastLine: 10, durationSeconds: 0, maxLastSeenAgoSeconds: 391.25 },
      ],
      skippedSyncStretches: [
        { firstLine: 5, lastLine: 9, durationSeconds: 120, reasons: ['pleg-stale'] },
        { firstLine: 10, lastLine: 10, durationSeconds: 0, reasons: ['pleg-stale'] },
        { firstLine: 12, lastLine: 12, durationSeconds: 0, reasons: ['runtime-status-pending', 'pleg-never'] },
      ],
      relistFailures: 1,
      notReadyTransitions: 1,
      readyTransitions: 1,
      kubeletRestarts: 1,
      lines: 13,
    },
    [['kubelet-start', 2], ['kubelet-restart', 11], ['pleg-never', 12]],
  ],
  [
    JSON_FIXTURES.journal,
    {
      // The real kubelet 1.36 JSON capture behind the journalctl short-iso prefix (deriveJournal.mjs): each
      // line is timed by its own ts (ms), not the prefix's whole second; the stretch is worked out from the
      // text (jsonLogWindow.ts), the counts as for the bare capture in logReader.test.ts.
      plegStretches: expectedStretches(plegPoints(fixtureText(JSON_FIXTURES.journal))).map(({ firstLine, lastLine, durationSeconds, maxLastSeenAgoSeconds }) => ({
        firstLine,
        lastLine,
        durationSeconds,
        maxLastSeenAgoSeconds,
      })),
      notReadyTransitions: 1,
      readyTransitions: 2,
      kubeletRestarts: 0,
      lines: fixtureText(JSON_FIXTURES.journal).trimEnd().split('\n').length,
    },
    [['kubelet-start', fixtureText(JSON_FIXTURES.journal).split('\n').findIndex((l) => l.includes('"msg":"Kubelet version"')) + 1]],
  ],
  [
    'structured-1.28-short-precise-crlf.log',
    {
      // 03:03:46.5 (line 3, the Ready condition) → 03:04:45.25 (line 6) is 58.75 s; the SyncLoop (PLEG)
      // line 5 is activity, not an unhealthy line; line 8 is 25 minutes later.
      plegStretches: [
        { firstLine: 3, lastLine: 6, durationSeconds: 58.75, maxLastSeenAgoSeconds: 240.819 },
        { firstLine: 8, lastLine: 8, durationSeconds: 0, maxLastSeenAgoSeconds: 185 },
      ],
      skippedSyncStretches: [
        { firstLine: 4, lastLine: 6, durationSeconds: 58.25, reasons: ['pleg-stale'] },
        { firstLine: 8, lastLine: 8, durationSeconds: 0, reasons: ['pleg-stale'] },
      ],
      relistFailures: 1,
      notReadyTransitions: 1,
      readyTransitions: 1,
      lines: 8,
    },
    [['kubelet-start', 1]],
  ],
];

describe('log forms the reader was not built against', () => {
  for (const [name, expected, singles] of CASES) {
    it(`${name}: every stretch with its first and last line, as text and through the byte scanner`, () => {
      const data = bytes(name);
      const text = readKubeletLog(data.toString('utf8'));
      expect(text.summary).toMatchObject(expected);
      for (const [kind, line] of singles) expect(text.findings.some((f) => f.kind === kind && f.line + 1 === line), `${kind} on line ${line}`).toBe(true);
      for (const chunk of [7, 64, 1 << 20]) expect(viaScanner(data, chunk)).toEqual(text);
    });
  }

  it('reads the kubelet version of every start line form', () => {
    const versions = (name: string): Array<string | undefined> => readKubeletLog(bytes(name).toString('utf8')).findings.filter((f) => f.kind === 'kubelet-start' || f.kind === 'kubelet-restart').map((f) => f.version);
    expect(versions('glog-1.12-syslog.log')).toEqual(['v1.12.10', 'v1.12.10']);
    expect(versions(JSON_FIXTURES.journal)).toEqual(['v1.36.2']);
    expect(versions('structured-1.28-short-precise-crlf.log')).toEqual(['v1.28.9']);
  });
});
