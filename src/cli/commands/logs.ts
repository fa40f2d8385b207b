// `pleg-doctor logs FILE|-`: streams a kubelet log (a file or standard input) through the log reader and
// prints one JSON line per finding, then one summary line. Streaming end to end: a 1 GB journal is never
// held in memory. Chunks go to the byte scanner (logReaderBytes.ts) rather than readline: it decodes only
// the lines that can matter, which is what keeps a 1 GB journal within a small factor of `grep -c`
// (bench/logs.ts measures it; one thread: a scan worker bought less than a fifth and was removed).

import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isAbsolute, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { KubeletLogReader, DEFAULT_GAP_SECONDS, type LogReaderOptions, type LogSummary, type ReaderFinding } from '../../core/parse/logReader';
import { LogByteScanner, type ChunkRead } from '../../core/parse/logReaderBytes';
import { parseGoDurationSeconds } from '../../core/util/goDuration';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import { OutputBatch } from './outputBatch';
import type { CliCommand, CliIo } from '../io';

export const LOGS_USAGE = `Usage: pleg-doctor logs [options] FILE|-
       pleg-doctor logs --node NAME --access debug-pod [--since TIME] [--until TIME] [--yes] [options]

Reads a kubelet log (klog text, structured, contextual or JSON; plain, behind journalctl short,
short-iso, short-precise, short-unix, ISO or CRI prefixes, or as journalctl -o json entries; "-" reads
standard input) and prints each finding as a JSON line, then one line {"summary": {...}}. Line numbers
are 1-based.

A PLEG stretch is a run of "PLEG is not healthy" lines not interrupted by a gap longer than --gap; the
same rule groups "Skipping pod synchronization" lines. A kubelet restart ends both.

Options:
  --gap SECONDS  gap that ends a stretch (a number of seconds or a Go duration such as 90s; default ${DEFAULT_GAP_SECONDS})
  --year YEAR    year of the first year-less klog/syslog timestamp (default 2024; only matters across Feb 29)
  -h, --help     show this help

A node's kubelet log through a debug pod (--access debug-pod), without SSH: a one-shot pod on the node
reads the kubelet unit's journal from journald's files, read-only, as \`journalctl -u kubelet -o
short-precise\` prints it (the pod runs \`pleg-doctor kubelet-journal\`; entries journald compressed are
counted, not read), and is deleted when its output is read (docs/node-access-debug-pod.md). The
findings and summary are as above; the summary line also has "access" and "journal" (entries,
compressedNotRead, truncated, timedOut, errors).
  --node NAME              the node (required)
  --access debug-pod       read it through a debug pod
  --since TIME, --until TIME  the window: @EPOCH-SECONDS or ISO 8601 with a zone (default: the last 30 min)
  --journal-dir DIR        journal directory on the node, mounted read-only (repeatable; default
                           /var/log/journal; a node with a volatile journal: /run/log/journal)
  --raw                    print the journal itself instead of the findings
  --yes                    create the pod without asking (needed when standard input is not a terminal)
  --image IMG              the agent image to run (default: the pleg-doctor-agent DaemonSet's in --namespace)
  --namespace NS           where the pod is created (default pleg-doctor)
  --deadline DURATION      the pod's activeDeadlineSeconds (default 2m, 30s to 1h)
  --max-bytes N            journal bytes the pod prints at most (default and at most 8388608)
  --context NAME           kubeconfig context (default: the kubeconfig's current-context, as kubectl)
  --kubeconfig FILE        read this kubeconfig (repeatable, merged) instead of KUBECONFIG's files or
                           ~/.kube/config

Exit codes: 0 no PLEG stretch, 1 at least one PLEG stretch (or, through a debug pod, the pod failed or
its deletion was not confirmed), 2 bad options or unreadable input (or a debug pod not confirmed),
130 interrupted (143 on SIGTERM through a debug pod, the pod deleted).
`;

/** `--node` or `--access` before any `--`: the node's log through a debug pod (debugPodLogs.ts), not a file. */
export function wantsNodeLog(argv: readonly string[]): boolean {
  for (const arg of argv) {
    if (arg === '--') return false;
    if (arg === '--node' || arg.startsWith('--node=') || arg === '--access' || arg.startsWith('--access=')) return true;
  }
  return false;
}

const SPEC = { command: 'logs', options: { gap: { type: 'string' }, year: { type: 'string' } }, positionals: true } as const;

interface LogsArgs {
  file: string;
  options: LogReaderOptions;
}

function parseGap(value: string): number {
  let seconds = Number(value);
  if (!/^\d+(?:\.\d+)?$/u.test(value)) {
    try {
      seconds = parseGoDurationSeconds(value);
    } catch {
      seconds = Number.NaN;
    }
  }
  if (!Number.isFinite(seconds) || seconds <= 0) throw new CliUsageError(`logs: --gap must be a positive number of seconds or a Go duration, got "${value}"`);
  return seconds;
}

function parseLogsArgs(argv: readonly string[]): LogsArgs | 'help' {
  const parsed = parseCommandArgs(argv, SPEC);
  if (parsed.help) return 'help';
  const { values, positionals } = parsed;
  const options: LogReaderOptions = {};
  if (values.gap !== undefined) options.gapSeconds = parseGap(values.gap);
  if (values.year !== undefined) {
    if (!/^\d{4}$/u.test(values.year)) throw new CliUsageError(`logs: --year must be a four-digit year, got "${values.year}"`);
    options.baseYear = Number(values.year);
  }
  if (positionals.length > 1) throw new CliUsageError('logs: give one FILE (or "-" for standard input)');
  const file = positionals[0];
  if (file === undefined) throw new CliUsageError('logs: missing FILE (use "-" for standard input)');
  return { file, options };
}

/** The JSON line for a finding: 1-based lines; stretches say firstLine/lastLine, others line. */
export function findingJson(f: ReaderFinding): Record<string, unknown> {
  const { line, lastLine, kind, ...rest } = f;
  const stretch = kind === 'pleg-stretch' || kind === 'skipped-sync-stretch';
  return stretch ? { kind, firstLine: line + 1, lastLine: lastLine + 1, ...rest } : { kind, line: line + 1, ...rest };
}

/** The cause of a failed open or read, named for the user. */
function fileError(file: string, e: NodeJS.ErrnoException): CliUsageError {
  if (e.code === 'ENOENT') return new CliUsageError(`logs: ${file}: no such file`);
  if (e.code === 'EISDIR') return new CliUsageError(`logs: ${file}: is a directory, expected a log file`);
  if (e.code === 'EACCES') return new CliUsageError(`logs: ${file}: permission denied`);
  return new CliUsageError(`logs: cannot read ${file}: ${e.message}`);
}

/** Opens FILE (relative to the command's working directory) for reading; an error names the file. */
async function openLog(file: string, io: CliIo): Promise<FileHandle> {
  try {
    return await open(isAbsolute(file) ? file : resolve(io.cwd, file), 'r');
  } catch (e) {
    throw fileError(file, e as NodeJS.ErrnoException);
  }
}

/**
 * A file's bytes, read by the scanner straight into its own memory (LogByteScanner.fill: the SIMD
 * kernel's input area, so no chunk is copied). A read stream would allocate a fresh buffer per chunk, and
 * on a VM that backs memory lazily touching a gigabyte of new pages cost more than the scan itself. The
 * reads are synchronous (an asynchronous read per chunk, a hand-off to the thread pool and back, cost
 * more than it saved), and every YIELD_EVERY_CHUNKS the event loop gets a turn, so an interrupt is seen
 * within a few megabytes of scanning.
 */
async function scanFile(file: string, io: CliIo, scanner: LogByteScanner, afterChunk: () => void): Promise<void> {
  const handle = await openLog(file, io);
  const read: ChunkRead = (target, offset, length) => {
    try {
      return readSync(handle.fd, target, offset, length, null);
    } catch (e) {
      throw fileError(file, e as NodeJS.ErrnoException);
    }
  };
  try {
    for (let chunk = 1; !io.signal.aborted; chunk++) {
      if (chunk % YIELD_EVERY_CHUNKS === 0) await nextTurn();
      if (scanner.fill(read) === 0) return;
      afterChunk();
    }
  } finally {
    await handle.close();
  }
}

const YIELD_EVERY_CHUNKS = 32;

/** Standard input: an interrupt destroys the stream, so a pipe that never writes does not hold the command. */
async function* streamChunks(input: NodeJS.ReadableStream, signal: AbortSignal): AsyncGenerator<Uint8Array> {
  const onAbort = (): void => {
    (input as Partial<Readable>).destroy?.();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const chunk of input) yield typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array);
  } catch (e) {
    if (!signal.aborted) throw new CliUsageError(`logs: cannot read standard input: ${(e as Error).message}`);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** `openStdin` gives the real standard input as a stream; without it, `io.readStdin()` is used (tests). */
export function createLogsCommand(openStdin?: () => NodeJS.ReadableStream): CliCommand {
  return async (argv, io) => {
    const args = parseLogsArgs(argv);
    if (args === 'help') {
      io.stdout.write(LOGS_USAGE);
      return 0;
    }
    const out = new OutputBatch(io, args.file === '-');
    let summary: LogSummary | undefined;
    const reader = new KubeletLogReader((f) => out.add(`${JSON.stringify(findingJson(f))}\n`), args.options);
    const scanner = new LogByteScanner(reader);
    const afterChunk = (): void => out.chunkDone();
    if (args.file !== '-') await scanFile(args.file, io, scanner, afterChunk);
    else {
      const input = openStdin !== undefined ? openStdin() : Readable.from([Buffer.from(await io.readStdin(), 'utf8')]);
      for await (const chunk of streamChunks(input, io.signal)) {
        // Checked between chunks: an interrupt stops the read within one chunk.
        if (io.signal.aborted) break;
        scanner.push(chunk);
        afterChunk();
      }
    }
    scanner.end();
    if (!io.signal.aborted) summary = reader.end();
    if (summary === undefined || io.signal.aborted) {
      out.flush();
      return 130;
    }
    out.flush();
    io.stdout.write(`${JSON.stringify({ summary })}\n`);
    return summary.plegStretches.length > 0 ? 1 : 0;
  };
}
