// What a real kubelet JSON log says about PLEG, worked out without the reader: every line saying "PLEG is
// not healthy: pleg was last seen active …" (in a skip line's err or a Ready condition; the start-up form
// "pleg has yet to be successful" is no stretch), its JSON object's "ts" (epoch
// milliseconds, as component-base logs/json writes it) and the "pleg was last seen active …" duration it
// names, grouped with the stretch rule (a gap longer than `gapSeconds` ends a stretch). The tests compare
// `pleg-doctor logs`, the reader and the language server with this.

import { readFileSync } from 'node:fs';

export const JSON_FIXTURES = {
  /** The real capture (kubelet v1.36.2, logging format json), thawed as soon as the Node said "PLEG is not healthy". */
  real: 'json-1.36-pleg-fault.log',
  /** A second real window, containerd held frozen 90 s longer: 21 unhealthy lines. */
  held: 'json-1.36-pleg-fault-held.log',
  /** `held` behind a `journalctl -o short-iso` prefix (deriveJournal.mjs). */
  journal: 'json-1.36-pleg-fault-held-short-iso.log',
  /** `held` as `journalctl -o json` entries, each line the MESSAGE of one (deriveJournal.mjs). */
  journalJson: 'json-1.36-pleg-fault-held-journal-json.log',
} as const;

export const fixturePath = (name: string): string => new URL(`../fixtures/logs/${name}`, import.meta.url).pathname;
export const fixtureText = (name: string): string => readFileSync(fixturePath(name), 'utf8');

export interface PlegPoint {
  /** 1-based. */
  line: number;
  ms: number;
  agoSeconds: number;
}

export interface ExpectedStretch {
  firstLine: number;
  lastLine: number;
  durationSeconds: number;
  maxLastSeenAgoSeconds: number;
  /** UTC HH:MM:SS of the first and last line's ts. */
  clock: string;
  lastClock: string;
  lines: number;
}

/** A Go duration as the kubelet prints "last seen active" (`3m3.28s`, `1h0m2.5s`), in seconds. */
export function goDurationToSeconds(text: string): number {
  const m = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?$/u.exec(text);
  if (m === null || text === '') throw new Error(`not a Go duration of whole minutes and seconds: ${text}`);
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export function plegPoints(text: string): PlegPoint[] {
  const out: PlegPoint[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.includes('PLEG is not healthy: pleg was last seen active')) return;
    const outer = JSON.parse(raw.slice(raw.indexOf('{'))) as { ts?: unknown; MESSAGE?: unknown };
    // A journalctl -o json entry carries the kubelet's line as its MESSAGE.
    const obj = (typeof outer.MESSAGE === 'string' ? JSON.parse(outer.MESSAGE) : outer) as { ts: unknown };
    if (typeof obj.ts !== 'number') throw new Error(`line ${i + 1} has no numeric ts`);
    const ago = /pleg was last seen active (\S+) ago/u.exec(raw)?.[1];
    if (ago === undefined) throw new Error(`line ${i + 1} names no "last seen active" duration`);
    out.push({ line: i + 1, ms: obj.ts, agoSeconds: goDurationToSeconds(ago) });
  });
  return out;
}

const micro = (s: number): number => Math.round(s * 1e6) / 1e6;
const utcClock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

export function expectedStretches(points: readonly PlegPoint[], gapSeconds = 60): ExpectedStretch[] {
  const groups: PlegPoint[][] = [];
  for (const p of points) {
    const cur = groups[groups.length - 1];
    const prev = cur?.[cur.length - 1];
    if (cur !== undefined && prev !== undefined && p.ms - prev.ms <= gapSeconds * 1000) cur.push(p);
    else groups.push([p]);
  }
  return groups.map((g) => {
    const first = g[0] as PlegPoint;
    const last = g[g.length - 1] as PlegPoint;
    return {
      firstLine: first.line,
      lastLine: last.line,
      durationSeconds: micro((last.ms - first.ms) / 1000),
      maxLastSeenAgoSeconds: micro(Math.max(...g.map((p) => p.agoSeconds))),
      clock: utcClock(first.ms),
      lastClock: utcClock(last.ms),
      lines: g.length,
    };
  });
}
