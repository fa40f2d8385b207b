// The Prometheus text exposition format 0.0.4, which is what the kubelet's /metrics serves (~130 KB on a
// small node). One pass over the lines collects samples and the HELP/TYPE declarations; a second pass over
// the samples groups them into families. Two passes because real bodies (and hand-written demo bodies) may
// put a sample before its TYPE line, and a histogram's `_bucket` samples can only be attributed to their
// family once its TYPE is known. Anything that does not fit throws PrometheusTextError with the line.

import type { Declaration } from './prometheusLine';
import { PrometheusTextError, parseComment, parsePrometheusFloat, parseSampleLine, skipBlanks } from './prometheusLine';

// Callers catch the error and read floats through this module, where the format's entry point is.
export { PrometheusTextError, parsePrometheusFloat };

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name, e.g. `x_bucket` inside the histogram family `x`. */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
  /** Milliseconds since the epoch, when the line carried a timestamp. */
  timestampMs?: number;
}

export interface MetricFamily {
  name: string;
  type: MetricType;
  help?: string;
  /** In the order the text listed them. */
  samples: Sample[];
}

interface RawSample {
  sample: Sample;
  line: number;
  text: string;
}

/** Parses the whole exposition text into families, in the order their first line appeared. */
export function parsePrometheusText(text: string): MetricFamily[] {
  const declarations = new Map<string, Declaration>();
  // Names in order of first appearance (declaration or sample), resolved to families afterwards.
  const firstSeen: { name: string; raw?: RawSample }[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const lineNo = index + 1;
    const start = skipBlanks(line, 0);
    if (start === line.length || (line[start] === '\r' && start === line.length - 1)) continue;
    if (line[start] === '#') {
      const declared = parseComment(line, start + 1, lineNo, declarations);
      if (declared !== undefined) firstSeen.push({ name: declared });
      continue;
    }
    const raw: RawSample = { sample: parseSampleLine(line, start, lineNo), line: lineNo, text: line };
    firstSeen.push({ name: raw.sample.name, raw });
  }
  return groupFamilies(firstSeen, declarations);
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

function groupFamilies(firstSeen: { name: string; raw?: RawSample }[], declarations: Map<string, Declaration>): MetricFamily[] {
  const families = new Map<string, MetricFamily>();
  const seriesKeys = new Set<string>();
  // A /metrics has thousands of samples but a few hundred names: resolve each name once.
  const familyByName = new Map<string, string>();
  for (const { name, raw } of firstSeen) {
    let familyName = name;
    if (raw !== undefined) {
      const known = familyByName.get(name);
      familyName = known ?? familyOf(name, declarations);
      if (known === undefined) familyByName.set(name, familyName);
    }
    let family = families.get(familyName);
    if (family === undefined) {
      const declaration = declarations.get(familyName);
      family = { name: familyName, type: declaration?.type ?? 'untyped', samples: [] };
      if (declaration?.help !== undefined) family.help = declaration.help;
      families.set(familyName, family);
    }
    if (raw === undefined) continue;
    checkSampleShape(family, raw);
    const key = seriesKey(raw.sample);
    if (seriesKeys.has(key)) throw new PrometheusTextError(raw.line, `duplicate series ${raw.sample.name}`, raw.text);
    seriesKeys.add(key);
    family.samples.push(raw.sample);
  }
  return [...families.values()];
}

function checkSampleShape(family: MetricFamily, raw: RawSample): void {
  const { sample } = raw;
  if (family.type === 'histogram') {
    if (sample.name === `${family.name}_bucket`) {
      const le = sample.labels['le'];
      if (le === undefined) throw new PrometheusTextError(raw.line, `histogram bucket ${sample.name} has no "le" label`, raw.text);
      const bound = parsePrometheusFloat(le);
      if (bound === undefined || Number.isNaN(bound)) throw new PrometheusTextError(raw.line, `invalid bucket bound le="${le}"`, raw.text);
    } else if (sample.name === family.name) {
      throw new PrometheusTextError(raw.line, `sample of histogram ${family.name} must end in _bucket, _sum or _count`, raw.text);
    }
  } else if (family.type === 'summary' && sample.name === family.name) {
    const quantile = sample.labels['quantile'];
    if (quantile === undefined || parsePrometheusFloat(quantile) === undefined) {
      throw new PrometheusTextError(raw.line, `summary sample ${sample.name} needs a numeric "quantile" label`, raw.text);
    }
  }
}

function seriesKey(sample: Sample): string {
  const names = Object.keys(sample.labels);
  // Labels usually come sorted; sort only when they do not (the key must not depend on their order).
  for (let i = 1; i < names.length; i++) {
    if ((names[i - 1] as string) > (names[i] as string)) {
      names.sort();
      break;
    }
  }
  // Length-prefixed parts keep the key unambiguous whatever the label values contain.
  let key = `${sample.name.length}:${sample.name}`;
  for (const n of names) {
    const v = sample.labels[n] ?? '';
    key += `|${n.length}:${n}=${v.length}:${v}`;
  }
  return key;
}
