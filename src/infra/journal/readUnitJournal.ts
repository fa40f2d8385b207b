// `journalctl -u UNIT --since … --until … -o short-precise` without journalctl: the journal files of the
// given directories (as `journalctl -D DIR` finds them) read by core/journal/unitJournal.ts, the output
// written to a sink as it comes. Bounded: a byte cap (whole entries only), a deadline and a signal, both
// looked at between entries and every few thousand entries walked.

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Compression } from '../../core/journal/journalFile';
import { processLocalTime, type LocalTime } from '../../core/journal/shortPrecise';
import { unitJournal, type JournalSource } from '../../core/journal/unitJournal';
import { FileByteSource } from './fileByteSource';

/** Where journald keeps the journal: persistent, then volatile (systemd-journald.service(8)). */
export const DEFAULT_JOURNAL_DIRS: readonly string[] = ['/var/log/journal', '/run/log/journal'];

export interface UnitJournalRead {
  dirs: readonly string[];
  unit: string;
  sinceMs: number;
  untilMs: number;
  maxBytes: number;
  deadlineMs: number;
  signal?: AbortSignal;
  localTime?: LocalTime;
}

export interface UnitJournalSummary {
  /** Entries written (their lines). */
  entries: number;
  /** Entries of the window whose MESSAGE journald compressed, by compression: not read. */
  compressedNotRead: Partial<Record<Compression, number>>;
  /** The byte cap stopped the output (after the last whole entry that fitted). */
  truncated: boolean;
  /** The deadline stopped the read. */
  timedOut: boolean;
  /** The signal stopped the read. */
  aborted: boolean;
  /** Journal files read. */
  files: number;
  /** Files (or directories) that could not be read, and why. */
  errors: string[];
}

/** A directory that is not there or cannot be read: the error names it. */
export class JournalDirError extends Error {
  override readonly name = 'JournalDirError';
}

/** sd-journal.c file_type_wanted: "*.journal" and "*.journal~" (a file journald set aside as unclean). */
function isJournalFile(name: string): boolean {
  return name.endsWith('.journal') || name.endsWith('.journal~');
}
/** sd-journal.c add_root_directory: subdirectories named by a machine ID (32 hex digits) are read too. */
const MACHINE_ID_DIR = /^[0-9a-f]{32}$/;

/**
 * The journal files under `dirs`, as `journalctl -D` finds them. A missing default directory is normal
 * (only one of /var/log/journal and /run/log/journal exists on most nodes); none at all is an error.
 */
export function journalFiles(dirs: readonly string[]): { files: string[]; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  let found = 0;
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') errors.push(`${dir}: ${(err as Error).message}`);
      continue;
    }
    found++;
    for (const name of names) {
      const path = join(dir, name);
      if (isJournalFile(name)) files.push(path);
      else if (MACHINE_ID_DIR.test(name)) {
        try {
          if (!statSync(path).isDirectory()) continue;
          for (const inner of readdirSync(path).sort()) if (isJournalFile(inner)) files.push(join(path, inner));
        } catch (err) {
          errors.push(`${path}: ${(err as Error).message}`);
        }
      }
    }
  }
  if (found === 0) throw new JournalDirError(`no journal directory could be read: ${dirs.join(', ')}${errors.length > 0 ? ` (${errors.join('; ')})` : ''}`);
  return { files, errors };
}

/** Reads the unit's journal for the window and writes it to `write`; resolves with what happened. */
export async function readUnitJournal(req: UnitJournalRead, write: (bytes: Uint8Array) => void): Promise<UnitJournalSummary> {
  const started = Date.now();
  const { files, errors } = journalFiles(req.dirs);
  const summary: UnitJournalSummary = { entries: 0, compressedNotRead: {}, truncated: false, timedOut: false, aborted: false, files: 0, errors };
  const sources: JournalSource[] = [];
  const opened: FileByteSource[] = [];
  try {
    for (const path of files) {
      try {
        const src = new FileByteSource(path);
        opened.push(src);
        sources.push({ name: path, src });
      } catch (err) {
        errors.push(`${path}: ${(err as Error).message}`);
      }
    }
    summary.files = sources.length;
    let written = 0;
    let sinceTurn = 0;
    const query = { unit: req.unit, sinceUsec: Math.max(0, req.sinceMs) * 1000, untilUsec: Math.max(0, req.untilMs) * 1000, localTime: req.localTime ?? processLocalTime };
    for (const out of unitJournal(sources, query)) {
      // The event loop gets a turn now and then, so an interrupt is seen during a long read.
      if (out.kind === 'progress' || ++sinceTurn >= 256) {
        sinceTurn = 0;
        await nextTurn();
      }
      if (req.signal?.aborted === true) {
        summary.aborted = true;
        break;
      }
      if (Date.now() - started > req.deadlineMs) {
        summary.timedOut = true;
        break;
      }
      switch (out.kind) {
        case 'progress':
          break;
        case 'file-error':
          errors.push(`${out.file}: ${out.message} (after ${out.entriesRead} entries)`);
          break;
        case 'compressed':
          summary.compressedNotRead[out.compression] = (summary.compressedNotRead[out.compression] ?? 0) + 1;
          break;
        case 'entry':
        case 'text':
          if (written + out.bytes.byteLength > req.maxBytes) {
            summary.truncated = true;
            return summary;
          }
          written += out.bytes.byteLength;
          write(out.bytes);
          if (out.kind === 'entry') summary.entries++;
          break;
      }
    }
    return summary;
  } finally {
    for (const src of opened) src.close();
  }
}

/** "3 entries of the window are compressed (zstd) and were not read", or undefined when none are. */
export function describeCompressed(counts: Partial<Record<Compression, number>>): string | undefined {
  const parts = Object.entries(counts).filter(([, n]) => (n ?? 0) > 0);
  if (parts.length === 0) return undefined;
  const total = parts.reduce((s, [, n]) => s + (n ?? 0), 0);
  return `${total} ${total === 1 ? 'entry of the window is' : 'entries of the window are'} compressed (${parts.map(([c, n]) => `${c}: ${n}`).join(', ')}) and ${total === 1 ? 'was' : 'were'} not read`;
}
