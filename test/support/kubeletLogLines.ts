// A whole kubelet log read line by line with the product's own reader (logReaderLine.readLineGeneral: the
// one record parser the language server, `pleg-doctor logs` and the diagnosis use) and its year resolution
// (logStretch.LogClock), for tests that look for a message in a real or simulated kubelet's log.

import { readLineGeneral } from '../../src/core/parse/logReaderLine';
import { LogClock } from '../../src/core/parse/logStretch';

export interface LogLine {
  /** 1-based. */
  lineNumber: number;
  msg: string;
  err?: string;
  fields: ReadonlyMap<string, string>;
  /** The line's time on the reader's clock (year-less headers placed in `baseYear`, carried over New Year). */
  epochMs?: number;
}

/** Every non-empty line of `text`, in order. Lines without a header keep their whole text as `msg` and no time. */
export function readLogLines(text: string, baseYear: number): LogLine[] {
  const clock = new LogClock(baseYear);
  const out: LogLine[] = [];
  text.split(/\r?\n/u).forEach((line, i) => {
    if (line === '') return;
    const read = readLineGeneral(line);
    const entry: LogLine = { lineNumber: i + 1, msg: read.body.msg, fields: read.body.fields };
    if (read.body.err !== undefined) entry.err = read.body.err;
    const ms = clock.resolve(read.time);
    if (ms !== undefined) entry.epochMs = ms;
    out.push(entry);
  });
  return out;
}
