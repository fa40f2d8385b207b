// The Prometheus text exposition format 0.0.4, which is what the kubelet's /metrics serves (~130 KB on a
// small node, several MB on a big one). One pass over the lines scans samples in place (prometheusSample.ts)
// and collects the HELP/TYPE declarations; a second pass over the samples groups them into families. Two
// passes because real bodies (and hand-written demo bodies) may put a sample before its TYPE line, and a
// histogram's `_bucket` samples can only be attributed to their family once its TYPE is known. Anything
// that does not fit throws PrometheusTextError with the line: syntax errors of the first pass before any
// error of the second, each pass in line order.

import type { Declaration } from './prometheusLine';
import { PrometheusTextError, parseComment, parsePrometheusFloat } from './prometheusLine';
import { SampleScanner, sameSeries } from './prometheusSample';
import type { MetricFamily, Sample } from './prometheusTypes';

// Callers catch the error and read floats through this module, where the format's entry point is.
export { PrometheusTextError, parsePrometheusFloat };

export type { MetricFamily, MetricType, Sample } from './prometheusTypes';

/** What the first pass hands the second: samples with where they were, and names in order of appearance. */
interface Scanned {
  samples: Sample[];
  /** Index of the first sample whose series appeared before, or -1. */
  firstDuplicate: number;
  /** Distinct names in order of first appearance, as a declaration or as a sample (they group differently). */
  order: { name: string; declared: boolean }[];
  declarations: Map<string, Declaration>;
}

/** Parses the whole exposition text into families, in the order their first line appeared. */
export function parsePrometheusText(text: string): MetricFamily[] {
  return groupFamilies(text, scan(text));
}

function scan(text: string): Scanned {
  const declarations = new Map<string, Declaration>();
  const scanned: Scanned = { samples: [], firstDuplicate: -1, order: [], declarations };
  const scanner = new SampleScanner(text);
  const series = new SeriesTable();
  const sampleNames = new Set<string>();
  let lastName = '';
  let lineNo = 0;
  for (let lineStart = 0; ; ) {
    let end = text.indexOf('\n', lineStart);
    if (end === -1) end = text.length;
    lineNo++;
    const start = firstNonBlank(text, lineStart, end);
    const first = start < end ? text.charCodeAt(start) : -1;
    if (first === 35) {
      // '#': comments are a few hundred lines per body; they get a substring and plain string code.
      const line = text.slice(lineStart, end);
      const declared = parseComment(line, start - lineStart + 1, lineNo, declarations);
      if (declared !== undefined) scanned.order.push({ name: declared, declared: true });
    } else if (isSampleStart(text, start, end)) {
      const sample = scanner.scan(start, end, lineStart, lineNo);
      if (series.isDuplicate(scanner.seriesHash, sample, scanned.samples) && scanned.firstDuplicate === -1) {
        scanned.firstDuplicate = scanned.samples.length;
      }
      // Names are interned by the scanner, so the common case (same name as the line before) is one compare.
      if (sample.name !== lastName) {
        lastName = sample.name;
        if (!sampleNames.has(lastName)) {
          sampleNames.add(lastName);
          scanned.order.push({ name: lastName, declared: false });
        }
      }
      scanned.samples.push(sample);
    }
    if (end === text.length) break;
    lineStart = end + 1;
  }
  return scanned;
}

function firstNonBlank(text: string, from: number, end: number): number {
  let p = from;
  for (let c = text.charCodeAt(p); p < end && (c === 32 || c === 9); c = text.charCodeAt(++p));
  return p;
}

/** Whether a line whose first non-blank character is at `start` holds a sample: not blank, not `#`, not a lone CR. */
function isSampleStart(text: string, start: number, end: number): boolean {
  if (start >= end) return false;
  const first = text.charCodeAt(start);
  return first !== 35 && !(first === 13 && start === end - 1);
}

function isSampleLine(text: string, lineStart: number, end: number): boolean {
  return isSampleStart(text, firstNonBlank(text, lineStart, end), end);
}

/**
 * The series seen so far, for the duplicate check: an open-addressing table of sample indexes keyed by the
 * scanner's series hash, in two typed arrays (a Map or a Set of string keys for ~50,000 series was a fifth
 * of the parse, most of it garbage collection). A hash match is confirmed with sameSeries.
 */
class SeriesTable {
  private hashes = new Int32Array(1024);
  private indexes = new Int32Array(1024); // sample index + 1; 0 = empty slot
  private size = 0;

  /** Whether `sample` repeats a series among `samples`; records it (as index samples.length) when it does not. */
  isDuplicate(hash: number, sample: Sample, samples: readonly Sample[]): boolean {
    const mask = this.indexes.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = this.indexes[slot] as number;
      if (stored === 0) {
        this.hashes[slot] = hash;
        this.indexes[slot] = samples.length + 1;
        if (++this.size * 2 > this.indexes.length) this.grow();
        return false;
      }
      if (this.hashes[slot] === hash && sameSeries(samples[stored - 1] as Sample, sample)) return true;
    }
  }

  private grow(): void {
    const { hashes, indexes } = this;
    this.hashes = new Int32Array(indexes.length * 2);
    this.indexes = new Int32Array(indexes.length * 2);
    const mask = this.indexes.length - 1;
    for (let i = 0; i < indexes.length; i++) {
      const stored = indexes[i] as number;
      if (stored === 0) continue;
      const hash = hashes[i] as number;
      let slot = hash & mask;
      while (this.indexes[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hash;
      this.indexes[slot] = stored;
    }
  }
}

/** The family a sample name belongs to, given every TYPE in the text. */
function familyOf(name: string, declarations: Map<string, Declaration>): string {
  if (declarations.get(name)?.type !== undefined) return name;
  const suffix = /_(bucket|sum|count)$/.exec(name);
  if (suffix !== null) {
    const base = name.slice(0, suffix.index);
    const baseType = declarations.get(base)?.type;
    if (baseType === 'histogram') return base;
    if (baseType === 'summary' && suffix[1] !== 'bucket') return base;
  }
  return name;
}

/** What the shape check must verify for samples of one name. */
const enum Role {
  Free,
  HistogramBucket,
  HistogramBare,
  SummaryQuantile,
}

interface NameInfo {
  family: MetricFamily;
  role: Role;
}

function roleOf(name: string, family: MetricFamily): Role {
  if (family.type === 'histogram') {
    if (name === `${family.name}_bucket`) return Role.HistogramBucket;
    if (name === family.name) return Role.HistogramBare;
  } else if (family.type === 'summary' && name === family.name) return Role.SummaryQuantile;
  return Role.Free;
}

function groupFamilies(text: string, scanned: Scanned): MetricFamily[] {
  const { declarations } = scanned;
  const families = new Map<string, MetricFamily>();
  const familyFor = (familyName: string): MetricFamily => {
    let family = families.get(familyName);
    if (family === undefined) {
      const declaration = declarations.get(familyName);
      family = { name: familyName, type: declaration?.type ?? 'untyped', samples: [] };
      if (declaration?.help !== undefined) family.help = declaration.help;
      families.set(familyName, family);
    }
    return family;
  };
  // A /metrics has thousands of samples but a few hundred names: resolve each name once, in the order the
  // names first appeared, which is also the order the families first appear.
  const infoByName = new Map<string, NameInfo>();
  for (const { name, declared } of scanned.order) {
    if (declared) {
      familyFor(name);
      continue;
    }
    const family = familyFor(familyOf(name, declarations));
    infoByName.set(name, { family, role: roleOf(name, family) });
  }
  const { samples, firstDuplicate } = scanned;
  let lastName = '';
  let info: NameInfo | undefined;
  for (let i = 0; i < samples.length; i++) {
    const sample = samples[i] as Sample;
    if (sample.name !== lastName || info === undefined) {
      lastName = sample.name;
      info = infoByName.get(lastName) as NameInfo;
    }
    if (info.role !== Role.Free) checkSampleShape(info, sample, text, i);
    if (i === firstDuplicate) {
      shapeError(text, i, `duplicate series ${sample.name}`);
    }
    info.family.samples.push(sample);
  }
  return [...families.values()];
}

function checkSampleShape(info: NameInfo, sample: Sample, text: string, index: number): void {
  if (info.role === Role.HistogramBucket) {
    const le = sample.labels['le'];
    if (le === undefined) shapeError(text, index, `histogram bucket ${sample.name} has no "le" label`);
    const bound = parsePrometheusFloat(le);
    if (bound === undefined || Number.isNaN(bound)) shapeError(text, index, `invalid bucket bound le="${le}"`);
  } else if (info.role === Role.HistogramBare) {
    shapeError(text, index, `sample of histogram ${info.family.name} must end in _bucket, _sum or _count`);
  } else {
    const quantile = sample.labels['quantile'];
    if (quantile === undefined || parsePrometheusFloat(quantile) === undefined) {
      shapeError(text, index, `summary sample ${sample.name} needs a numeric "quantile" label`);
    }
  }
}

/**
 * Throws for the `index`-th sample line. Where it is, and its number, are found now by reading the lines
 * again as the first pass did (errors are rare; remembering every sample's line costs every parse).
 */
function shapeError(text: string, index: number, reason: string): never {
  let remaining = index;
  let lineNo = 0;
  for (let lineStart = 0; ; ) {
    let end = text.indexOf('\n', lineStart);
    if (end === -1) end = text.length;
    lineNo++;
    if (isSampleLine(text, lineStart, end) && remaining-- === 0) throw new PrometheusTextError(lineNo, reason, text.slice(lineStart, end));
    if (end === text.length) throw new Error(`no sample line ${index} in the text`);
    lineStart = end + 1;
  }
}
