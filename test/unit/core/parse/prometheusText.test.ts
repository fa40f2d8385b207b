import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MetricFamily } from '../../../../src/core/parse/prometheusText';
import { PrometheusTextError, parsePrometheusText } from '../../../../src/core/parse/prometheusText';
import { formatPrometheusText } from '../../../../src/core/parse/prometheusFormat';

const fixture = (name: string): string => readFileSync(new URL(`../../../fixtures/real-kubelet-1.32/${name}`, import.meta.url), 'utf8');

function family(families: MetricFamily[], name: string): MetricFamily {
  const found = families.find((f) => f.name === name);
  if (found === undefined) throw new Error(`no family ${name}`);
  return found;
}

function errorOf(text: string): PrometheusTextError {
  try {
    parsePrometheusText(text);
  } catch (err) {
    expect(err).toBeInstanceOf(PrometheusTextError);
    return err as PrometheusTextError;
  }
  throw new Error('expected a PrometheusTextError');
}

describe('parsePrometheusText: the format', () => {
  it('reads HELP and TYPE of every kind and groups histogram and summary samples under their family', () => {
    const families = parsePrometheusText(
      [
        '# HELP c_total A counter.',
        '# TYPE c_total counter',
        'c_total{op="a"} 3',
        '# TYPE g gauge',
        'g 1.795316443e+09',
        '# TYPE h histogram',
        'h_bucket{le="0.5"} 1',
        'h_bucket{le="+Inf"} 2',
        'h_sum 7.5',
        'h_count 2',
        '# TYPE s summary',
        's{quantile="0.99"} 4',
        's_sum 9',
        's_count 3',
        '# TYPE u untyped',
        'u 5',
      ].join('\n'),
    );
    expect(families.map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['c_total', 'counter', 1],
      ['g', 'gauge', 1],
      ['h', 'histogram', 4],
      ['s', 'summary', 3],
      ['u', 'untyped', 1],
    ]);
    expect(family(families, 'c_total').help).toBe('A counter.');
    expect(family(families, 'g').samples[0]?.value).toBe(1795316443);
    expect(family(families, 'h').samples.map((s) => s.name)).toEqual(['h_bucket', 'h_bucket', 'h_sum', 'h_count']);
    expect(family(families, 'h').samples[1]?.labels).toEqual({ le: '+Inf' });
  });

  it('decodes the three label-value escapes and HELP escapes', () => {
    const [f] = parsePrometheusText('# HELP m line one\\nback\\\\slash \\q kept\nm{path="C:\\\\dir",quote="say \\"hi\\"",nl="a\\nb"} 1\n');
    expect(f?.help).toBe('line one\nback\\slash \\q kept');
    expect(f?.samples[0]?.labels).toEqual({ path: 'C:\\dir', quote: 'say "hi"', nl: 'a\nb' });
  });

  it('keeps braces, commas and equals signs inside quoted label values', () => {
    const [f] = parsePrometheusText('m{a="x{y}=z,w",b=""} 2\n');
    expect(f?.samples[0]?.labels).toEqual({ a: 'x{y}=z,w', b: '' });
  });

  it('reads NaN, ±Inf, exponents and signed values', () => {
    const values = parsePrometheusText('a NaN\nb +Inf\nc -Inf\nd 1.5e-3\ne -2\nf +7\ng .5\nh 3.\n').map((f) => f.samples[0]?.value);
    expect(values).toEqual([NaN, Infinity, -Infinity, 0.0015, -2, 7, 0.5, 3]);
  });

  it('reads optional timestamps, including negative ones', () => {
    const [a, b] = parsePrometheusText('a 1 1795316443000\nb{x="y"} 2 -5\n');
    expect(a?.samples[0]).toEqual({ name: 'a', labels: {}, value: 1, timestampMs: 1795316443000 });
    expect(b?.samples[0]?.timestampMs).toBe(-5);
    expect('timestampMs' in (parsePrometheusText('c 3\n')[0]?.samples[0] ?? {})).toBe(false);
  });

  it('skips blank lines and plain comments, allows blanks around label tokens and a trailing comma', () => {
    const families = parsePrometheusText('\n   \n# just a comment\n#\nm{ a = "1" , b="2", } \t 4  \n\n');
    expect(families).toEqual([{ name: 'm', type: 'untyped', samples: [{ name: 'm', labels: { a: '1', b: '2' }, value: 4 }] }]);
  });

  it('attributes samples that come before their TYPE line to the declared family', () => {
    const families = parsePrometheusText('h_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\n# TYPE h histogram\nh_sum 0.5\nh_count 1\n');
    expect(families).toHaveLength(1);
    expect(families[0]?.type).toBe('histogram');
    expect(families[0]?.samples).toHaveLength(4);
  });

  it('makes a family of each undeclared name, without guessing at suffixes', () => {
    const families = parsePrometheusText('x_bucket{le="1"} 1\nx_sum 2\nx_count 1\n');
    expect(families.map((f) => [f.name, f.type])).toEqual([
      ['x_bucket', 'untyped'],
      ['x_sum', 'untyped'],
      ['x_count', 'untyped'],
    ]);
  });

  it('keeps a family that has a declaration but no samples', () => {
    expect(parsePrometheusText('# HELP quiet nothing yet\n# TYPE quiet counter\n')).toEqual([{ name: 'quiet', type: 'counter', help: 'nothing yet', samples: [] }]);
  });

  it('returns no families for an empty body', () => {
    expect(parsePrometheusText('')).toEqual([]);
  });

  it('tolerates CRLF line ends', () => {
    const [f] = parsePrometheusText('# TYPE m gauge\r\nm{a="b"} 1 5\r\n\r\n');
    expect(f?.type).toBe('gauge');
    expect(f?.samples[0]).toEqual({ name: 'm', labels: { a: 'b' }, value: 1, timestampMs: 5 });
  });

  it('does not let a label named __proto__ touch the prototype', () => {
    const labels = parsePrometheusText('m{__proto__="x"} 1\n')[0]?.samples[0]?.labels ?? {};
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
    expect(Object.hasOwn(labels, '__proto__')).toBe(true);
    expect(Object.entries(labels)).toEqual([['__proto__', 'x']]);
  });
});

describe('parsePrometheusText: bad input names the line', () => {
  const cases: [string, string, number, RegExp][] = [
    ['a value that is not a number', 'ok 1\nm abc\n', 2, /invalid value "abc"/],
    ['a missing value', 'm{a="b"}\n', 1, /missing value for m/],
    ['an unterminated label value', 'm{a="b} 1\n', 1, /unterminated value of label "a"/],
    ['an unknown escape', 'm{a="\\t"} 1\n', 1, /invalid escape "\\t"/],
    ['a duplicate label', 'm{a="1",a="2"} 1\n', 1, /duplicate label "a"/],
    ['a duplicate series', 'm{a="1",b="2"} 1\n\nm{b="2",a="1"} 2\n', 3, /duplicate series m/],
    ['a second TYPE line', '# TYPE m gauge\n# TYPE m counter\n', 2, /second TYPE line for m/],
    ['a second HELP line', '# HELP m a\n# HELP m b\n', 2, /second HELP line for m/],
    ['an unknown type', '# TYPE m gaugeish\n', 1, /unknown metric type "gaugeish"/],
    ['a TYPE without a type', '# TYPE m\n', 1, /without a type/],
    ['a TYPE without a name', '# TYPE 9m gauge\n', 1, /without a valid metric name/],
    ['a bucket without le', '# TYPE h histogram\nh_bucket 1\n', 2, /has no "le" label/],
    ['a bucket with a bad le', '# TYPE h histogram\nh_bucket{le="x"} 1\n', 2, /invalid bucket bound le="x"/],
    ['a bare histogram sample', '# TYPE h histogram\nh 1\n', 2, /must end in _bucket, _sum or _count/],
    ['a summary sample without quantile', '# TYPE s summary\ns 1\n', 2, /needs a numeric "quantile" label/],
    ['a bad character in a name', 'm-x 1\n', 1, /invalid character after metric name "m"/],
    ['a line that starts with a digit', '1m 1\n', 1, /expected a metric name/],
    ['a fractional timestamp', 'm 1 2.5\n', 1, /invalid timestamp "2.5"/],
    ['text after the timestamp', 'm 1 2 3\n', 1, /invalid timestamp "2 3"/],
    ['an HTML error page', '<html><body>403 Forbidden</body></html>\n', 1, /expected a metric name/],
    ['a label name starting with a digit', 'm{1a="x"} 1\n', 1, /expected a label name at column 3/],
    ['a missing "="', 'm{a"x"} 1\n', 1, /expected "=" after label "a"/],
    ['an unquoted value', 'm{a=x} 1\n', 1, /expected a quoted value for label "a"/],
    ['a missing comma', 'm{a="x" b="y"} 1\n', 1, /expected "," or "}" after label "a"/],
  ];
  it.each(cases)('%s', (_what, text, line, message) => {
    const err = errorOf(text);
    expect(err.line).toBe(line);
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`line ${line}:`);
  });

  it('quotes the offending line in the message, shortened when long', () => {
    const long = `m{a="${'x'.repeat(300)}"} nope`;
    const err = errorOf(long);
    expect(err.message).toContain('m{a=\\"xxx');
    expect(err.message).toContain('…');
    expect(err.message.length).toBeLessThan(300);
  });
});

describe('parsePrometheusText on the real kubelet 1.32 bodies', () => {
  const healthy = fixture('metrics-healthy.txt');

  it('reads every sample line and every declared family', () => {
    const families = parsePrometheusText(healthy);
    const lines = healthy.split('\n');
    const sampleLines = lines.filter((l) => l !== '' && !l.startsWith('#')).length;
    const typeLines = lines.filter((l) => l.startsWith('# TYPE ')).length;
    expect(families.reduce((n, f) => n + f.samples.length, 0)).toBe(sampleLines);
    expect(families).toHaveLength(typeLines);
    expect(families.every((f) => f.type !== 'untyped')).toBe(true);
  });

  it('reads the PLEG families with their types and exact values', () => {
    const families = parsePrometheusText(fixture('metrics-stopped-T+180s.txt'));
    expect(family(families, 'kubelet_pleg_last_seen_seconds')).toMatchObject({ type: 'gauge', samples: [{ value: 1795316443 }] });
    const relist = family(families, 'kubelet_pleg_relist_duration_seconds');
    expect(relist.type).toBe('histogram');
    expect(relist.help).toBe('[ALPHA] Duration in seconds for relisting pods in PLEG.');
    expect(relist.samples.find((s) => s.name === 'kubelet_pleg_relist_duration_seconds_count')?.value).toBe(88);
    expect(relist.samples.find((s) => s.labels['le'] === '+Inf')?.value).toBe(88);
    expect(family(families, 'kubelet_pleg_discard_events').type).toBe('counter');
  });

  it('prints back to text that parses to the same families', () => {
    const families = parsePrometheusText(healthy);
    expect(parsePrometheusText(formatPrometheusText(families))).toEqual(families);
  });

  it('stays linear: ten bodies in one text parse in about ten times one body', () => {
    // Distinct names per copy so the duplicate-series check does not fire.
    const copies = Array.from({ length: 10 }, (_, i) => healthy.replace(/^(# (?:HELP|TYPE) )?([a-zA-Z_:][a-zA-Z0-9_:]*)/gm, `$1c${i}_$2`)).join('\n');
    const time = (text: string): number => {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        parsePrometheusText(text);
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const one = time(healthy);
    const ten = time(copies);
    expect(parsePrometheusText(copies)).toHaveLength(10 * parsePrometheusText(healthy).length);
    // Quadratic work would be ~100×; allow generous noise on a shared machine.
    expect(ten).toBeLessThan(Math.max(one, 5) * 30);
  });
});
