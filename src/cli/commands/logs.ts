// `pleg-doctor logs FILE|-`: streams a kubelet log (a file or standard input) through the log reader and
// prints one JSON line per finding, then one summary line. Streaming end to end: a 1 GB journal is never
// held in memory. Chunks go to the byte scanner (logReaderBytes.ts) rather than readline: it decodes only
// the lines that can matter, which is what keeps a 1 GB journal within a small factor of `grep -c`. A file
// over WORKER_MIN_BYTES is read in segments by this thread and a worker thread at once (logsWorker.ts).

import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isAbsolute, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { KubeletLogReader, LogSequencer, DEFAULT_GAP_SECONDS, type LogReaderOptions, type LogSummary, type ReaderFinding } from '../../core/parse/logReader';
import { LogByteScanner } from '../../core/parse/logReaderBytes';
import { parseGoDurationSeconds } from '../../core/util/goDuration';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import { logsWorkerAvailable, scanSegmented } from './logsWorker';
import { OutputBatch } from './outputBatch';
import type { CliCommand, CliIo } from '../io';

export const LOGS_USAGE = `Usage: pleg-doctor logs [options] FILE|-

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

Exit codes: 0 no PLEG stretch, 1 at least one PLEG stretch, 2 bad options or unreadable input,
130 interrupted.
`;

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
 * A file's bytes, read into one buffer that is reused for every chunk: the scanner copies what it keeps,
 * so each chunk is consumed before the next read overwrites it. A read stream would allocate a fresh
 * buffer per chunk, and on a VM that backs memory lazily, touching a gigabyte of new pages cost more than
 * the scan itself (1 GB journal: 3.2 s with a stream). 256 KB stays in the CPU's cache while the scanner
 * makes its passes over it. The reads are synchronous (an asynchronous read per chunk, a hand-off to the
 * thread pool and back, added 0.4 s per GB), and every YIELD_EVERY_CHUNKS the event loop gets a turn, so
 * an interrupt is seen within about 20 ms (8 MB of scanning).
 */
async function* fileChunks(file: string, io: CliIo): AsyncGenerator<Uint8Array> {
  const handle = await openLog(file, io);
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (let chunk = 1; ; chunk++) {
      if (chunk % YIELD_EVERY_CHUNKS === 0) await nextTurn();
      let bytesRead: number;
      try {
        bytesRead = readSync(handle.fd, buffer, 0, buffer.length, null);
      } catch (e) {
        throw fileError(file, e as NodeJS.ErrnoException);
      }
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/**
 * A file this big is read in segments by this thread and a worker thread at once (logsWorker.ts). The
 * worker starts scanning 130–200 ms after this thread does (measured on the 2-vCPU machine this is
 * tuned for); this thread is busy with the first segments meanwhile, so a smaller file would lose
 * nothing but gain little.
 */
const WORKER_MIN_BYTES = 32 * 1024 * 1024;

/**
 * A big file, scanned and classified in segments on two threads; false (nothing read) when the file is
 * small or no worker can start (running from source). Otherwise the summary, or undefined on abort.
 */
async function scannedInSegments(file: string, io: CliIo, options: LogReaderOptions, out: OutputBatch): Promise<false | LogSummary | undefined> {
  if (!logsWorkerAvailable()) return false;
  const handle = await openLog(file, io);
  try {
    const { size } = await handle.stat();
    if (size < WORKER_MIN_BYTES) return false;
    const seq = new LogSequencer((f) => out.add(`${JSON.stringify(findingJson(f))}\n`), options);
    const lines = await scanSegmented(handle.fd, size, seq, io.signal, { afterSegment: () => out.chunkDone() });
    if (lines === undefined) return undefined;
    seq.countLines(lines);
    return seq.finish();
  } catch (e) {
    throw 'code' in (e as object) ? fileError(file, e as NodeJS.ErrnoException) : e;
  } finally {
    await handle.close();
  }
}

const READ_CHUNK_BYTES = 256 * 1024;
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
    const segmented = args.file !== '-' ? await scannedInSegments(args.file, io, args.options, out) : false;
    if (segmented !== false) summary = segmented;
    else {
      let chunks: AsyncGenerator<Uint8Array>;
      if (args.file !== '-') chunks = fileChunks(args.file, io);
      else if (openStdin !== undefined) chunks = streamChunks(openStdin(), io.signal);
      else chunks = streamChunks(Readable.from([Buffer.from(await io.readStdin(), 'utf8')]), io.signal);
      const reader = new KubeletLogReader((f) => out.add(`${JSON.stringify(findingJson(f))}\n`), args.options);
      const scanner = new LogByteScanner(reader);
      for await (const chunk of chunks) {
        // Checked between chunks: an interrupt stops the read within one chunk (a quarter of a megabyte).
        if (io.signal.aborted) break;
        scanner.push(chunk);
        out.chunkDone();
      }
      scanner.end();
      if (!io.signal.aborted) summary = reader.end();
    }
    if (summary === undefined || io.signal.aborted) {
      out.flush();
      return 130;
    }
    out.flush();
    io.stdout.write(`${JSON.stringify({ summary })}\n`);
    return summary.plegStretches.length > 0 ? 1 : 0;
  };
}
