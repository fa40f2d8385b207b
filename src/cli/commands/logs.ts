// `pleg-doctor logs FILE|-`: streams a kubelet log (a file or standard input) through the log reader and
// prints one JSON line per finding, then one summary line. Streaming end to end: a 1 GB journal is never
// held in memory. Chunks go to the byte scanner (logReaderBytes.ts) rather than readline: it decodes only
// the lines that can matter, which is what keeps a 1 GB journal within a small factor of `grep -c`.

import { createReadStream } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { KubeletLogReader, DEFAULT_GAP_SECONDS, type LogReaderOptions, type ReaderFinding } from '../../core/parse/logReader';
import { LogByteScanner } from '../../core/parse/logReaderBytes';
import { parseGoDurationSeconds } from '../../core/util/goDuration';
import { parseCommandArgs } from '../args';
import { CliUsageError } from '../io';
import type { CliCommand, CliIo } from '../io';

export const LOGS_USAGE = `Usage: pleg-doctor logs [options] FILE|-

Reads a kubelet log (klog text, structured, contextual or JSON; plain, or behind journalctl short,
short-iso, short-precise, ISO or CRI prefixes; "-" reads standard input) and prints each finding as a
JSON line, then one line {"summary": {...}}. Line numbers are 1-based.

A PLEG stretch is a run of "PLEG is not healthy" lines not interrupted by a gap longer than --gap; the
same rule groups "Skipping pod synchronization" lines. A kubelet restart ends both.

Options:
  --gap SECONDS  gap that ends a stretch (a number of seconds or a Go duration such as 90s; default ${DEFAULT_GAP_SECONDS})
  --year YEAR    year of the first year-less klog/syslog timestamp (default 2024; only matters across Feb 29)
  -h, --help     show this help

Exit codes: 0 no PLEG stretch, 1 at least one PLEG stretch, 2 usage or unreadable input.
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

async function openFile(file: string, io: CliIo): Promise<Readable> {
  const path = isAbsolute(file) ? file : resolve(io.cwd, file);
  const stream = createReadStream(path, { signal: io.signal, highWaterMark: 1 << 20 });
  // Surface open errors (missing file, directory) before reading starts, with the cause named.
  await new Promise<void>((ok, fail) => {
    stream.once('readable', () => ok());
    stream.once('end', () => ok());
    stream.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') fail(new CliUsageError(`logs: ${file}: no such file`));
      else if (e.code === 'EISDIR') fail(new CliUsageError(`logs: ${file}: is a directory, expected a log file`));
      else if (e.code === 'EACCES') fail(new CliUsageError(`logs: ${file}: permission denied`));
      else fail(new CliUsageError(`logs: ${file}: ${e.message}`));
    });
  });
  return stream;
}

/** `openStdin` gives the real standard input as a stream; without it, `io.readStdin()` is used (tests). */
export function createLogsCommand(openStdin?: () => NodeJS.ReadableStream): CliCommand {
  return async (argv, io) => {
    const args = parseLogsArgs(argv);
    if (args === 'help') {
      io.stdout.write(LOGS_USAGE);
      return 0;
    }
    let input: NodeJS.ReadableStream;
    if (args.file !== '-') input = await openFile(args.file, io);
    else if (openStdin !== undefined) input = openStdin();
    else input = Readable.from([Buffer.from(await io.readStdin(), 'utf8')]);

    const reader = new KubeletLogReader((f) => io.stdout.write(`${JSON.stringify(findingJson(f))}\n`), args.options);
    const scanner = new LogByteScanner(reader);
    const onAbort = (): void => {
      (input as Partial<Readable>).destroy?.();
    };
    io.signal.addEventListener('abort', onAbort, { once: true });
    try {
      for await (const chunk of input) {
        if (io.signal.aborted) break;
        scanner.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array));
      }
      scanner.end();
    } catch (e) {
      if (io.signal.aborted) return 130;
      throw new CliUsageError(`logs: cannot read ${args.file === '-' ? 'standard input' : args.file}: ${(e as Error).message}`);
    } finally {
      io.signal.removeEventListener('abort', onAbort);
    }
    if (io.signal.aborted) return 130;
    const summary = reader.end();
    io.stdout.write(`${JSON.stringify({ summary })}\n`);
    return summary.plegStretches.length > 0 ? 1 : 0;
  };
}
