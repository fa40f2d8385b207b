// Writes klog text lines (what logReaderLine.readLineGeneral reads back, for structured lines), so simulated
// kubelets produce logs that read exactly like a real one and go through the same reader.

import { goQuote } from './klogQuote';
import type { KlogSeverity } from './klogHeader';

export interface KlogLineSpec {
  severity: KlogSeverity;
  epochMs: number;
  threadId: number;
  source: string;
  msg: string;
  /** Strings are written Go-quoted, numbers and booleans bare, `{ raw }` as is (klog prints structs as JSON). */
  fields?: ReadonlyArray<readonly [string, string | number | boolean | { raw: string }]>;
}

export function formatKlogLine(spec: KlogLineSpec): string {
  // Integer microseconds first: fractional milliseconds in a double would print 259583 for 259.584.
  const totalMicros = Math.round(spec.epochMs * 1000);
  const wholeSeconds = Math.floor(totalMicros / 1_000_000);
  const micros = totalMicros - wholeSeconds * 1_000_000;
  const d = new Date(wholeSeconds * 1000);
  const p2 = (n: number): string => String(n).padStart(2, '0');
  const header =
    `${spec.severity}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())} ` +
    `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(micros).padStart(6, '0')} ` +
    `${String(spec.threadId).padStart(7, ' ')} ${spec.source}] `;
  let body = goQuote(spec.msg);
  for (const [key, value] of spec.fields ?? []) {
    body += ` ${key}=${typeof value === 'string' ? goQuote(value) : typeof value === 'object' ? value.raw : String(value)}`;
  }
  return header + body;
}
