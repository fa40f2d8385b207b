// The fast reader of the common header (klogFastHeader.ts) against the general path's regexes:
// wherever the fast reader answers, the message, time, clock and pid are the general path's. Lines are
// built from headers whose every field may be odd (widths, digits, unknown months, tabs, non-ASCII
// bytes, Unicode spaces, brackets and colons where they should not be), so both the cases the fast
// reader takes and the ones it must leave to the general path are exercised.
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { readFastHeader } from '../../../../src/core/parse/klogFastHeader';
import { classifyLogLine, readLineFast, readLineGeneral } from '../../../../src/core/parse/logReaderLine';

/** Characters that sit at field borders or that the regexes treat specially (\s, \S, \d outside ASCII). */
const ODD = [' ', '  ', '\t', ':', '[', ']', '.', '{', '"', '\u00a0', '\u2028', '\u3000', 'é', '٣', '\u0001', '\r', 'x', '0', '9'];
const odd = fc.constantFrom(...ODD);
/** Mostly a well-formed field, sometimes anything: about a fifth of the lines are ones the fast reader takes. */
const field = (good: fc.Arbitrary<string>, weight = 40): fc.Arbitrary<string> =>
  fc.oneof({ arbitrary: good, weight }, { arbitrary: fc.string({ maxLength: 4 }), weight: 1 }, { arbitrary: odd, weight: 1 });

const digits = (min: number, max: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`, 'u'));
/** Two digits, mostly in [min, max], often at or just past a border (an invalid time falls back), now and then 1 or 3 digits. */
const two = (min: number, max: number): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.integer({ min, max }).map((n) => String(n).padStart(2, '0')), weight: 30 },
    { arbitrary: fc.constantFrom(min, max, min - 1, max + 1, 99).map((n) => String(Math.max(0, n)).padStart(2, '0')), weight: 10 },
    { arbitrary: digits(1, 3), weight: 1 },
  );
const word = (chars: string): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^[${chars}]{1,12}$`, 'u'));

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const month = fc.oneof({ arbitrary: fc.constantFrom(...MONTHS), weight: 30 }, { arbitrary: fc.stringMatching(/^[A-Z][a-z]{2}$/u), weight: 1 }, { arbitrary: fc.constantFrom('Fri', 'nov', 'NOV', 'Ma'), weight: 1 });

const journald = fc
  .record({
    month,
    gap: field(fc.constantFrom(' ', '  ')),
    day: field(fc.oneof(digits(1, 2), fc.constant('22'))),
    hh: field(two(0, 23)),
    mm: field(two(0, 59)),
    ss: field(two(0, 60)),
    frac: fc.oneof({ arbitrary: fc.constant(''), weight: 10 }, { arbitrary: digits(1, 9).map((d) => `.${d}`), weight: 10 }, { arbitrary: fc.constant('.'), weight: 1 }),
    sep: field(fc.constant(' ')),
    host: field(word('a-zA-Z0-9._:\\[\\]-')),
    ident: field(fc.oneof({ arbitrary: fc.constant('kubelet'), weight: 10 }, { arbitrary: word('a-zA-Z0-9._-'), weight: 5 }, { arbitrary: word('a-z:\\[\\]'), weight: 1 })),
    pid: fc.oneof({ arbitrary: fc.constant(''), weight: 5 }, { arbitrary: digits(1, 8).map((d) => `[${d}]`), weight: 20 }, { arbitrary: fc.constant('[]'), weight: 1 }),
    colon: field(fc.constant(': ')),
  })
  .map((p) => `${p.month}${p.gap}${p.day} ${p.hh}:${p.mm}:${p.ss}${p.frac}${p.sep}${p.host} ${p.ident}${p.pid}${p.colon}`);

const klog = fc
  .record({
    sev: fc.oneof({ arbitrary: fc.constantFrom('I', 'W', 'E', 'F'), weight: 30 }, { arbitrary: fc.constantFrom('X', 'i', 'D', '{'), weight: 1 }),
    mo: field(two(1, 12)),
    dd: field(two(1, 31)),
    hh: field(two(0, 23)),
    mi: field(two(0, 59)),
    ss: field(two(0, 60)),
    micros: field(digits(6, 6)),
    spaces: field(fc.constantFrom(' ', '   ', '    ')),
    pid: field(digits(1, 18)),
    file: field(word('a-zA-Z0-9._/:-')),
    lineNo: field(digits(1, 5)),
    close: field(fc.constantFrom('] ', ']', ']  ')),
  })
  .map((k) => `${k.sev}${k.mo}${k.dd} ${k.hh}:${k.mi}:${k.ss}.${k.micros}${k.spaces}${k.pid} ${k.file}:${k.lineNo}${k.close}`);

/** Messages the reader tracks (so classifyLogLine does its full work), structured, plain or odd. */
const body = fc.oneof(
  fc.constantFrom(
    '"Skipping pod synchronization" err="[container runtime is down, PLEG is not healthy: pleg was last seen active 3m3.143817273s ago; threshold is 3m0s]"',
    '"Kubelet version" kubeletVersion="v1.32.10"',
    'Version: v1.13.4',
    '"GenericPLEG: Unable to retrieve pods" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded"',
    '"Housekeeping took longer than expected" err="housekeeping took too long" expected="1s" actual="2m0.001s"',
    'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s',
    '{"msg":"Skipping pod synchronization","err":"container runtime is down"}',
    '',
  ),
  fc.string({ maxLength: 30 }),
);

const line = fc.tuple(fc.oneof(fc.constant(''), journald), klog, body).map(([p, k, b]) => `${p}${k}${b}`);

describe('readFastHeader', () => {
  test.prop([line], { numRuns: 5000 })('agrees with the general path wherever it answers', (l) => {
    const fast = readLineFast(l);
    if (fast !== undefined) expect(fast).toStrictEqual(readLineGeneral(l));
  });

  test.prop([fc.oneof(fc.string({ maxLength: 120 }), line.map((l) => l.slice(0, 40)))], { numRuns: 3000 })('agrees on any text, cut headers included', (l) => {
    const fast = readLineFast(l);
    if (fast !== undefined) expect(fast).toStrictEqual(readLineGeneral(l));
  });

  test.prop([fc.oneof(fc.constant(''), journald), klog, body], { numRuns: 300 })('classifyLogLine gives the general path’s facts', (p, k, b) => {
    // The same line through the general path alone: a prefix the fast reader cannot take (a leading
    // space is no collector prefix and no klog header) would change the facts, so compare read parts.
    const l = `${p}${k}${b}`;
    const facts = classifyLogLine(l);
    const general = readLineGeneral(l);
    if (facts !== undefined) {
      expect(facts.pid).toBe(general.pid);
      expect(facts.clock).toBe(general.clock);
      expect(facts.time).toStrictEqual(general.time);
    }
  });

  it('takes the common shapes (journald short and short-precise, bare klog, single-digit days, odd hosts)', () => {
    const lines = [
      'Nov 22 02:59:17.042625 pleg-node kubelet[31657]: I1122 02:59:17.042625   31657 server.go:495] "Kubelet version" kubeletVersion="v1.32.10"',
      'Nov 22 02:59:17 pleg-node kubelet[31657]: E1122 02:59:17.259543   31657 kubelet.go:2273] "Skipping pod synchronization"',
      'Feb  2 03:00:44 node kubelet[9]: W0202 03:00:44.000001 9 pleg/generic.go:1] msg',
      'Feb 2 03:00:44.5 node kubelet: W0202 03:00:44.000001 9 a:b:12]',
      'Fri 22 02:59:17 nöde: kubelet[1]: I1122 02:59:17.042625\t1 a.go:1] unknown month, odd host, a tab',
      'I1122 02:59:17.042625   31657 server.go:495] Version: v1.13.4',
      'F0229 23:59:60.999999 1234567890123456789 x.go:1]no space after the bracket',
    ];
    for (const l of lines) {
      expect(readFastHeader(l), l).toBeDefined();
      expect(readLineFast(l), l).toStrictEqual(readLineGeneral(l));
    }
  });

  it('reads the time, clock, pid and message start from the klog header', () => {
    const l = 'Feb  2 03:00:44.5 node kubelet[9]: W1202 13:00:44.000001   77 a.go:1] x';
    expect(readFastHeader(l)).toStrictEqual({
      klogAt: l.indexOf('W1202'),
      bodyAt: l.length - 1,
      pid: 77,
      pidAt: l.indexOf(' 77 ') + 1,
      pidEnd: l.indexOf(' 77 ') + 3,
      clock: '13:00:44',
      time: { month: 12, day: 2, hour: 13, minute: 0, second: 44, micros: 1 },
    });
  });

  it('leaves other shapes to the general path', () => {
    for (const l of [
      // An impossible klog time: the general path falls back to the prefix's time.
      'Feb  2 03:00:44.5 node kubelet[9]: W1302 03:00:44.000001 77 a.go:1] x',
      'Nov 22 02:59:17 node kubelet[1]: plain text',
      'Nov 22 02:59:17 node kubelet[1] I1122 02:59:17.042625 1 a.go:1] no colon after the ident',
      'I1122 02:59:17.0426251 1 a.go:1] seven digits',
      'I1122 02:59:17.042625 1 a.go] no line number',
      '2024-11-22T02:59:17.042625Z stderr F I1122 02:59:17.042625 1 a.go:1] x',
      '{"ts":1,"msg":"x"}',
      '',
    ]) {
      expect(readFastHeader(l), l).toBeUndefined();
    }
  });
});
