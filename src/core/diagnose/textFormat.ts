// Small formatters for the text of findings. Finding text may hold `code spans` (the renderer keeps them
// as code and escapes everything else); cluster-supplied strings go through `quoted` so a backtick inside
// them cannot open or close a span.

import { formatGoDurationMs } from '../util/goDuration';

/** Wraps a cluster-supplied or measured string in a code span; its backticks become U+02CB (ˋ). */
export function quoted(text: string): string {
  const flat = text.replace(/`/gu, 'ˋ').replace(/\s*\n\s*/gu, ' ');
  return `\`${flat === '' ? ' ' : flat}\``;
}

/** Seconds as a short Go-style duration: 240 → "4m0s", 0.0123 → "12.3ms". */
export function seconds(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return formatGoDurationMs(Math.round(value * 1000 * 10) / 10);
}

/** An estimate: whole seconds from a minute up, tenths from a second up (no false precision). */
export function approxSeconds(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value >= 60) return seconds(Math.round(value));
  if (value >= 1) return seconds(Math.round(value * 10) / 10);
  return seconds(value);
}

/** Whole seconds as a Go duration (3m46s): for ages, where sub-second detail is noise. */
export function age(valueSeconds: number): string {
  if (!Number.isFinite(valueSeconds)) return String(valueSeconds);
  const whole = valueSeconds >= 1 ? Math.floor(valueSeconds * 10) / 10 : valueSeconds;
  return formatGoDurationMs(Math.round(whole * 1000));
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Container and sandbox IDs are hex; only validated IDs may appear inside a suggested command. */
export function isHexId(id: string): boolean {
  return /^[0-9a-f]{12,64}$/u.test(id);
}
