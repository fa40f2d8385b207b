// One systemd journal file, read object by object: the header, the chain of entry arrays, each entry's
// items and the data objects they point to. Pure: the bytes come from a ByteSource (a Buffer in tests, a
// positional file reader in src/infra/journal), so a 128 MB archived file is never held in memory.
//
// The layout is systemd's own, src/libsystemd/sd-journal/journal-def.h (struct Header, ObjectHeader,
// DataObject, EntryObject, EntryArrayObject) and docs/JOURNAL_FILE_FORMAT.md; every offset below is the
// C struct's, little-endian. docs/journal-file-format.md lists the facts used here with their sources.

/** Positional reads of a journal file: `length` bytes at `offset`, fewer only at the end of the file. */
export interface ByteSource {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
}

/** A file that is not a journal, or a journal that contradicts itself: names the file's offset. */
export class JournalFormatError extends Error {
  override readonly name = 'JournalFormatError';
}

/** journal-def.h HEADER_SIGNATURE. */
const SIGNATURE = 'LPKSHHRH';

/** journal-def.h ObjectType. */
export const OBJECT_DATA = 1;
export const OBJECT_ENTRY = 3;
export const OBJECT_ENTRY_ARRAY = 6;

/** journal-def.h HEADER_INCOMPATIBLE_*: a reader must refuse a file with a bit it does not know. */
const INCOMPATIBLE_COMPRESSED_XZ = 1 << 0;
const INCOMPATIBLE_COMPRESSED_LZ4 = 1 << 1;
const INCOMPATIBLE_KEYED_HASH = 1 << 2;
const INCOMPATIBLE_COMPRESSED_ZSTD = 1 << 3;
const INCOMPATIBLE_COMPACT = 1 << 4;
const INCOMPATIBLE_KNOWN = INCOMPATIBLE_COMPRESSED_XZ | INCOMPATIBLE_COMPRESSED_LZ4 | INCOMPATIBLE_KEYED_HASH | INCOMPATIBLE_COMPRESSED_ZSTD | INCOMPATIBLE_COMPACT;

/** journal-def.h OBJECT_COMPRESSED_*: the flags byte of an object header. */
export type Compression = 'xz' | 'lz4' | 'zstd';
function compressionOf(flags: number): Compression | undefined {
  if (flags & 4) return 'zstd';
  if (flags & 2) return 'lz4';
  if (flags & 1) return 'xz';
  return undefined;
}

/** sizeof(ObjectHeader): type, flags, 6 reserved bytes, le64 size. */
const OBJECT_HEADER_SIZE = 16;
/** The end of Header.tail_entry_monotonic, the last field every supported writer has (systemd 187+ adds more). */
const MIN_HEADER_SIZE = 208;

export type JournalState = 'offline' | 'online' | 'archived';
const STATES: Record<number, JournalState> = { 0: 'offline', 1: 'online', 2: 'archived' };

export interface JournalHeader {
  incompatibleFlags: number;
  /** HEADER_INCOMPATIBLE_COMPACT (systemd 252+): 32-bit offsets in entries and entry arrays. */
  compact: boolean;
  state: JournalState;
  /** Header.seqnum_id as 32 hex digits: entries of files with the same one are ordered by seqnum. */
  seqnumId: string;
  headerSize: number;
  arenaSize: number;
  nEntries: number;
  entryArrayOffset: number;
}

function u64(b: Uint8Array, at: number): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new JournalFormatError(`a 64-bit field at +${at} is beyond 2^53 (${v})`);
  return Number(v);
}
function u32(b: Uint8Array, at: number): number {
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(at, true);
}
function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

function readExactly(src: ByteSource, offset: number, length: number, what: string): Uint8Array {
  if (offset < 0 || offset + length > src.size) throw new JournalFormatError(`${what} at offset ${offset} (+${length} bytes) is past the end of the file (${src.size} bytes)`);
  const b = src.read(offset, length);
  if (b.byteLength < length) throw new JournalFormatError(`${what} at offset ${offset}: short read (${b.byteLength} of ${length} bytes)`);
  return b;
}

/** Header (journal-def.h struct Header); refuses a non-journal and a journal with features it cannot read. */
export function readHeader(src: ByteSource): JournalHeader {
  const b = readExactly(src, 0, MIN_HEADER_SIZE, 'the header');
  const signature = String.fromCharCode(...b.subarray(0, 8));
  if (signature !== SIGNATURE) throw new JournalFormatError(`not a journal file (signature ${JSON.stringify(signature)}, expected "${SIGNATURE}")`);
  const incompatibleFlags = u32(b, 12);
  const unknown = incompatibleFlags & ~INCOMPATIBLE_KNOWN;
  if (unknown !== 0) throw new JournalFormatError(`the file uses incompatible features this reader does not know (flags 0x${unknown.toString(16)})`);
  const state = STATES[b[16] as number];
  if (state === undefined) throw new JournalFormatError(`unknown file state ${b[16]}`);
  const headerSize = u64(b, 88);
  if (headerSize < MIN_HEADER_SIZE) throw new JournalFormatError(`header size ${headerSize} is below ${MIN_HEADER_SIZE}`);
  return {
    incompatibleFlags,
    compact: (incompatibleFlags & INCOMPATIBLE_COMPACT) !== 0,
    state,
    seqnumId: hex(b.subarray(72, 88)),
    headerSize,
    arenaSize: u64(b, 96),
    nEntries: u64(b, 152),
    entryArrayOffset: u64(b, 176),
  };
}

/** An object's header, checked: the type asked for, a size that fits the object's fixed part and the file. */
function objectAt(src: ByteSource, offset: number, type: number, minSize: number): { flags: number; size: number } {
  // journal-file.c journal_file_move_to_object: objects are 8-byte aligned and lie after the header.
  if (offset % 8 !== 0 || offset < MIN_HEADER_SIZE) throw new JournalFormatError(`object offset ${offset} is not a valid object offset`);
  const h = readExactly(src, offset, OBJECT_HEADER_SIZE, 'an object header');
  const size = u64(h, 8);
  if (h[0] !== type) throw new JournalFormatError(`object at offset ${offset} has type ${h[0]}, expected ${type}`);
  if (size < minSize) throw new JournalFormatError(`object at offset ${offset} has size ${size}, below the ${minSize} bytes of its type`);
  if (offset + size > src.size) throw new JournalFormatError(`object at offset ${offset} (${size} bytes) runs past the end of the file (${src.size} bytes)`);
  return { flags: h[1] as number, size };
}

export interface EntryHead {
  offset: number;
  seqnum: number;
  /** Microseconds since the epoch (EntryObject.realtime): what --since/--until compare. */
  realtime: number;
  monotonic: number;
  bootId: string;
  /** EntryObject.xor_hash: the last tie-break between files (sd-journal.c compare_locations). */
  xorHash: bigint;
  /** Offsets of the entry's data objects, in the file's order. */
  items: number[];
}

/** sizeof(EntryObject) before its items: header, seqnum, realtime, monotonic, boot_id, xor_hash. */
const ENTRY_FIXED = 64;

export function readEntry(src: ByteSource, header: JournalHeader, offset: number): EntryHead {
  const { size } = objectAt(src, offset, OBJECT_ENTRY, ENTRY_FIXED);
  const b = readExactly(src, offset, size, 'an entry');
  const itemSize = header.compact ? 4 : 16;
  const n = Math.floor((size - ENTRY_FIXED) / itemSize);
  const items: number[] = [];
  for (let i = 0; i < n; i++) {
    const at = ENTRY_FIXED + i * itemSize;
    // Compact: le32 object_offset; regular: le64 object_offset then le64 hash.
    items.push(header.compact ? u32(b, at) : u64(b, at));
  }
  return {
    offset,
    seqnum: u64(b, 16),
    realtime: u64(b, 24),
    monotonic: u64(b, 32),
    bootId: hex(b.subarray(40, 56)),
    xorHash: new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(56, true),
    items,
  };
}

/** Just the realtime of an entry: the window test reads 8 bytes, not the whole entry. */
export function readEntryRealtime(src: ByteSource, offset: number): number {
  objectAt(src, offset, OBJECT_ENTRY, ENTRY_FIXED);
  return u64(readExactly(src, offset + 24, 8, 'an entry realtime'), 0);
}

/**
 * The file's entry arrays in order, each as the entry offsets it holds: the chain from
 * Header.entry_array_offset. Each array has (size - 24) / item-size slots (le32 in compact files, le64
 * otherwise); unused trailing slots are 0; Header.n_entries says how many are in use in all.
 */
export function* entryArrays(src: ByteSource, header: JournalHeader): Generator<number[]> {
  const itemSize = header.compact ? 4 : 8;
  let remaining = header.nEntries;
  let next = header.entryArrayOffset;
  const seen = new Set<number>();
  while (next !== 0 && remaining > 0) {
    if (seen.has(next)) throw new JournalFormatError(`the entry array chain loops at offset ${next}`);
    seen.add(next);
    const { size } = objectAt(src, next, OBJECT_ENTRY_ARRAY, 24);
    const b = readExactly(src, next, size, 'an entry array');
    const slots = Math.floor((size - 24) / itemSize);
    const offsets: number[] = [];
    for (let i = 0; i < slots && remaining > 0; i++) {
      const off = header.compact ? u32(b, 24 + i * 4) : u64(b, 24 + i * 8);
      if (off === 0) break;
      remaining--;
      offsets.push(off);
    }
    yield offsets;
    next = u64(b, 16);
  }
}

/**
 * Where, in entries ordered by time, the first with a realtime at or after `sinceUsec` is: a bisection on
 * the entries' realtime, as journalctl's --since seeks (sd-journal.c generic_array_bisect over the entry
 * arrays).
 */
export function firstAtOrAfter(src: ByteSource, offsets: readonly number[], sinceUsec: number): number {
  let lo = 0;
  let hi = offsets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (readEntryRealtime(src, offsets[mid] as number) < sinceUsec) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A data object's payload ("FIELD=value", raw bytes), or what compressed it when it is compressed. */
export type DataPayload = { kind: 'plain'; bytes: Uint8Array } | { kind: 'compressed'; compression: Compression };

/** DataObject: the payload starts at 64, or at 72 in compact files (tail_entry_array_offset and _n_entries come first). */
export function readData(src: ByteSource, header: JournalHeader, offset: number): DataPayload {
  const payloadAt = header.compact ? 72 : 64;
  const { flags, size } = objectAt(src, offset, OBJECT_DATA, payloadAt);
  const compression = compressionOf(flags);
  if (compression !== undefined) return { kind: 'compressed', compression };
  return { kind: 'plain', bytes: readExactly(src, offset + payloadAt, size - payloadAt, 'a data payload') };
}
