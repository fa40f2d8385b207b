import { describe, expect, it } from 'vitest';
import { CappedOutput } from '../../../src/infra/cappedOutput';

describe('CappedOutput', () => {
  it('keeps up to the cap, drops the rest and says so', () => {
    const out = new CappedOutput(5);
    out.push(Buffer.from('abc'));
    expect(out.truncated).toBe(false);
    out.push(Buffer.from('defg'));
    out.push(Buffer.from('h'));
    expect(out.text()).toBe('abcde');
    expect(out.truncated).toBe(true);
  });

  it('exactly the cap is not truncated; held-back bytes come last', () => {
    const out = new CappedOutput(3);
    out.push(Buffer.from('abc'));
    out.push(Buffer.alloc(0));
    expect(out.truncated).toBe(false);
    expect(out.text([Buffer.from('!')])).toBe('abc!');
  });
});
