// The kinds of error a Ready-style message names (the `err` of a "Skipping pod synchronization" line),
// memoised. A kubelet repeats the same reasons every few seconds, and only the numbers change ("last
// seen active 3m13.1s ago", then "3m18.1s ago"): on a 1 GB journal the 45,000 skip lines made
// parseReadyMessage most of the log reader's classifying time.
//
// Texts are cached by shape: two texts have the same shape when they differ only in which ASCII digits
// stand where. That cannot change the kinds: no pattern parseReadyMessage uses (the catalog's R1–R8, its
// separators, its rule words) holds a literal digit or a class that tells one ASCII digit from another,
// so both texts give the same hits at the same places, and the same text between them. A property test
// checks the cached answer against a fresh parse on texts that differ only in their digits. The key is
// the text with every ASCII digit made 0, built by one native replace: hashing and comparing the shape
// in a JS loop, which spared building that string, took about a third longer per lookup
// (bench/README.md, "Measurements behind the log reader").

import { parseReadyMessage } from './readyMessage';

/** Entries kept; the map is emptied when full, so memory stays bounded on any input. */
export const READY_KINDS_CACHE_ENTRIES = 256;
/** Longer texts are parsed each time: a key that long would cost more memory than the parse saves time. */
export const READY_KINDS_CACHE_MAX_CHARS = 2048;

/** Kinds by shape key; cleared when full, so memory stays bounded on any input. */
const cache = new Map<string, readonly string[]>();

const ASCII_DIGIT = /[0-9]/g;

/** The cache key: the text with each ASCII digit replaced by 0, equal exactly for texts equal but for which ASCII digits stand where. */
export function shapeKey(text: string): string {
  return text.replace(ASCII_DIGIT, '0');
}

/** The distinct error kinds of `text` in order of first appearance, parsed afresh. */
export function readyErrorKindsUncached(text: string): string[] {
  const kinds: string[] = [];
  for (const e of parseReadyMessage(text).errors) if (!kinds.includes(e.kind)) kinds.push(e.kind);
  return kinds;
}

/** As readyErrorKindsUncached, from the cache when a text of the same shape was seen. A fresh array. */
export function readyErrorKinds(text: string): string[] {
  if (text.length > READY_KINDS_CACHE_MAX_CHARS) return readyErrorKindsUncached(text);
  const key = shapeKey(text);
  const hit = cache.get(key);
  if (hit !== undefined) return hit.slice();
  const kinds = readyErrorKindsUncached(text);
  if (cache.size >= READY_KINDS_CACHE_ENTRIES) cache.clear();
  cache.set(key, kinds);
  return kinds.slice();
}

/** Entries held now (tests). */
export function readyKindsCacheSize(): number {
  return cache.size;
}
