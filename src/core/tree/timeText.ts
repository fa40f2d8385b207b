// Times in tooltips: the local wall-clock time and how long ago ("04:56:47 (3 min ago)"), never a raw ISO
// string with milliseconds. Locale and time zone are parameters so tests can pin them.

import type { Localize } from './localize';

/** "just now", "45 s ago", "3 min ago", "2 h ago", "4 d ago": floored, one unit. */
export function formatAgo(seconds: number, t: Localize): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  if (s < 5) return t('just now');
  if (s < 60) return t('{0} s ago', s);
  if (s < 3600) return t('{0} min ago', Math.floor(s / 60));
  if (s < 86_400) return t('{0} h ago', Math.floor(s / 3600));
  return t('{0} d ago', Math.floor(s / 86_400));
}

export interface ClockOptions {
  /** BCP 47 locale; the runtime's default when absent. */
  locale?: string;
  /** IANA zone; the machine's local zone when absent. */
  timeZone?: string;
}

function dayKey(date: Date, options: ClockOptions): string {
  return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...(options.timeZone ? { timeZone: options.timeZone } : {}) }).format(date);
}

/** Local time of day, with the date too when it is not today. */
export function formatClock(when: Date, now: Date, options: ClockOptions = {}): string {
  const zone = options.timeZone ? { timeZone: options.timeZone } : {};
  const time: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...zone };
  const sameDay = dayKey(when, options) === dayKey(now, options);
  const format: Intl.DateTimeFormatOptions = sameDay ? time : { ...time, month: 'short', day: 'numeric' };
  return new Intl.DateTimeFormat(options.locale, format).format(when);
}

/** "04:56:47 (3 min ago)"; undefined when `when` is absent or unparsable. */
export function formatWhen(when: string | Date | undefined, now: Date, t: Localize, options: ClockOptions = {}): string | undefined {
  if (when === undefined) return undefined;
  const date = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(date.getTime())) return undefined;
  return t('{0} ({1})', formatClock(date, now, options), formatAgo((now.getTime() - date.getTime()) / 1000, t));
}
