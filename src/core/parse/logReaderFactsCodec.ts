// Line facts packed for a hand-over between threads (the CLI's scan worker, logsWorker.ts): the numbers
// in one Float64Array, which is transferred rather than copied, and the strings in a table that holds
// each distinct string of the batch once. A 1 GB journal gives 50,000 facts, nearly all "Skipping pod
// synchronization" lines repeating the same reasons and clock seconds, so the table stays small. In
// batches of a segment's facts, warm, a GB's worth took 61 ms to write and 88 ms to read back as JSON
// text, and takes 25 ms to pack and 6 ms to unpack.
//
// Exact by construction: a Float64Array keeps every double as it is (-0 and NaN included, which JSON
// does not), and each optional field carries its own presence bit, so unpack(pack(facts)) deep-equals
// facts. Table strings are cloned by postMessage into fresh strings, so a reason kept in the summary
// holds no larger text alive.

import type { LineEvent, LineFacts, YearlessTime } from './logReaderLine';

export interface PackedFacts {
  /** Per fact: flags, then the fields the flags announce, then each event (see packFacts). */
  nums: Float64Array;
  /** Strings referred to from nums by index. */
  strings: string[];
}

// Fact flags.
const HAS_TIME = 1;
const EPOCH_TIME = 2;
const HAS_PID = 4;
const HAS_CLOCK = 8;

/** Event kinds by code; a code is the index here. */
const KINDS = [
  'pleg-unhealthy',
  'pleg-never',
  'skip-sync',
  'relist-failure',
  'event-discard',
  'runtime-down',
  'evented-fallback',
  'housekeeping-slow',
  'node-not-ready',
  'node-ready',
  'kubelet-start',
] as const satisfies ReadonlyArray<LineEvent['kind']>;

const KIND_CODE: Record<LineEvent['kind'], number> = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<LineEvent['kind'], number>;

/** The fields packEvent writes, by kind. */
interface PackedFields {
  'pleg-unhealthy': 'evented' | 'lastSeenAgoSeconds';
  'pleg-never': never;
  'skip-sync': 'reasons';
  'relist-failure': 'err';
  'event-discard': 'evented';
  'runtime-down': 'text' | 'err';
  'evented-fallback': 'text';
  'housekeeping-slow': 'actual';
  'node-not-ready': 'text';
  'node-ready': 'text';
  'kubelet-start': 'version';
}
type UnpackedField =
  | Exclude<LineEvent['kind'], (typeof KINDS)[number]>
  | { [K in LineEvent['kind']]: Exclude<keyof Extract<LineEvent, { kind: K }>, 'kind' | PackedFields[K]> }[LineEvent['kind']]
  | Exclude<keyof LineFacts, 'time' | 'pid' | 'clock' | 'events'>
  | Exclude<keyof YearlessTime, 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micros'>;
/** Fails to compile when LineFacts or an event gains a field (or LineEvent a kind) that is not packed. */
const _everyFieldPacked: [UnpackedField] extends [never] ? true : never = true;

class Writer {
  nums: number[] = [];
  strings: string[] = [];
  private readonly index = new Map<string, number>();

  num(n: number): void {
    this.nums.push(n);
  }

  str(s: string): void {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.index.set(s, i);
    }
    this.nums.push(i);
  }

  /** A presence flag, then the string when present. */
  optStr(s: string | undefined): void {
    if (s === undefined) this.nums.push(0);
    else {
      this.nums.push(1);
      this.str(s);
    }
  }
}

function packEvent(w: Writer, ev: LineEvent): void {
  w.num(KIND_CODE[ev.kind]);
  switch (ev.kind) {
    case 'pleg-unhealthy':
      w.num((ev.evented ? 1 : 0) | (ev.lastSeenAgoSeconds !== undefined ? 2 : 0));
      if (ev.lastSeenAgoSeconds !== undefined) w.num(ev.lastSeenAgoSeconds);
      return;
    case 'pleg-never':
      return;
    case 'skip-sync':
      w.num(ev.reasons.length);
      for (const r of ev.reasons) w.str(r);
      return;
    case 'relist-failure':
      w.optStr(ev.err);
      return;
    case 'event-discard':
      w.num(ev.evented ? 1 : 0);
      return;
    case 'runtime-down':
      w.str(ev.text);
      w.optStr(ev.err);
      return;
    case 'evented-fallback':
    case 'node-not-ready':
    case 'node-ready':
      w.str(ev.text);
      return;
    case 'housekeeping-slow':
      w.optStr(ev.actual);
      return;
    case 'kubelet-start':
      w.optStr(ev.version);
      return;
  }
}

/**
 * Packs facts[i] with its line number at[i]. Per fact: line, flags, [epochMs | month day hour minute
 * second micros], [pid], [clock], event count, events (kind code and its fields, strings by index).
 */
export function packFacts(at: ArrayLike<number>, facts: readonly LineFacts[]): PackedFacts {
  const w = new Writer();
  for (let i = 0; i < facts.length; i++) {
    const { time, pid, clock, events } = facts[i] as LineFacts;
    w.num(at[i] as number);
    let flags = 0;
    if (time !== undefined) flags |= 'epochMs' in time ? HAS_TIME | EPOCH_TIME : HAS_TIME;
    if (pid !== undefined) flags |= HAS_PID;
    if (clock !== undefined) flags |= HAS_CLOCK;
    w.num(flags);
    if (time !== undefined) {
      if ('epochMs' in time) w.num(time.epochMs);
      else {
        const y = time.yearless;
        w.num(y.month);
        w.num(y.day);
        w.num(y.hour);
        w.num(y.minute);
        w.num(y.second);
        w.num(y.micros);
      }
    }
    if (pid !== undefined) w.num(pid);
    if (clock !== undefined) w.str(clock);
    w.num(events.length);
    for (const ev of events) packEvent(w, ev);
  }
  return { nums: Float64Array.from(w.nums), strings: w.strings };
}

/** The facts and their line numbers back, as packFacts was given them. */
export function unpackFacts(p: PackedFacts): { at: number[]; facts: LineFacts[] } {
  const { nums, strings } = p;
  const at: number[] = [];
  const facts: LineFacts[] = [];
  let i = 0;
  const num = (): number => nums[i++] as number;
  const str = (): string => strings[nums[i++] as number] as string;
  while (i < nums.length) {
    at.push(num());
    const flags = num();
    const fact: LineFacts = { events: [] };
    if ((flags & HAS_TIME) !== 0) {
      if ((flags & EPOCH_TIME) !== 0) fact.time = { epochMs: num() };
      else fact.time = { yearless: { month: num(), day: num(), hour: num(), minute: num(), second: num(), micros: num() } };
    }
    if ((flags & HAS_PID) !== 0) fact.pid = num();
    if ((flags & HAS_CLOCK) !== 0) fact.clock = str();
    for (let n = num(); n > 0; n--) fact.events.push(unpackEvent(num, str));
    facts.push(fact);
  }
  return { at, facts };
}

function unpackEvent(num: () => number, str: () => string): LineEvent {
  const kind = KINDS[num()];
  if (kind === undefined) throw new Error('packed facts: unknown event kind');
  const optStr = (): string | undefined => (num() !== 0 ? str() : undefined);
  switch (kind) {
    case 'pleg-unhealthy': {
      const bits = num();
      const ev: LineEvent = { kind, evented: (bits & 1) !== 0 };
      if ((bits & 2) !== 0) ev.lastSeenAgoSeconds = num();
      return ev;
    }
    case 'pleg-never':
      return { kind };
    case 'skip-sync': {
      const reasons: string[] = [];
      for (let n = num(); n > 0; n--) reasons.push(str());
      return { kind, reasons };
    }
    case 'relist-failure':
    case 'housekeeping-slow':
    case 'kubelet-start': {
      const s = optStr();
      if (s === undefined) return { kind };
      if (kind === 'relist-failure') return { kind, err: s };
      return kind === 'housekeeping-slow' ? { kind, actual: s } : { kind, version: s };
    }
    case 'event-discard':
      return { kind, evented: num() !== 0 };
    case 'runtime-down': {
      const ev: LineEvent = { kind, text: str() };
      const err = optStr();
      if (err !== undefined) ev.err = err;
      return ev;
    }
    case 'evented-fallback':
    case 'node-not-ready':
    case 'node-ready':
      return { kind, text: str() };
  }
}
