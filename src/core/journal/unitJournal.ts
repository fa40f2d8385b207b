// `journalctl -D DIR -u UNIT --since @S --until @U -o short-precise` over journal files given as byte
// sources: which entries it shows (the unit's matches), in which order (the merge of the files), and the
// lines around them ("-- Boot … --", "-- No entries --"). The sources, each fact with its place in systemd:
// - the unit's matches: src/shared/logs-show.c add_matches_for_unit (four alternatives, below);
// - the order across files: src/libsystemd/sd-journal/sd-journal.c, the next entry is the least by
//   compare_locations (same seqnum_id: seqnum; same boot: monotonic; then realtime; then xor_hash);
// - the window: --since seeks to the first entry whose realtime is at or after it; --until stops at the
//   first whose realtime is past it (src/journal/journalctl.c), both on the entry's own realtime;
// - the boot separator and "-- No entries --": journalctl.c's output loop, which counts every entry it
//   walked (also one output_short skips for having no MESSAGE=).
// A data object journald compressed (xz, lz4, zstd; Node has none of them) cannot be read: an entry of the
// window whose MESSAGE is compressed is counted by compression, never dropped without a word.

import { entryArrays, firstAtOrAfter, JournalFormatError, readData, readEntry, readEntryRealtime, readHeader } from './journalFile';
import type { ByteSource, Compression, EntryHead, JournalHeader } from './journalFile';
import { formatShortPrecise, type LocalTime } from './shortPrecise';

export interface UnitJournalQuery {
  /** A unit name; without a suffix ".service" is meant (unit_name_mangle_with_suffix). */
  unit: string;
  /** Microseconds since the epoch, inclusive. */
  sinceUsec: number;
  untilUsec: number;
  localTime: LocalTime;
}

export interface JournalSource {
  /** The file's name, for messages. */
  name: string;
  src: ByteSource;
}

export type UnitJournalOutput =
  /** Bytes journalctl would print for one entry (its line, and the lines of a multi-line message). */
  | { kind: 'entry'; bytes: Uint8Array }
  /** Bytes journalctl prints between or instead of entries ("-- Boot … --", "-- No entries --"). */
  | { kind: 'text'; bytes: Uint8Array }
  /** An entry of the window whose MESSAGE is compressed: not read. */
  | { kind: 'compressed'; compression: Compression }
  /** A file that could not be read (not a journal, or broken from `entries` on): the rest of it is skipped. */
  | { kind: 'file-error'; file: string; message: string; entriesRead: number }
  /** Every PROGRESS_EVERY entries walked: a point where the caller may look at its clock and its signal. */
  | { kind: 'progress' };

const PROGRESS_EVERY = 2048;

/** coredump's MESSAGE_ID (src/systemd/sd-messages.h SD_MESSAGE_COREDUMP). */
const COREDUMP_MESSAGE_ID = 'fc2e22bc6ee647b6b90729ab34a250b1';

/** "kubelet" → "kubelet.service"; a name that already has a unit suffix is kept. */
export function mangleUnitName(unit: string): string {
  return /\.(service|socket|target|device|mount|automount|swap|timer|path|slice|scope)$/.test(unit) ? unit : `${unit}.service`;
}

/** Every value of every plain field of an entry (a field can occur twice), decoded field names. */
type FieldValues = Map<string, Uint8Array[]>;

const dec = new TextDecoder('latin1');
const enc = new TextEncoder();

function has(fields: FieldValues, name: string, value: string): boolean {
  return (fields.get(name) ?? []).some((v) => v.byteLength === value.length && dec.decode(v) === value);
}

/** add_matches_for_unit: the unit's own processes, its coredumps, PID 1 about it, root daemons about it. */
export function matchesUnit(fields: FieldValues, unit: string): boolean {
  return (
    has(fields, '_SYSTEMD_UNIT', unit) ||
    (has(fields, 'MESSAGE_ID', COREDUMP_MESSAGE_ID) && has(fields, '_UID', '0') && has(fields, 'COREDUMP_UNIT', unit)) ||
    (has(fields, '_PID', '1') && has(fields, 'UNIT', unit)) ||
    (has(fields, '_UID', '0') && has(fields, 'OBJECT_SYSTEMD_UNIT', unit))
  );
}

interface Candidate {
  head: EntryHead;
  fields: FieldValues;
  /** Compressions of the entry's data objects that could not be read. */
  compressed: Compression[];
}

type FileStep = Candidate | { error: string; entriesRead: number } | { progress: true };

/** A data object's field, cached by offset: the fields most entries share (_SYSTEMD_UNIT=…) are read once. */
type ParsedData = { name: string; value: Uint8Array } | { compression: Compression } | undefined;
const CACHE_LIMIT = 20_000;

/** The unit's entries of one file at or after `since`, in the file's order. */
function* fileCandidates(src: ByteSource, header: JournalHeader, unit: string, sinceUsec: number, untilUsec: number): Generator<FileStep> {
  const cache = new Map<number, ParsedData>();
  const dataAt = (offset: number): ParsedData => {
    if (cache.has(offset)) return cache.get(offset);
    const d = readData(src, header, offset);
    let parsed: ParsedData;
    if (d.kind === 'compressed') parsed = { compression: d.compression };
    else {
      const eq = d.bytes.indexOf(0x3d);
      // journal-file.c refuses to store a payload without "=": a broken object, not a field.
      parsed = eq > 0 ? { name: dec.decode(d.bytes.subarray(0, eq)), value: d.bytes.subarray(eq + 1) } : undefined;
    }
    // MESSAGE= objects are mostly used once; the rest are worth keeping.
    if (parsed !== undefined && 'name' in parsed && parsed.name === 'MESSAGE') return parsed;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(offset, parsed);
    return parsed;
  };
  let read = 0;
  let reachedSince = false;
  try {
    for (const array of entryArrays(src, header)) {
      // Until the window starts, an array is skipped whole when its last entry is before it, else entered
      // at the first entry at or after it (a bisection, as journalctl seeks --since).
      let start = 0;
      if (!reachedSince) {
        const last = array[array.length - 1];
        if (last === undefined || readEntryRealtime(src, last) < sinceUsec) {
          read += array.length;
          yield { progress: true };
          continue;
        }
        start = firstAtOrAfter(src, array, sinceUsec);
        read += start;
        reachedSince = true;
      }
      for (let i = start; i < array.length; i++) {
        const offset = array[i] as number;
        read++;
        if (read % PROGRESS_EVERY === 0) yield { progress: true };
        // Past the seek, journalctl walks on without looking at --since again: an entry whose clock went
        // back is shown where the file has it. The first entry past --until ends the file, whatever its
        // unit: its later entries are not read (journalctl stops at the first of the unit's past it).
        if (readEntryRealtime(src, offset) > untilUsec) return;
        const head = readEntry(src, header, offset);
        const fields: FieldValues = new Map();
        const compressed: Compression[] = [];
        for (const item of head.items) {
          const d = dataAt(item);
          if (d === undefined) continue;
          if ('compression' in d) compressed.push(d.compression);
          else {
            const list = fields.get(d.name);
            if (list === undefined) fields.set(d.name, [d.value]);
            else list.push(d.value);
          }
        }
        if (matchesUnit(fields, unit)) yield { head, fields, compressed };
      }
    }
  } catch (err) {
    if (!(err instanceof JournalFormatError)) throw err;
    yield { error: err.message, entriesRead: read };
  }
}

/** sd-journal.c compare_locations, for the k-way merge of files. */
export function compareLocations(a: { seqnumId: string; head: EntryHead }, b: { seqnumId: string; head: EntryHead }): number {
  const cmp = (x: number | bigint, y: number | bigint): number => (x < y ? -1 : x > y ? 1 : 0);
  if (a.seqnumId === b.seqnumId) {
    const r = cmp(a.head.seqnum, b.head.seqnum);
    if (r !== 0) return r;
  }
  if (a.head.bootId === b.head.bootId) {
    const r = cmp(a.head.monotonic, b.head.monotonic);
    if (r !== 0) return r;
  }
  const r = cmp(a.head.realtime, b.head.realtime);
  return r !== 0 ? r : cmp(a.head.xorHash, b.head.xorHash);
}

interface Lane {
  name: string;
  seqnumId: string;
  steps: Generator<FileStep>;
  current?: Candidate;
}

/** The last value of each field: what output_short shows (parse_field keeps the last it saw). */
function lastValues(fields: FieldValues): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [k, v] of fields) out.set(k, v[v.length - 1] as Uint8Array);
  return out;
}

/**
 * journalctl's output for the query, piece by piece: the caller may stop between any two (a byte cap, a
 * deadline, an interrupt). Files that are not journals or break part way are reported and skipped.
 */
export function* unitJournal(sources: readonly JournalSource[], query: UnitJournalQuery): Generator<UnitJournalOutput> {
  const unit = mangleUnitName(query.unit);
  const lanes: Lane[] = [];
  for (const s of sources) {
    let header: JournalHeader;
    try {
      header = readHeader(s.src);
    } catch (err) {
      if (!(err instanceof JournalFormatError)) throw err;
      yield { kind: 'file-error', file: s.name, message: err.message, entriesRead: 0 };
      continue;
    }
    lanes.push({ name: s.name, seqnumId: header.seqnumId, steps: fileCandidates(s.src, header, unit, query.sinceUsec, query.untilUsec) });
  }
  // Moves a file to its next entry of the unit, passing on its progress marks and its error.
  function* advance(lane: Lane): Generator<UnitJournalOutput> {
    for (;;) {
      const next = lane.steps.next();
      if (next.done === true) {
        delete lane.current;
        return;
      }
      const step = next.value;
      if ('progress' in step) yield { kind: 'progress' };
      else if ('error' in step) yield { kind: 'file-error', file: lane.name, message: step.error, entriesRead: step.entriesRead };
      else {
        lane.current = step;
        return;
      }
    }
  }
  for (const lane of lanes) yield* advance(lane);
  let shown = 0;
  let previousBoot: string | undefined;
  let previous: { seqnumId: string; head: EntryHead } | undefined;
  for (;;) {
    let best: Lane | undefined;
    for (const lane of lanes) {
      if (lane.current === undefined) continue;
      if (best === undefined || compareLocations({ seqnumId: lane.seqnumId, head: lane.current.head }, { seqnumId: best.seqnumId, head: (best.current as Candidate).head }) < 0) best = lane;
    }
    if (best === undefined) break;
    const entry = best.current as Candidate;
    const location = { seqnumId: best.seqnumId, head: entry.head };
    yield* advance(best);
    if (entry.head.realtime > query.untilUsec) break;
    // The same entry in two files (a copy of a journal next to its original) is shown once.
    if (previous !== undefined && compareLocations(previous, location) === 0) continue;
    previous = location;
    shown++;
    if (previousBoot !== undefined && previousBoot !== entry.head.bootId) yield { kind: 'text', bytes: enc.encode(`-- Boot ${entry.head.bootId} --\n`) };
    previousBoot = entry.head.bootId;
    const hasMessage = entry.fields.has('MESSAGE');
    if (!hasMessage && entry.compressed.length > 0) {
      yield { kind: 'compressed', compression: entry.compressed[0] as Compression };
      continue;
    }
    const bytes = formatShortPrecise(lastValues(entry.fields), entry.head.realtime, query.localTime);
    if (bytes !== undefined) yield { kind: 'entry', bytes };
  }
  if (shown === 0) yield { kind: 'text', bytes: enc.encode('-- No entries --\n') };
}
