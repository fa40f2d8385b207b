// Names compared the way a person reads them: case ignored, runs of digits compared as numbers
// (node-2 < node-10, node-02 = node-2). Written out rather than taken from Intl.Collator because creating
// a collator loads ICU's collation data, about 8 ms of the extension's activation. For node names (DNS
// subdomains: letters, digits, '-', '.') the order is the collator's (a property test holds it); other
// punctuation, rare in context names, sorts by code point where the collator has its own table.

const isDigit = (code: number): boolean => code >= 48 && code <= 57;

/** The index just past the run of digits that starts at `from`. */
function digitRunEnd(s: string, from: number): number {
  let i = from;
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** Compares two digit runs by value, any length (no parse: 30-digit suffixes must not lose precision). */
function compareDigits(a: string, aStart: number, aEnd: number, b: string, bStart: number, bEnd: number): number {
  while (aStart < aEnd - 1 && a.charCodeAt(aStart) === 48) aStart++;
  while (bStart < bEnd - 1 && b.charCodeAt(bStart) === 48) bStart++;
  const byLength = aEnd - aStart - (bEnd - bStart);
  if (byLength !== 0) return byLength;
  for (; aStart < aEnd; aStart++, bStart++) {
    const d = a.charCodeAt(aStart) - b.charCodeAt(bStart);
    if (d !== 0) return d;
  }
  return 0;
}

/** Negative, zero or positive; zero only for names equal up to case and leading zeros. */
export function naturalCompare(left: string, right: string): number {
  const a = left.toLowerCase();
  const b = right.toLowerCase();
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (isDigit(ca) && isDigit(cb)) {
      const aEnd = digitRunEnd(a, i);
      const bEnd = digitRunEnd(b, j);
      const d = compareDigits(a, i, aEnd, b, j, bEnd);
      if (d !== 0) return d;
      i = aEnd;
      j = bEnd;
      continue;
    }
    if (ca !== cb) return ca - cb;
    i++;
    j++;
  }
  return a.length - i - (b.length - j);
}
