// Which three bytes of each anchor literal the SIMD kernel looks for, and the nibble tables that let it
// look for all of them at once. The kernel tests every byte position of a 16-byte block against eight
// "buckets" of 3-byte fingerprints with two table lookups per fingerprint byte (low and high nibble),
// the scheme Hyperscan calls Teddy; a hit is only a candidate, verified against the whole literal.
//
// Each fingerprint is the literal's rarest 3-byte window, counted on the benchmark journal (the real
// kubelet 1.32 recording, 100 MB): e.g. "PLE" occurs only inside PLEG, "r r" (8,609) almost only inside
// "container runtime", while the literals' first bytes ("Node", "Con") are on every other line. Literals
// share a bucket only where their fingerprints' nibble sets add few false bytes ("t v" and ": v" differ
// in one byte, so together they match exactly those two; "otR"/"deR" add only "oeR", "dtR", …).

import { ANCHOR_TAILS, type AnchorTail } from '../anchorTails';

export interface Fingerprint {
  literal: string;
  /** Where the fingerprint starts in the literal; it is literal[at, at + 3). */
  at: number;
  /** Bucket (0–7): its bit in the kernel's nibble tables. */
  bucket: number;
}

export const FINGERPRINT_BYTES = 3;

export const FINGERPRINTS: readonly Fingerprint[] = [
  // The four prefilter phrases that hold "PLEG", rather than "PLEG" alone: most "PLEG" lines of a
  // healthy kubelet ("GenericPLEG" container events, "PLEG: Write status") are then refused here.
  { literal: 'PLEG is not healthy', at: 0, bucket: 0 },
  { literal: 'GenericPLEG: Unable to retrieve pods', at: 7, bucket: 0 },
  { literal: 'Evented PLEG: ', at: 8, bucket: 0 },
  { literal: 'Fall back to Generic PLEG', at: 21, bucket: 0 },
  { literal: 'kipping pod synchronization', at: 1, bucket: 1 },
  { literal: 'vent channel is full', at: 15, bucket: 2 },
  { literal: 'Container runtime', at: 8, bucket: 3 },
  { literal: 'container runtime is down', at: 8, bucket: 3 },
  { literal: 'ousekeeping took', at: 12, bucket: 4 },
  { literal: 'Node became not ready', at: 7, bucket: 5 },
  { literal: 'NodeNotReady', at: 5, bucket: 6 },
  { literal: 'NodeReady', at: 2, bucket: 6 },
  { literal: 'Kubelet version', at: 6, bucket: 7 },
  { literal: '] Version: v', at: 9, bucket: 7 },
];

/**
 * For fingerprint byte k: lo[k][n] has bit b when some fingerprint of bucket b has low nibble n at byte
 * k, hi[k] likewise for the high nibble. A position is a candidate when, for every k, both lookups of
 * the byte at position + k share a bit.
 */
export function nibbleTables(fps: readonly Fingerprint[]): { lo: Uint8Array[]; hi: Uint8Array[] } {
  const lo = Array.from({ length: FINGERPRINT_BYTES }, () => new Uint8Array(16));
  const hi = Array.from({ length: FINGERPRINT_BYTES }, () => new Uint8Array(16));
  for (const fp of fps) {
    for (let k = 0; k < FINGERPRINT_BYTES; k++) {
      const c = fp.literal.charCodeAt(fp.at + k);
      const l = lo[k] as Uint8Array;
      const h = hi[k] as Uint8Array;
      l[c & 0x0f] = (l[c & 0x0f] as number) | (1 << fp.bucket);
      h[c >> 4] = (h[c >> 4] as number) | (1 << fp.bucket);
    }
  }
  return { lo, hi };
}

/** The literals to verify at a candidate, by the candidate's first byte (the kernel's hit is a superset). */
export interface Verifier {
  /** Literal bytes, where the fingerprint sits in them, and what must follow them (anchorTails.ts). */
  byFirstByte: Array<Array<{ bytes: Uint8Array; at: number; tail?: AnchorTail }> | undefined>;
}

export function verifier(fps: readonly Fingerprint[]): Verifier {
  const byFirstByte: Verifier['byFirstByte'] = new Array(256).fill(undefined);
  for (const fp of fps) {
    const first = fp.literal.charCodeAt(fp.at);
    const list = (byFirstByte[first] ??= []);
    const tail = ANCHOR_TAILS.get(fp.literal);
    const entry: { bytes: Uint8Array; at: number; tail?: AnchorTail } = { bytes: Uint8Array.from(fp.literal, (c) => c.charCodeAt(0)), at: fp.at };
    if (tail !== undefined) entry.tail = tail;
    list.push(entry);
  }
  return { byFirstByte };
}

/** True when a fingerprint starting at `pos` is part of its whole literal inside data[from, to), and the literal's tail check (if any) passes. */
export function literalAround(v: Verifier, data: Uint8Array, pos: number, from: number, to: number): boolean {
  const list = v.byFirstByte[data[pos] as number];
  if (list === undefined) return false;
  for (const { bytes, at, tail } of list) {
    const start = pos - at;
    if (start < from || start + bytes.length > to) continue;
    let i = 0;
    while (i < bytes.length && data[start + i] === bytes[i]) i++;
    if (i === bytes.length && (tail === undefined || tail(data, start + i, to))) return true;
  }
  return false;
}
