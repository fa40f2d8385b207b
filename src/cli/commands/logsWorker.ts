// `pleg-doctor logs` on a big file, on every core: the file is cut into segments at line starts, and the
// main thread and a worker thread each take the next unclaimed segment and scan it (the byte scanner:
// newline count and anchor scan), keeping the few lines that hold an anchor as bytes (segmentLines.ts).
// The main thread then classifies those lines (lineShapeMemo.ts, stateless) and feeds the stateful pass
// (LogSequencer: clock, restarts, stretches) segment by segment in order, the line numbers moved by the
// lines of the segments before. So the output is the one-thread output, whichever thread took which
// segment. Classifying on one thread only pays the classifier's warm-up once; the worker, which starts
// later, has the scan alone, and the main thread scans whenever it has nothing to sequence.
//
// The worker runs dist/logsScanWorker.js (src/cli/logsScanWorkerMain.ts), which the bundled CLI finds
// beside itself, so only the bundled entry can start one: from source (tests, tsx) the same segments are
// all scanned on the main thread.

import { readSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel, Worker, parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { LineShapeMemo } from '../../core/parse/lineShapeMemo';
import type { LogSequencer } from '../../core/parse/logReader';
import { LogByteScanner } from '../../core/parse/logReaderBytes';
import { LineCollector, newLineBuffers, type LineBuffers, type SegmentLines } from './segmentLines';

export const LOGS_SCAN_TASK = 'pleg-doctor/logs-scan';

/** The worker's bundle, beside dist/cli.js (esbuild.mjs cliTargets). */
export const LOGS_SCAN_WORKER_BUNDLE = 'logsScanWorker.js';

/** Segments this size: small enough that the two threads finish together, big enough that a hand-over is rare. */
export const SEGMENT_BYTES = 4 * 1024 * 1024;
/**
 * Segments are claimed at most this far ahead of the one the main thread sequences next, so the lines
 * waiting to be sequenced stay a few segments' worth (memory flat) whatever the file's size. 16 and 32
 * measured no faster on the 1 GB journal.
 */
const AHEAD = 8;

/** Int32 slots of the shared flow array. */
const NEXT = 0;
const SEQUENCED = 1;
const STOP = 2;

export interface LogsScanRequest {
  task: typeof LOGS_SCAN_TASK;
  /** Opened by the main thread (which reports open errors and closes it); threads share descriptors. */
  fd: number;
  size: number;
  segmentBytes: number;
  /** Int32 [NEXT]: next segment to claim; [SEQUENCED]: segments sequenced; [STOP]: 1 when the main thread gave up. */
  flow: SharedArrayBuffer;
  /** Where the main thread sends back the buffers of the worker's segments once it has read them. */
  recycled: MessagePort;
}

type WorkerMessage = { segment: SegmentLines } | { done: true } | { error: { code?: string; message: string } };

/** A posted segment's arrays arrive as plain Uint8Array: the bytes are wrapped again, without a copy. */
function received(s: SegmentLines): SegmentLines {
  const b = s.bytes as Uint8Array;
  return { ...s, bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
}

const transferList = (b: LineBuffers): ArrayBuffer[] => [b.at.buffer as ArrayBuffer, b.spans.buffer as ArrayBuffer, b.bytes.buffer as ArrayBuffer];

let workerScript: string | undefined;

/** Set by the bundled entry (the worker bundle beside it): the file a scan worker runs. */
export function setLogsWorkerScript(path: string): void {
  workerScript = path;
}

export function logsWorkerAvailable(): boolean {
  return workerScript !== undefined;
}

export function isLogsScanRequest(data: unknown): data is LogsScanRequest {
  return typeof data === 'object' && data !== null && (data as { task?: unknown }).task === LOGS_SCAN_TASK;
}

const READ_BYTES = 256 * 1024;
const NL = 0x0a;

/**
 * Scans segments of one file: segment k is [lineStart(k · segmentBytes), lineStart((k + 1) · segmentBytes)),
 * where lineStart(x) is the offset just past the first \n at or after x (0 for the first segment, the
 * file's size past the end). Both threads compute the same borders, so every line is in exactly one
 * segment; a line longer than a segment makes the segments it covers empty.
 */
export class SegmentScanner {
  private readonly buffer = Buffer.allocUnsafe(READ_BYTES);
  private readonly collector = new LineCollector();
  private readonly scanner = new LogByteScanner({
    push: (line) => this.collector.addString(line),
    pushBytes: (bytes, start, end) => this.collector.addBytes(bytes, start, end),
    skipLines: (n) => this.collector.skip(n),
  });

  constructor(
    private readonly fd: number,
    private readonly size: number,
    private readonly segmentBytes: number,
  ) {}

  get count(): number {
    return Math.max(1, Math.ceil(this.size / this.segmentBytes));
  }

  /** Segment `index`'s candidate lines, gathered into `buffers` (grown when they are too small). */
  scan(index: number, buffers: LineBuffers): SegmentLines {
    const from = index === 0 ? 0 : this.lineStart(index * this.segmentBytes);
    const to = this.lineStart((index + 1) * this.segmentBytes);
    this.collector.start(buffers);
    for (let pos = from; pos < to; ) {
      const n = this.scanner.fill((target, offset, length) => readSync(this.fd, target, offset, Math.min(length, to - pos), pos));
      if (n === 0) break;
      pos += n;
    }
    // Only the file's last segment can end inside a line; end() hands that line over.
    this.scanner.end();
    return this.collector.finish(index);
  }

  private lineStart(offset: number): number {
    if (offset >= this.size) return this.size;
    // Small reads first: a kubelet line is a few hundred bytes, and each segment looks for two borders.
    for (let pos = offset, want = 4096; pos < this.size; want = Math.min(want * 4, this.buffer.length)) {
      const n = readSync(this.fd, this.buffer, 0, Math.min(want, this.size - pos), pos);
      if (n === 0) break;
      const nl = this.buffer.subarray(0, n).indexOf(NL);
      if (nl >= 0) return pos + nl + 1;
      pos += n;
    }
    return this.size;
  }
}

/** The worker's side: claim segments, scan each, post its lines; then done (or the read error). */
export function runLogsScanWorker(req: LogsScanRequest): void {
  const port = parentPort;
  if (port === null) throw new Error('runLogsScanWorker runs in a worker thread');
  const flow = new Int32Array(req.flow);
  const spare: LineBuffers[] = [];
  try {
    const segments = new SegmentScanner(req.fd, req.size, req.segmentBytes);
    for (;;) {
      if (Atomics.load(flow, STOP) !== 0) break;
      const k = Atomics.add(flow, NEXT, 1);
      if (k >= segments.count) break;
      // Held back while the main thread is AHEAD segments behind (it may be writing output).
      for (let done = Atomics.load(flow, SEQUENCED); k >= done + AHEAD && Atomics.load(flow, STOP) === 0; done = Atomics.load(flow, SEQUENCED)) {
        Atomics.wait(flow, SEQUENCED, done, 100);
      }
      for (let m = receiveMessageOnPort(req.recycled); m !== undefined; m = receiveMessageOnPort(req.recycled)) spare.push(m.message as LineBuffers);
      const segment = segments.scan(k, spare.pop() ?? newLineBuffers());
      port.postMessage({ segment } satisfies WorkerMessage, transferList(segment));
    }
    port.postMessage({ done: true } satisfies WorkerMessage);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const error: { code?: string; message: string } = { message: err.message };
    if (err.code !== undefined) error.code = err.code;
    port.postMessage({ error } satisfies WorkerMessage);
  }
}

/** An error carrying the worker's errno code, so the command names the cause as for its own reads. */
export class WorkerReadError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export interface SegmentedScanOptions {
  /** Worker threads to start (default 1: the machine this is tuned for has two cores); 0 without the bundled entry. */
  workers?: number;
  segmentBytes?: number;
  /** Runs after each sequenced segment (output flushing). */
  afterSegment?: () => void;
}

/** A segment waiting to be sequenced, and where its buffers go afterwards (a worker's channel, or this thread's spares). */
interface Pending {
  lines: SegmentLines;
  returnTo?: MessagePort;
}

/**
 * Scans an open file of `size` bytes in segments, on this thread and the workers, and feeds `seq` every
 * line's facts in line order. Resolves with the file's line count, or undefined when `signal` aborted
 * (workers stopped). Rejects with a read error (a worker's keeps its errno code), or if a worker dies.
 * Workers are stopped before it settles, so the caller may close `fd` then.
 */
export async function scanSegmented(fd: number, size: number, seq: LogSequencer, signal: AbortSignal, options: SegmentedScanOptions = {}): Promise<number | undefined> {
  const segmentBytes = options.segmentBytes ?? SEGMENT_BYTES;
  const own = new SegmentScanner(fd, size, segmentBytes);
  const count = own.count;
  const flow = new Int32Array(new SharedArrayBuffer(12));
  const results = new Map<number, Pending>();
  const spare: LineBuffers[] = [];
  const shapes = new LineShapeMemo();
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const poke = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const workers: Worker[] = [];
  const channels: MessageChannel[] = [];
  const script = workerScript;
  const wanted = script === undefined ? 0 : (options.workers ?? 1);
  for (let i = 0; i < wanted && script !== undefined && count > 1; i++) {
    const channel = new MessageChannel();
    channels.push(channel);
    const request: LogsScanRequest = { task: LOGS_SCAN_TASK, fd, size, segmentBytes, flow: flow.buffer as SharedArrayBuffer, recycled: channel.port2 };
    const worker = new Worker(script, { workerData: request, transferList: [channel.port2], argv: [], stdout: false, stderr: false });
    let done = false;
    worker.on('message', (m: WorkerMessage) => {
      if ('segment' in m) results.set(m.segment.index, { lines: received(m.segment), returnTo: channel.port1 });
      else if ('done' in m) done = true;
      else failure ??= new WorkerReadError(m.error.message, m.error.code);
      poke();
    });
    worker.on('error', (e) => {
      failure ??= e;
      poke();
    });
    worker.on('exit', (code) => {
      if (!done) failure ??= new Error(`the log scan worker stopped (exit code ${code}) before the end of the file`);
      poke();
    });
    workers.push(worker);
  }
  const onAbort = (): void => poke();
  signal.addEventListener('abort', onAbort, { once: true });

  let sequenced = 0;
  let lineBase = 0;
  try {
    while (sequenced < count) {
      if (signal.aborted) return undefined;
      if (failure !== undefined) throw failure;
      // Sequence every segment that is ready, in order.
      for (let p = results.get(sequenced); p !== undefined; p = results.get(sequenced)) {
        results.delete(sequenced);
        const { at, spans, bytes, lines } = p.lines;
        for (let i = 0; i < p.lines.count; i++) {
          const facts = shapes.classify(bytes, spans[2 * i] as number, spans[2 * i + 1] as number);
          if (facts !== undefined) seq.push(lineBase + (at[i] as number), facts);
        }
        lineBase += lines;
        sequenced++;
        Atomics.store(flow, SEQUENCED, sequenced);
        Atomics.notify(flow, SEQUENCED);
        // The buffers go back to be filled again (a worker reads its channel before each segment).
        const buffers: LineBuffers = { at, spans, bytes };
        if (p.returnTo === undefined) spare.push(buffers);
        else p.returnTo.postMessage(buffers, transferList(buffers));
        options.afterSegment?.();
      }
      if (sequenced >= count) break;
      const k = Atomics.load(flow, NEXT) < Math.min(count, sequenced + AHEAD) ? Atomics.add(flow, NEXT, 1) : count;
      if (k < count) {
        results.set(k, { lines: own.scan(k, spare.pop() ?? newLineBuffers()) });
        // A turn for the event loop: worker messages and an interrupt get in between segments.
        await nextTurn();
      } else if (!results.has(sequenced)) {
        // Every segment up to the window is claimed and the next to sequence is a worker's: wait for it.
        // Settled only by a message, an exit or the abort; poke() runs from those callbacks.
        await new Promise<void>((resolve) => {
          wake = resolve;
          if (results.has(sequenced) || failure !== undefined || signal.aborted) poke();
        });
      }
    }
    return lineBase;
  } finally {
    Atomics.store(flow, STOP, 1);
    Atomics.notify(flow, SEQUENCED);
    signal.removeEventListener('abort', onAbort);
    for (const w of workers) {
      // A worker that errs while it is being stopped has nothing left to report.
      w.removeAllListeners();
      w.on('error', () => undefined);
    }
    await Promise.all(workers.map((w) => w.terminate()));
    for (const c of channels) c.port1.close();
  }
}
