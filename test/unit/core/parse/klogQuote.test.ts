import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { GoQuoteError, goQuote, goUnquote } from '../../../../src/core/parse/klogQuote';

describe('Go quoting (klog writes strings with %q)', () => {
  it('decodes every escape form', () => {
    expect(goUnquote('"a\\tb\\x41\\u00e9\\U0001F600\\101\\\\"')).toBe('a\tbAé😀A\\');
    expect(goUnquote('"\\xc3\\xa9"')).toBe('é');
  });

  it('round-trips through goQuote', () => {
    for (const s of ['plain', 'with "quotes" and \\', 'tab\tnewline\n', 'µs and é', '\u0001bell\u0007']) {
      expect(goUnquote(goQuote(s))).toBe(s);
    }
    expect(goQuote('a"b\n')).toBe('"a\\"b\\n"');
  });

  test.prop([fc.string({ unit: 'grapheme', maxLength: 60 })])('goUnquote inverts goQuote', (s) => {
    expect(goUnquote(goQuote(s))).toBe(s);
  });

  it('reports the position of bad escapes', () => {
    expect(() => goUnquote('"abc')).toThrow(GoQuoteError);
    expect(() => goUnquote('"a\\qb"')).toThrow(/unknown escape \\q/u);
    expect(() => goUnquote('"\\x4"')).toThrow(/hex digits/u);
  });
});
