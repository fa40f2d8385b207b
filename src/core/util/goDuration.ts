// Go's time.Duration text form, both ways. The kubelet prints durations with Duration.String(), and the
// PLEG health error is compared character for character, so formatting follows Go's algorithm exactly.

const NS_PER_UNIT_HOUR = 3_600_000_000_000n;

const NS_PER_UNIT: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign, what Go prints
  'μs': 1_000n, // U+03BC Greek mu, which Go also accepts
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: NS_PER_UNIT_HOUR,
};

/** The largest Go duration: what kubelets before PR #69008 printed for "never relisted". */
export const MAX_GO_DURATION_NS = 9_223_372_036_854_775_807n;

/** From 2562047h on, a PLEG "last seen active … ago" means the relist never succeeded (the maximum Go duration, rounded down to whole hours). */
const NEVER_RELISTED_HOURS = 2_562_047;

/** Whether a PLEG "last seen active X ago" duration is an old kubelet's way of saying "never relisted". */
export function meansNeverRelisted(ago: { ns: bigint } | { seconds: number }): boolean {
  return 'ns' in ago ? ago.ns >= BigInt(NEVER_RELISTED_HOURS) * NS_PER_UNIT_HOUR : ago.seconds >= NEVER_RELISTED_HOURS * 3600;
}

export class GoDurationError extends Error {
  constructor(readonly input: string, reason: string) {
    super(`invalid Go duration "${input}": ${reason}`);
    this.name = 'GoDurationError';
  }
}

/** Parses a Go duration (`3m46.752815514s`, `1h2m`, `250ms`, `0`) into nanoseconds. */
export function parseGoDurationNs(input: string): bigint {
  let s = input.trim();
  if (s === '') throw new GoDurationError(input, 'empty');
  let sign = 1n;
  if (s[0] === '-' || s[0] === '+') {
    if (s[0] === '-') sign = -1n;
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw new GoDurationError(input, 'no digits');
  const part = /^(\d*)(?:\.(\d*))?(ns|us|µs|μs|ms|s|m|h)/u;
  let total = 0n;
  while (s.length > 0) {
    const m = part.exec(s);
    if (!m) throw new GoDurationError(input, `unexpected "${s}"`);
    const [whole, intDigits = '', fracDigits = '', unit = ''] = m;
    if (intDigits === '' && fracDigits === '') throw new GoDurationError(input, 'a unit without a number');
    const scale = NS_PER_UNIT[unit];
    if (scale === undefined) throw new GoDurationError(input, `unknown unit "${unit}"`);
    let ns = BigInt(intDigits || '0') * scale;
    if (fracDigits !== '') {
      // Go truncates fractional nanoseconds; so do we.
      ns += (BigInt(fracDigits) * scale) / 10n ** BigInt(fracDigits.length);
    }
    total += ns;
    s = s.slice(whole.length);
  }
  if (total > MAX_GO_DURATION_NS) throw new GoDurationError(input, 'overflows int64 nanoseconds');
  return sign * total;
}

/** Parses a Go duration into (fractional) seconds. */
export function parseGoDurationSeconds(input: string): number {
  const ns = parseGoDurationNs(input);
  return Number(ns / 1_000_000n) / 1000 + Number(ns % 1_000_000n) / 1e9;
}

/** Formats nanoseconds exactly as Go's Duration.String() does. */
export function formatGoDuration(nanos: bigint | number): string {
  let u = typeof nanos === 'bigint' ? nanos : BigInt(Math.trunc(nanos));
  const neg = u < 0n;
  if (neg) u = -u;
  let out: string;
  if (u < 1_000_000_000n) {
    if (u === 0n) return '0s';
    if (u < 1_000n) out = `${u}ns`;
    else if (u < 1_000_000n) out = `${fracString(u, 3)}µs`;
    else out = `${fracString(u, 6)}ms`;
  } else {
    const secPart = fracString(u % 60_000_000_000n, 9);
    let minutes = u / 60_000_000_000n;
    out = `${secPart}s`;
    if (minutes > 0n) {
      const hours = minutes / 60n;
      minutes %= 60n;
      out = `${minutes}m${out}`;
      if (hours > 0n) out = `${hours}h${out}`;
    }
  }
  return neg ? `-${out}` : out;
}

/** Formats milliseconds as Go would format the same duration. */
export function formatGoDurationMs(ms: number): string {
  return formatGoDuration(BigInt(Math.round(ms * 1_000_000)));
}

/** `v / 10**prec` with trailing fractional zeros (and a bare point) dropped, like Go's fmtFrac+fmtInt. */
function fracString(v: bigint, prec: number): string {
  const div = 10n ** BigInt(prec);
  const intPart = v / div;
  const frac = (v % div).toString().padStart(prec, '0').replace(/0+$/u, '');
  return frac === '' ? intPart.toString() : `${intPart}.${frac}`;
}

/** A Go duration in seconds with more than one decimal: `10m5.901340155s`, `2.5004s`. */
const LONG_FRACTION = /(?<![\w.])((?:\d+h)?(?:\d+m)?\d+\.\d{2,}s)(?![\w.])/gu;

/**
 * The kubelet's messages with their nanosecond durations cut to tenths of a second (`10m5.901340155s` →
 * `10m5.9s`; truncated, as an age is, so it never reads later than it was): for a person reading a row or
 * a table. Other text, and durations already short, are left as they are.
 */
export function roundGoDurations(text: string): string {
  return text.replace(LONG_FRACTION, (d: string) => {
    const ns = parseGoDurationNs(d);
    return formatGoDuration((ns / 100_000_000n) * 100_000_000n);
  });
}
