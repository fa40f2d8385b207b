// What must follow an anchor literal for its line to be worth decoding. "Container runtime" starts the
// runtime-poll messages the reader wants ("… sanity check failed", "… not ready", "… network not
// ready"), but also "Container runtime status", which a 1.32 kubelet writes every five seconds: on the
// 1 GB benchmark journal that was 40,000 lines decoded only for the reader's prefilter to drop them.
//
// A tail check only ever refuses a line the prefilter would refuse too: it looks at bytes, and where a
// byte could decode to something the prefilter's \s matches (any byte ≥ 0x80 might start U+00A0 and the
// other Unicode spaces), or the bytes run out, it keeps the line.

/** True unless the bytes at data[at, to) certainly cannot continue the anchor into a prefilter phrase. */
export type AnchorTail = (data: Uint8Array, at: number, to: number) => boolean;

/** The ASCII bytes JavaScript's \s matches inside a line (\n ends it): tab, VT, FF, CR, space. */
function isAsciiSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c || b === 0x0d;
}

/** data[at…] starts with `word`, or with as much of it as there is before `to`. */
function startsWith(data: Uint8Array, at: number, to: number, word: string): boolean {
  for (let k = 0; k < word.length && at + k < to; k++) if (data[at + k] !== word.charCodeAt(k)) return false;
  return true;
}

/** The prefilter's `Container runtime\s+(?:sanity|(?:network\s+)?not\s+ready)`, after the literal. */
export const runtimePollTail: AnchorTail = (data, at, to) => {
  let i = at;
  while (i < to && isAsciiSpace(data[i] as number)) i++;
  if (i >= to) return true;
  const b = data[i] as number;
  if (b >= 0x80) return true;
  if (i === at) return false;
  return startsWith(data, i, to, 'sanity') || startsWith(data, i, to, 'not') || startsWith(data, i, to, 'network');
};

/** Tail checks by anchor literal; an anchor not listed counts wherever its literal is. */
export const ANCHOR_TAILS: ReadonlyMap<string, AnchorTail> = new Map([['Container runtime', runtimePollTail]]);
