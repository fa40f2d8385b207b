// `pleg-doctor kubelet-journal --since T --until T [--journal-dir DIR]...`: what `journalctl -u kubelet
// -o short-precise --since T --until T` prints, read from journald's files without journalctl
// (src/infra/journal). It is what the debug pod of "Open Kubelet Log from Node" runs: the agent image has
// Node and nothing else. stdout carries the journal, byte for byte journalctl's; stderr ends with one
// summary line (core/journal/journalSummaryLine.ts). Not listed in `pleg-doctor --help`.

import { formatJournalSummaryLine, JOURNAL_SUMMARY_PREFIX } from '../../core/journal/journalSummaryLine';
import { DEFAULT_JOURNAL_DIRS, describeCompressed, JournalDirError, readUnitJournal } from '../../infra/journal/readUnitJournal';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliIo } from '../io';
import { positiveInt } from '../sshNodeAccess';
import { stderrLogger } from '../stderrLogger';

export const KUBELET_JOURNAL_USAGE = `Usage: pleg-doctor kubelet-journal --since TIME --until TIME [options]

Prints the kubelet unit's journal for the window as \`journalctl -u kubelet -o short-precise\` does, reading
journald's files itself (no journalctl needed: what the debug pod runs). TIME is @EPOCH-SECONDS (as
journalctl takes it) or an ISO 8601 time with its zone. Timestamps are printed in the process's time zone
(TZ). Entries whose message journald compressed (xz, lz4, zstd) are counted, not printed. The last line on
stderr is "${JOURNAL_SUMMARY_PREFIX}{json}": entries, compressedNotRead, truncated, timedOut, files, errors.

Options:
  --since TIME          start of the window (inclusive; required)
  --until TIME          end of the window (inclusive; required)
  --journal-dir DIR     a journal directory, as journalctl -D reads it (repeatable; default
                        ${DEFAULT_JOURNAL_DIRS.join(' and ')})
  --unit NAME           the unit (default kubelet)
  --max-bytes N         stop after this many bytes of output, at a whole entry (default 16777216)
  --timeout MS          stop reading after this long (default 60000)
  -h, --help            show this help

Exit codes: 0 read (the summary says whether it was cut), 1 some files could not be read, 2 bad options
or no journal directory, 130 interrupted.
`;

const OPTIONS = {
  since: { type: 'string' },
  until: { type: 'string' },
  'journal-dir': { type: 'string', multiple: true },
  unit: { type: 'string' },
  'max-bytes': { type: 'string' },
  timeout: { type: 'string' },
} as const;

/** "@1732406400" (journalctl's epoch form) or an ISO 8601 time with a zone; milliseconds since the epoch. */
export function parseJournalTime(command: string, option: string, value: string): number {
  const epoch = /^@(\d{1,12})$/.exec(value);
  if (epoch !== null) return Number(epoch[1]) * 1000;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) {
    const ms = Date.parse(value);
    if (Number.isFinite(ms)) return ms;
  }
  throw new CliUsageError(`${command}: --${option} must be @EPOCH-SECONDS or an ISO 8601 time with a zone, got ${JSON.stringify(value)}`);
}

export async function kubeletJournalCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs(argv, { command: 'kubelet-journal', options: OPTIONS });
  if (parsed.help) {
    io.stdout.write(KUBELET_JOURNAL_USAGE);
    return 0;
  }
  const v = parsed.values;
  if (v.since === undefined || v.until === undefined) throw new CliUsageError('kubelet-journal: --since and --until are required');
  const sinceMs = parseJournalTime('kubelet-journal', 'since', v.since);
  const untilMs = parseJournalTime('kubelet-journal', 'until', v.until);
  if (untilMs < sinceMs) throw new CliUsageError('kubelet-journal: --until is before --since');
  const unit = v.unit ?? 'kubelet';
  if (!/^[A-Za-z0-9:_.\\@-]{1,255}$/.test(unit)) throw new CliUsageError(`kubelet-journal: --unit ${JSON.stringify(unit)} is not a systemd unit name`);
  const maxBytes = v['max-bytes'] !== undefined ? positiveInt('kubelet-journal', '--max-bytes', v['max-bytes'], 1024 ** 3) : 16 * 1024 * 1024;
  const deadlineMs = v.timeout !== undefined ? positiveInt('kubelet-journal', '--timeout', v.timeout, 3_600_000) : 60_000;
  const logger = stderrLogger(io, 'kubelet-journal');
  let summary;
  try {
    summary = await readUnitJournal({ dirs: v['journal-dir'] ?? DEFAULT_JOURNAL_DIRS, unit, sinceMs, untilMs, maxBytes, deadlineMs, signal: io.signal }, (bytes) => io.stdout.write(bytes));
  } catch (err) {
    if (err instanceof JournalDirError) throw new CliUsageError(`kubelet-journal: ${err.message}`);
    throw err;
  }
  for (const e of summary.errors) logger.warn(e);
  const compressed = describeCompressed(summary.compressedNotRead);
  if (compressed !== undefined) logger.warn(compressed);
  if (summary.truncated) logger.warn(`output cut at ${maxBytes} bytes, after the last whole entry`);
  if (summary.timedOut) logger.warn(`stopped at the ${deadlineMs} ms deadline`);
  io.stderr.write(formatJournalSummaryLine(summary));
  if (summary.aborted) return 130;
  return summary.errors.length > 0 ? 1 : 0;
}
