// The last line `pleg-doctor kubelet-journal` writes on stderr: what the read did, for the program that
// runs it. In a debug pod stdout and stderr end up in one log (the kubelet's container log has no stream
// split before 1.32's PodLogsQuerySplitStreams), so the line carries a prefix no journalctl line can start
// with (those start with a month, "-- " or the spaces of a continued message) and is written after the
// journal's last byte.

export const JOURNAL_SUMMARY_PREFIX = 'pleg-doctor-journal-summary ';

export interface JournalSummaryLine {
  entries: number;
  compressedNotRead: Partial<Record<'xz' | 'lz4' | 'zstd', number>>;
  truncated: boolean;
  timedOut: boolean;
  files: number;
  errors: string[];
}

export function formatJournalSummaryLine(s: JournalSummaryLine): string {
  const { entries, compressedNotRead, truncated, timedOut, files, errors } = s;
  return `${JOURNAL_SUMMARY_PREFIX}${JSON.stringify({ entries, compressedNotRead, truncated, timedOut, files, errors })}\n`;
}

/**
 * Splits a pod's log into the journal (every line before the summary) and the summary; undefined summary
 * when the log has none (the run died before its end). Lines the CLI's logger wrote on stderr (prefixed
 * "pleg-doctor:") are left out of the journal and returned apart.
 */
export function splitJournalLog(log: string): { journal: string; summary?: JournalSummaryLine; notes: string[] } {
  const lines = log.split('\n');
  const notes: string[] = [];
  const journal: string[] = [];
  let summary: JournalSummaryLine | undefined;
  for (const line of lines) {
    if (line.startsWith(JOURNAL_SUMMARY_PREFIX)) {
      try {
        summary = JSON.parse(line.slice(JOURNAL_SUMMARY_PREFIX.length)) as JournalSummaryLine;
      } catch {
        notes.push(line);
      }
    } else if (line.startsWith('pleg-doctor:')) notes.push(line);
    else journal.push(line);
  }
  const text = journal.join('\n');
  return { journal: text, ...(summary !== undefined ? { summary } : {}), notes };
}
