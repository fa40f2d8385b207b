// Real journal files for the tests, written by systemd's own writer: systemd-journal-remote reads entries
// in the journal export format (systemd docs/JOURNAL_EXPORT_FORMATS.md) on stdin and writes them with
// journal-file.c, the code journald uses, keeping each entry's __REALTIME_TIMESTAMP,
// __MONOTONIC_TIMESTAMP and _BOOT_ID. Debian package systemd-journal-remote (test/support/node-stack.sh
// install). SYSTEMD_JOURNAL_COMPACT=0 makes it write the pre-252 layout (64-bit offsets).

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const JOURNAL_REMOTE = '/lib/systemd/systemd-journal-remote';

export interface ExportEntry {
  realtimeUsec: number;
  monotonicUsec: number;
  bootId: string;
  fields: [string, string | Uint8Array][];
}

/** One entry in the export format: text fields as "K=V\n", others (a newline inside) as K\n<le64 size><bytes>\n. */
export function exportEntry(e: ExportEntry): Buffer {
  const parts: Buffer[] = [Buffer.from(`__REALTIME_TIMESTAMP=${e.realtimeUsec}\n__MONOTONIC_TIMESTAMP=${e.monotonicUsec}\n_BOOT_ID=${e.bootId}\n`)];
  for (const [k, v] of e.fields) {
    const bytes = typeof v === 'string' ? Buffer.from(v, 'utf8') : Buffer.from(v);
    if (bytes.includes(0x0a)) {
      const size = Buffer.alloc(8);
      size.writeBigUInt64LE(BigInt(bytes.byteLength));
      parts.push(Buffer.from(`${k}\n`), size, bytes, Buffer.from('\n'));
    } else parts.push(Buffer.from(`${k}=`), bytes, Buffer.from('\n'));
  }
  parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
}

/** Writes `entries` to a new journal file at `path` (which must not exist) with systemd's writer. */
export function writeJournal(path: string, entries: readonly ExportEntry[], options: { compact: boolean }): void {
  if (!existsSync(JOURNAL_REMOTE)) {
    throw new Error(`${JOURNAL_REMOTE} is missing: install the Debian package systemd-journal-remote (bash test/support/node-stack.sh install)`);
  }
  const r = spawnSync(JOURNAL_REMOTE, [`--output=${path}`, '-'], {
    input: Buffer.concat(entries.map(exportEntry)),
    env: { ...process.env, SYSTEMD_JOURNAL_COMPACT: options.compact ? '1' : '0' },
    timeout: 20_000,
  });
  if (r.status !== 0) throw new Error(`systemd-journal-remote failed (exit ${r.status}): ${r.stderr?.toString() ?? r.error?.message}`);
}

/** The real journalctl's output, in the given time zone. */
export function realJournalctl(args: readonly string[], tz: string): Buffer {
  const r = spawnSync('journalctl', [...args, '--no-pager'], { env: { ...process.env, TZ: tz, SYSTEMD_COLORS: '0' }, timeout: 20_000 });
  if (r.status !== 0) throw new Error(`journalctl ${args.join(' ')} failed (exit ${r.status}): ${r.stderr.toString()}`);
  return r.stdout;
}

/**
 * A real klog text log as the kubelet unit's journal entries: each line's own time (klog has no year: 2026,
 * UTC) as the entry's realtime, its pid as _PID, the line as MESSAGE, as journald stores the kubelet's stderr.
 */
export function kubeletLogEntries(text: string, hostname: string, bootId = '0123456789abcdef0123456789abcdef'): ExportEntry[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((line) => {
      const m = /^[IWEF](\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+(\d+) /.exec(line);
      if (m === null) throw new Error(`not a klog line: ${line}`);
      const [, mo, d, h, mi, s, us, pid] = m as unknown as string[];
      const usec = Date.UTC(2026, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) * 1000 + Number(us);
      return {
        realtimeUsec: usec,
        monotonicUsec: usec - 1_790_000_000_000_000,
        bootId,
        fields: [['_HOSTNAME', hostname], ['_SYSTEMD_UNIT', 'kubelet.service'], ['SYSLOG_IDENTIFIER', 'kubelet'], ['_COMM', 'kubelet'], ['_PID', pid as string], ['_UID', '0'], ['MESSAGE', line]],
      };
    });
}
