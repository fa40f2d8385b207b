// The bounds and the failures of `pleg-doctor kubelet-journal` on real journal files (systemd's writer,
// test/support/journalRemote.ts): a byte cap that stops at a whole entry, a deadline, an interrupt, a file
// that is not a journal, a journal cut short (as a copy taken while journald writes can be), a directory
// that is not there. None of them is silent.

import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletJournalCommand } from '../../../../src/cli/commands/kubeletJournal';
import { splitJournalLog } from '../../../../src/core/journal/journalSummaryLine';
import { readUnitJournal } from '../../../../src/infra/journal/readUnitJournal';
import { isCliUsageError } from '../../../../src/cli/io';
import { realJournalctl, writeJournal, type ExportEntry } from '../../../support/journalRemote';
import { memoryIo } from '../../../support/memoryIo';

const T0 = Date.UTC(2026, 10, 28, 3, 20, 0) * 1000;
const entry = (i: number): ExportEntry => ({
  realtimeUsec: T0 + i * 1_000_000,
  monotonicUsec: 5_000_000 + i * 1_000_000,
  bootId: '0123456789abcdef0123456789abcdef',
  fields: [['_HOSTNAME', 'n1'], ['_SYSTEMD_UNIT', 'kubelet.service'], ['SYSLOG_IDENTIFIER', 'kubelet'], ['_PID', '77'], ['MESSAGE', `I1128 entry number ${i} ${'y'.repeat(100)}`]],
});

let dir: string;
const N = 3000;
const window = ['--since', `@${T0 / 1e6}`, '--until', `@${T0 / 1e6 + N}`];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-journal-limits-'));
  writeJournal(join(dir, 'source.journal'), Array.from({ length: N }, (_, i) => entry(i)), { compact: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function only(name: string, from = join(dir, 'source.journal')): string {
  const d = mkdtempSync(join(dir, 'case-'));
  copyFileSync(from, join(d, name));
  return d;
}

async function run(args: string[]): Promise<{ out: string; err: string; code: number }> {
  const io = memoryIo();
  const code = await kubeletJournalCommand(args, io);
  return { out: io.out(), err: io.err(), code };
}

describe('kubelet-journal bounds and failures', () => {
  it('stops at the byte cap after the last whole entry and says so', async () => {
    const r = await run([...window, '--journal-dir', only('system.journal'), '--max-bytes', '1000']);
    expect(r.out.length).toBeLessThanOrEqual(1000);
    expect(r.out.endsWith('\n')).toBe(true);
    expect(r.out.split('\n').filter((l) => l !== '').every((l) => / kubelet\[77\]: I1128 entry number \d+ y+$/.test(l))).toBe(true);
    const s = splitJournalLog(r.err).summary;
    expect(s?.truncated).toBe(true);
    expect(s?.entries).toBe(r.out.split('\n').length - 1);
    expect(r.err).toContain('output cut at 1000 bytes');
  });

  it('includes both ends of the window to the microsecond, as journalctl does, early or deep in the chain of entry arrays', async () => {
    const d = only('system.journal');
    // 3000 entries fill a chain of entry arrays: entry 5 is in the first, 2000 in a later one, reached by
    // skipping whole arrays and bisecting inside one.
    for (const at of [5, 2000]) {
      const args = ['--since', `@${T0 / 1e6 + at}`, '--until', `@${T0 / 1e6 + at + 2}`];
      const r = await run([...args, '--journal-dir', d]);
      expect(r.out.split('\n').filter((l) => l !== '').map((l) => /entry number (\d+)/.exec(l)?.[1])).toEqual([at, at + 1, at + 2].map(String));
      expect(r.out).toBe(realJournalctl(['-D', d, '-u', 'kubelet', '-o', 'short-precise', ...args], process.env['TZ'] ?? 'UTC').toString('utf8'));
    }
  });

  it('stops at the deadline and at an interrupt, and says which', async () => {
    const d = only('system.journal');
    const lines: Uint8Array[] = [];
    const late = await readUnitJournal({ dirs: [d], unit: 'kubelet', sinceMs: T0 / 1000, untilMs: T0 / 1000 + N * 1000, maxBytes: 1e9, deadlineMs: -1 }, (b) => lines.push(b));
    expect(late.timedOut).toBe(true);
    expect(lines).toHaveLength(0);
    const io = memoryIo();
    io.controller.abort(new Error('interrupted by SIGINT'));
    const code = await kubeletJournalCommand([...window, '--journal-dir', d], io);
    expect(code).toBe(130);
    expect(io.out()).toBe('');
  });

  it('names a file that is not a journal and reads the others (exit 1)', async () => {
    const d = only('system.journal');
    writeFileSync(join(d, 'notes.journal'), 'hello, not a journal at all; '.repeat(20));
    const r = await run([...window, '--journal-dir', d]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/notes\.journal: not a journal file \(signature "hello, n", expected "LPKSHHRH"\)/);
    expect(splitJournalLog(r.err).summary?.entries).toBe(N);
  });

  it('prints what a journal cut short holds up to the cut, and names where it broke', async () => {
    const d = only('system.journal');
    const path = join(d, 'system.journal');
    const bytes = readFileSync(path);
    // The writer lays out the hash tables first, then the objects; the file is grown in 8 MiB steps. Cut
    // half way between the first entry array (Header.entry_array_offset, +176) and the last byte written.
    const firstArray = Number(bytes.readBigUInt64LE(176));
    const used = bytes.findLastIndex((b) => b !== 0);
    expect(used).toBeGreaterThan(firstArray);
    truncateSync(path, Math.floor((firstArray + used) / 2));
    const r = await run([...window, '--journal-dir', d]);
    expect(r.code).toBe(1);
    const s = splitJournalLog(r.err).summary;
    expect(s?.errors.join('\n')).toMatch(/system\.journal: .*(runs|is) past the end of the file .* \(after \d+ entries\)/);
    expect(s?.entries).toBeGreaterThan(0);
    expect(s?.entries).toBeLessThan(N);
  });

  it('refuses a journal directory that is not there, naming it (exit 2)', async () => {
    const err = await run([...window, '--journal-dir', join(dir, 'nowhere')]).catch((e: unknown) => e);
    expect(isCliUsageError(err)).toBe(true);
    expect((err as Error).message).toContain(join(dir, 'nowhere'));
  });

  it('refuses a window it cannot read', async () => {
    for (const bad of [['--since', 'yesterday', '--until', '@1'], ['--since', '@5', '--until', '@4'], ['--since', '2026-11-28T03:20:00', '--until', '@4']]) {
      const err = await run([...bad, '--journal-dir', dir]).catch((e: unknown) => e);
      expect(isCliUsageError(err)).toBe(true);
    }
  });
});
