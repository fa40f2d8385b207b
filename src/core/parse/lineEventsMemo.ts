// The events of a klog body, remembered by the body's shape. A kubelet that is in trouble writes the same
// few messages over and over, and only their numbers change ("last seen active 3m13.1s ago", then
// "3m18.1s ago"; a pod's UID; a duration). Working a body out afresh (structured fields, Go quoting, a
// dozen message patterns, the ReadyError parse) costs several times what a remembered body costs (one
// native replace, one lookup and a few slices; bench/README.md), and a 1 GB journal has 50,000 such lines.
//
// Why a shape decides the events: the shape of a text is the text with every ASCII digit made 0
// (shapeKey). Everything that works a body out is blind to which digit stands where: no pattern holds a
// literal digit or a class that tells one ASCII digit from another, field keys that are looked up hold
// no digits, and without backslashes (Go escapes such as \u0041 spell characters with digits) a decoded
// value is the raw text between its quotes. So two bodies of one shape get the same events, at the same
// places, and differ only in what sits at those places. The remembered events are therefore a template:
// each string with a digit in it is taken from the new body at the place it had in the first one, and
// "last seen active" is parsed again from its place. Where that place is not certain (the value's shape
// occurs twice in the body, or is not in it at all) the shape is marked not to be remembered, and its
// bodies are worked out every time. A property test holds remembered and fresh results equal on bodies
// that differ in their digits.

import { goDurationSeconds } from './durationSeconds';
import type { LineEvent } from './lineFacts';
import { shapeKey } from './readyErrorKinds';

/** A body's events, and the "last seen active" text its pleg-unhealthy event was read from. */
export interface BodyEvents {
  events: LineEvent[];
  agoText?: string;
}

/** Where a template takes a value from: body[at, at + length), as a string, or parsed as the Go duration "ago". */
interface Slot {
  event: number;
  field: string;
  at: number;
  length: number;
}

/** A shape's events, with the places their digit-bearing values are taken from (lineShapeMemo.ts keeps them too). */
export interface BodyTemplate {
  events: readonly LineEvent[];
  slots: readonly Slot[];
}
type Template = BodyTemplate;

/** Shapes remembered at most; the memo is emptied when full, so memory stays bounded on any input. */
export const LINE_EVENTS_MEMO_ENTRIES = 1024;
/** Longer bodies are worked out each time: a key that long would cost more memory than it saves time. */
export const LINE_EVENTS_MEMO_MAX_CHARS = 2048;

/** Bodies never remembered: a backslash may start a Go escape (which can spell characters with digits); surrogates decode unevenly. */
const UNSAFE = /[\\\ud800-\udfff]/;
const DIGIT = /[0-9]/;

/** The one place `needle` occurs in `hay`, or -1 when it occurs nowhere or more than once. */
function onlyPlace(hay: string, needle: string): number {
  const at = hay.indexOf(needle);
  return at >= 0 && hay.indexOf(needle, at + 1) < 0 ? at : -1;
}

/** The template for `key` (the shape of the body `fresh` was worked out from), or null where a value's place is not certain. */
function templateOf(key: string, fresh: BodyEvents): Template | null {
  // A "last seen active" that did not parse leaves no value, so no slot: a later body of the shape whose
  // duration does parse would lose it. Such bodies (an overflowing duration) are worked out every time.
  if (fresh.agoText !== undefined && !fresh.events.some((e) => e.kind === 'pleg-unhealthy' && e.lastSeenAgoSeconds !== undefined)) return null;
  const slots: Slot[] = [];
  for (let i = 0; i < fresh.events.length; i++) {
    for (const [field, value] of Object.entries(fresh.events[i] as LineEvent)) {
      if (field === 'kind' || typeof value === 'boolean') continue;
      if (field === 'lastSeenAgoSeconds') {
        const at = fresh.agoText === undefined ? -1 : onlyPlace(key, shapeKey(fresh.agoText));
        if (at < 0) return null;
        slots.push({ event: i, field, at, length: (fresh.agoText as string).length });
      } else if (typeof value === 'string') {
        if (!DIGIT.test(value)) continue;
        const at = onlyPlace(key, shapeKey(value));
        if (at < 0) return null;
        slots.push({ event: i, field, at, length: value.length });
      } else if (!(Array.isArray(value) && value.every((v) => typeof v === 'string' && !DIGIT.test(v)))) {
        // A field this memo does not know how to carry over (a new kind of value): never remember it.
        return null;
      }
    }
  }
  return { events: copied(fresh.events), slots };
}

/** Copies of events, so no caller shares an object (or a reasons list) with the template or another line. */
function copied(events: readonly LineEvent[]): LineEvent[] {
  const out = new Array<LineEvent>(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as LineEvent;
    // The skip lines' event, most of a flapping node's log, by hand: a spread is a runtime call.
    out[i] = e.kind === 'skip-sync' ? { kind: 'skip-sync', reasons: e.reasons.slice() } : { ...e };
  }
  return out;
}

/**
 * The template's events with the values of a body of its shape, whose text at [at, at + length) `read`
 * gives; undefined when a duration there does not parse (the body is worked out afresh then).
 */
export function fillBodyTemplate(t: BodyTemplate, read: (at: number, length: number) => string): LineEvent[] | undefined {
  const events = copied(t.events);
  for (const s of t.slots) {
    const text = read(s.at, s.length);
    const ev = events[s.event] as unknown as Record<string, unknown>;
    if (s.field === 'lastSeenAgoSeconds') {
      const seconds = goDurationSeconds(text);
      if (seconds === undefined) return undefined;
      ev[s.field] = seconds;
    } else ev[s.field] = text;
  }
  return events;
}

const memo = new Map<string, Template | null>();
/** Bodies answered from a template (tests: a memo that never hits would pass every equality check). */
let hits = 0;

/** The events of klog body `body`: remembered by shape where that is certain, else `work(body)`. */
export function memoizedBodyEvents(body: string, work: (body: string) => BodyEvents): LineEvent[] {
  if (body.length > LINE_EVENTS_MEMO_MAX_CHARS || UNSAFE.test(body)) return work(body).events;
  const key = shapeKey(body);
  const t = memo.get(key);
  if (t !== undefined) {
    const events = t === null ? undefined : fillBodyTemplate(t, (at, length) => body.slice(at, at + length));
    if (events !== undefined) hits++;
    return events ?? work(body).events;
  }
  const fresh = work(body);
  remember(key, templateOf(key, fresh));
  return fresh.events;
}

function remember(key: string, t: Template | null): void {
  if (memo.size >= LINE_EVENTS_MEMO_ENTRIES) memo.clear();
  memo.set(key, t);
}

/**
 * The template of `body`'s shape (worked out with `work` and remembered when new), or null where bodies
 * of this shape are worked out each time (memoizedBodyEvents would not remember them either).
 */
export function bodyTemplate(body: string, work: (body: string) => BodyEvents): BodyTemplate | null {
  if (body.length > LINE_EVENTS_MEMO_MAX_CHARS || UNSAFE.test(body)) return null;
  const key = shapeKey(body);
  let t = memo.get(key);
  if (t === undefined) remember(key, (t = templateOf(key, work(body))));
  return t;
}

/** Shapes remembered now (tests). */
export function lineEventsMemoSize(): number {
  return memo.size;
}

/** Bodies answered from a template so far (tests). */
export function lineEventsMemoHits(): number {
  return hits;
}

/** Forgets every shape (tests: a fresh start). */
export function clearLineEventsMemo(): void {
  memo.clear();
}
