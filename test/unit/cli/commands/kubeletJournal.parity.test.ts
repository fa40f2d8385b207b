// `pleg-doctor kubelet-journal` held byte for byte to the real `journalctl -D DIR -u kubelet -o
// short-precise --since --until` (systemd 252, Debian 12) on journal files written by systemd's own writer
// (test/support/journalRemote.ts): a real kubelet log of a PLEG fault (k8s 1.36 with containerd 2.3, test/fixtures/logs/observed-1.36-containerd2.3-fault.log, a copy of
// shared/k8s-current/observed/kubelet-pleg-fault-containerd2.3.log) as the kubelet unit's MESSAGE fields,
// interleaved with containerd's entries that must not appear, systemd's own lines about the unit, a
// second boot, and the messages output_short rewrites (a tab, a colour, a control character, several lines).
// One file is compact (systemd 252+), one is not; the two are merged by time. Entries whose MESSAGE the
// writer compressed (zstd, above 512 bytes) are the only difference: counted, never printed.

import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeletJournalCommand } from '../../../../src/cli/commands/kubeletJournal';
import { JOURNAL_SUMMARY_PREFIX, splitJournalLog } from '../../../../src/core/journal/journalSummaryLine';
import { kubeletLogEntries, realJournalctl, writeJournal, type ExportEntry } from '../../../support/journalRemote';
import { memoryIo } from '../../../support/memoryIo';

const FIXTURE = join(__dirname, '../../../fixtures/logs/observed-1.36-containerd2.3-fault.log');
const BOOT_A = '0123456789abcdef0123456789abcdef';
const BOOT_B = 'fedcba9876543210fedcba9876543210';
const MACHINE = '3d1219c7c4c5404aaa1f6d2a48adfda4';
/** The writer's default compression threshold (journal-file.c DEFAULT_COMPRESS_THRESHOLD): 512 bytes of payload. */
const COMPRESS_AT = 512;

/** Deterministic bytes without structure: SHA-256 of a counter, chained. */
function incompressible(n: number): Uint8Array {
  const out: Buffer[] = [];
  for (let i = 0; out.length * 32 < n; i++) out.push(createHash('sha256').update(String(i)).digest());
  return Buffer.concat(out).subarray(0, n);
}

const kubelet = (usec: number, pid: string, message: string | Uint8Array, boot = BOOT_A, extra: [string, string][] = []): ExportEntry => ({
  realtimeUsec: usec,
  monotonicUsec: usec - 1_790_000_000_000_000,
  bootId: boot,
  fields: [['_HOSTNAME', 'realk8s-node'], ['_SYSTEMD_UNIT', 'kubelet.service'], ['SYSLOG_IDENTIFIER', 'kubelet'], ['_COMM', 'kubelet'], ['_PID', pid], ['_UID', '0'], ...extra, ['MESSAGE', message]],
});
const other = (usec: number, unit: string, ident: string, pid: string, message: string, extra: [string, string][] = []): ExportEntry => ({
  realtimeUsec: usec,
  monotonicUsec: usec - 1_790_000_000_000_000,
  bootId: BOOT_A,
  fields: [['_HOSTNAME', 'realk8s-node'], ['_SYSTEMD_UNIT', unit], ['SYSLOG_IDENTIFIER', ident], ['_PID', pid], ...extra, ['MESSAGE', message]],
});

let dir: string;
let lines: string[];
let first: number;
let last: number;
let compressedMessages: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pleg-journal-'));
  const text = readFileSync(FIXTURE, 'utf8');
  lines = text.split('\n').filter((l) => l !== '');
  const kubeletEntries = kubeletLogEntries(text, 'realk8s-node');
  first = kubeletEntries[0]?.realtimeUsec as number;
  last = kubeletEntries[kubeletEntries.length - 1]?.realtimeUsec as number;
  const mid = kubeletEntries[40]?.realtimeUsec as number;
  const pid = kubeletEntries[0]?.fields.find(([k]) => k === '_PID')?.[1] as string;
  const special: ExportEntry[] = [
    // PID 1 about the unit (add_matches_for_unit's third alternative), without a _SYSTEMD_UNIT of its own.
    { realtimeUsec: first - 2_000_000, monotonicUsec: first - 2_000_000 - 1_790_000_000_000_000, bootId: BOOT_A, fields: [['_HOSTNAME', 'realk8s-node'], ['_PID', '1'], ['SYSLOG_IDENTIFIER', 'systemd'], ['UNIT', 'kubelet.service'], ['MESSAGE', 'Started kubelet.service - kubelet: The Kubernetes Node Agent.']] },
    kubelet(first - 1_500_000, pid, 'I1128 tab\there, colour \u001b[31mred\u001b[0m end'),
    kubelet(first - 1_400_000, pid, 'control \u0001 char'),
    kubelet(first - 1_300_000, pid, 'first line\nsecond line\n\nfourth line\n'),
    kubelet(first - 1_200_000, pid, 'sent at its own time', BOOT_A, [['_SOURCE_REALTIME_TIMESTAMP', String(first - 9_000_000)]]),
    kubelet(first - 1_100_000, pid, `a long message ${'x'.repeat(2000)}`),
    // Bytes that do not compress (the writer keeps a payload uncompressed when compressing does not shrink
    // it) and are not UTF-8: a blob above 1 KiB, whose size format_bytes prints with a decimal.
    kubelet(first - 1_050_000, pid, incompressible(1536)),
    // A root daemon about the unit (the fourth alternative) and the neighbours that must not show.
    other(mid + 1, 'containerd.service', 'containerd', '800', 'time="2026-11-28T03:20:30Z" level=info msg="not the kubelet"'),
    other(mid + 2, 'systemd-logind.service', 'systemd-logind', '600', 'about the kubelet', [['_UID', '0'], ['OBJECT_SYSTEMD_UNIT', 'kubelet.service']]),
    other(mid + 3, 'cron.service', 'CRON', '700', 'not root about it', [['_UID', '1000'], ['OBJECT_SYSTEMD_UNIT', 'kubelet.service']]),
    kubelet(last + 5_000_000, '4242', 'I1128 after the reboot', BOOT_B),
  ];
  compressedMessages = [...lines, ...special.map((e) => e.fields.find(([k]) => k === 'MESSAGE')?.[1])].filter((m): m is string => typeof m === 'string' && Buffer.byteLength(`MESSAGE=${m}`) >= COMPRESS_AT);
  const all = [...kubeletEntries, ...special];
  // Two files, as journald's rotation leaves them: the older half compact, the newer half not.
  const byTime = [...all].sort((a, b) => a.realtimeUsec - b.realtimeUsec);
  const half = Math.floor(byTime.length / 2);
  mkdirSync(join(dir, MACHINE));
  writeJournal(join(dir, MACHINE, 'system@0001-compact.journal'), byTime.slice(0, half), { compact: true });
  writeJournal(join(dir, MACHINE, 'system.journal'), byTime.slice(half), { compact: false });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ours(since: number, until: number, tz: string): Promise<{ out: string; err: string; code: number }> {
  const saved = process.env['TZ'];
  process.env['TZ'] = tz;
  try {
    const io = memoryIo();
    const code = await kubeletJournalCommand(['--since', `@${since}`, '--until', `@${until}`, '--journal-dir', dir], io);
    return { out: io.out(), err: io.err(), code };
  } finally {
    if (saved === undefined) delete process.env['TZ'];
    else process.env['TZ'] = saved;
  }
}

/** journalctl's output without the entries whose message is compressed (ours counts them instead). */
function withoutCompressed(text: string): string {
  return text
    .split('\n')
    .filter((l) => !compressedMessages.some((m) => l.endsWith(`: ${m}`)))
    .join('\n');
}

describe('kubelet-journal against the real journalctl', () => {
  it('holds the whole window byte for byte, but for the compressed entries, which it counts', async () => {
    const since = Math.floor(first / 1e6) - 10;
    const until = Math.ceil(last / 1e6) + 10;
    const real = realJournalctl(['-D', dir, '-u', 'kubelet', '-o', 'short-precise', '--since', `@${since}`, '--until', `@${until}`], 'UTC').toString('utf8');
    const r = await ours(since, until, 'UTC');
    expect(compressedMessages.length).toBeGreaterThanOrEqual(2);
    expect(r.out).toBe(withoutCompressed(real));
    expect(real).toContain('-- Boot fedcba9876543210fedcba9876543210 --');
    expect(r.out).toContain('kubelet[12159]: [1.5K blob data]\n');
    expect(r.out).toContain('systemd[1]: Started kubelet.service');
    expect(r.out).toContain('systemd-logind[600]: about the kubelet');
    expect(r.out).not.toContain('not the kubelet');
    expect(r.out).not.toContain('not root about it');
    const summary = splitJournalLog(r.err).summary;
    expect(summary?.compressedNotRead).toEqual({ zstd: compressedMessages.length });
    expect(summary?.entries).toBe(real.split('\n').filter((l) => /^[A-Z][a-z]{2} \d\d /.test(l)).length - compressedMessages.length);
    expect(summary?.files).toBe(2);
    expect(r.err).toContain(`${compressedMessages.length} entries of the window are compressed (zstd: ${compressedMessages.length}) and were not read`);
    expect(r.err.trimEnd().split('\n').pop()?.startsWith(JOURNAL_SUMMARY_PREFIX)).toBe(true);
    expect(r.code).toBe(0);
  });

  it('holds a window inside the fault (inclusive ends, whole seconds) in another time zone', async () => {
    const since = Math.floor(first / 1e6) + 3;
    const until = since + 20;
    const real = realJournalctl(['-D', dir, '-u', 'kubelet', '-o', 'short-precise', '--since', `@${since}`, '--until', `@${until}`], 'Asia/Kolkata').toString('utf8');
    const r = await ours(since, until, 'Asia/Kolkata');
    expect(real.split('\n').length).toBeGreaterThan(5);
    expect(r.out).toBe(withoutCompressed(real));
  });

  it('prints "-- No entries --" for a window without the unit, as journalctl does', async () => {
    const since = Math.floor(last / 1e6) + 100;
    const real = realJournalctl(['-D', dir, '-u', 'kubelet', '-o', 'short-precise', '--since', `@${since}`, '--until', `@${since + 60}`], 'UTC').toString('utf8');
    const r = await ours(since, since + 60, 'UTC');
    expect(real).toBe('-- No entries --\n');
    expect(r.out).toBe(real);
    expect(splitJournalLog(r.err).summary?.entries).toBe(0);
  });
});
