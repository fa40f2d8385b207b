// Per-document state of the log server: the lines, one classification per line, and the findings of the
// last sequential pass. An incremental edit re-classifies only the lines it touches (applyChange); a
// whole new text keeps the common prefix and suffix with the previous one (update). Either way the cheap
// sequential pass then re-runs over the lines with facts.
// Classification runs in chunks that yield to the event loop, so a huge log never blocks the server, and
// stops as soon as a newer edit cancels it.

import { LogSequencer, type LogSummary, type ReaderFinding } from '../core/parse/logReader';
import { classifyLogLine, type LineFacts } from '../core/parse/logReaderLine';

/** Lines classified between two yields to the event loop. */
export const CHUNK_LINES = 4000;

export interface CancelToken {
  readonly cancelled: boolean;
}

export class AnalysisCancelled extends Error {
  constructor() {
    super('analysis cancelled by a newer edit');
    this.name = 'AnalysisCancelled';
  }
}

export interface AnalysisResult {
  findings: ReaderFinding[];
  summary: LogSummary;
}

export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/u);
}

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class DocumentAnalysis {
  private lines: string[] = [];
  private facts: Array<LineFacts | undefined> = [];
  result: AnalysisResult | undefined;
  /** Lines classified by the last update (for tests of incrementality). */
  lastReclassified = 0;

  /** Brings the per-line facts up to `text`; throws AnalysisCancelled when `token` is cancelled. */
  async update(text: string, token: CancelToken, gapSeconds?: number): Promise<AnalysisResult> {
    const next = splitLines(text);
    const old = this.lines;
    let prefix = 0;
    const maxPrefix = Math.min(old.length, next.length);
    while (prefix < maxPrefix && old[prefix] === next[prefix]) prefix++;
    let suffix = 0;
    const maxSuffix = Math.min(old.length, next.length) - prefix;
    while (suffix < maxSuffix && old[old.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++;

    const middle: Array<LineFacts | undefined> = [];
    const end = next.length - suffix;
    for (let i = prefix; i < end; i++) {
      middle.push(classifyLogLine(next[i] as string));
      if ((i - prefix + 1) % CHUNK_LINES === 0) {
        await yieldToEventLoop();
        if (token.cancelled) throw new AnalysisCancelled();
      }
    }
    if (token.cancelled) throw new AnalysisCancelled();
    // Committed only now: a cancelled update leaves the previous state intact for the next diff.
    this.facts = [...this.facts.slice(0, prefix), ...middle, ...this.facts.slice(this.facts.length - suffix)];
    this.lines = next;
    this.lastReclassified = middle.length;
    this.result = sequence(this.facts, gapSeconds);
    return this.result;
  }

  /** True once a full update has completed: only then can edits be applied line by line. */
  get ready(): boolean {
    return this.result !== undefined;
  }

  /**
   * Applies one incremental LSP change (range in the coordinates before the change) to the stored lines
   * and facts, classifying only the lines it touches. Call `resequence` afterwards (debounced).
   */
  applyChange(range: { start: { line: number; character: number }; end: { line: number; character: number } }, text: string): void {
    const last = this.lines.length - 1;
    const s = Math.min(Math.max(range.start.line, 0), last);
    const e = Math.min(Math.max(range.end.line, s), last);
    const head = (this.lines[s] ?? '').slice(0, range.start.character);
    const tail = (this.lines[e] ?? '').slice(range.end.line > last ? undefined : range.end.character);
    const replaced = splitLines(head + text + (range.end.line > last ? '' : tail));
    this.lines.splice(s, e - s + 1, ...replaced);
    this.facts.splice(s, e - s + 1, ...replaced.map((l) => classifyLogLine(l)));
    this.lastReclassified = replaced.length;
  }

  /** The cheap sequential pass over the stored facts. */
  resequence(gapSeconds?: number): AnalysisResult {
    this.result = sequence(this.facts, gapSeconds);
    return this.result;
  }

  lineText(line: number): string | undefined {
    return this.lines[line];
  }

  /** The stored text, lines joined with \n (line ends do not matter to the analysis). */
  text(): string {
    return this.lines.join('\n');
  }
}

/** The sequential pass over stored facts: cheap, it only visits lines that carry events. */
export function sequence(facts: ReadonlyArray<LineFacts | undefined>, gapSeconds?: number): AnalysisResult {
  const findings: ReaderFinding[] = [];
  const seq = new LogSequencer((f) => findings.push(f), gapSeconds === undefined ? {} : { gapSeconds });
  facts.forEach((f, i) => {
    if (f !== undefined) seq.push(i, f);
  });
  seq.countLines(facts.length);
  const summary = seq.finish();
  // Stretches are emitted when they close, after later single-line findings: order by first line.
  findings.sort((a, b) => a.line - b.line || b.lastLine - a.lastLine);
  return { findings, summary };
}
