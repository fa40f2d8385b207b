// The logs command's output batches: whatever the lines' sizes and characters, what reaches stdout is
// the lines in order, byte for byte as UTF-8; nothing waits past a chunk's end when reading live, or past
// flush(); a batch never exceeds its buffer (a line too long for it is written on its own).
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { OutputBatch } from '../../../../src/cli/commands/outputBatch';
import { memoryIo } from '../../../support/memoryIo';

describe('OutputBatch', () => {
  test.prop([fc.array(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), fc.nat(40_000).map((n) => `${'→'.repeat(n % 7)}${'x'.repeat(n)}\n`)), { maxLength: 60 })])(
    'writes every line, in order, as UTF-8',
    (lines) => {
      const io = memoryIo();
      const writes: number[] = [];
      const write = io.stdout.write;
      io.stdout.write = (c) => {
        writes.push(typeof c === 'string' ? Buffer.byteLength(c) : c.length);
        return write(c);
      };
      const out = new OutputBatch(io, false);
      for (const l of lines) out.add(l);
      out.flush();
      expect(io.out()).toBe(lines.join(''));
      for (const w of writes) expect(w === 0 || w <= 64 * 1024 || lines.some((l) => Buffer.byteLength(l) === w)).toBe(true);
    },
  );

  it('holds a batch until it is 50 ms old, or not at all when reading live', async () => {
    const io = memoryIo();
    const out = new OutputBatch(io, false);
    out.add('a\n');
    out.chunkDone();
    expect(io.out()).toBe('');
    await new Promise((r) => setTimeout(r, 60));
    out.chunkDone();
    expect(io.out()).toBe('a\n');
    const liveIo = memoryIo();
    const live = new OutputBatch(liveIo, true);
    live.add('b\n');
    live.chunkDone();
    expect(liveIo.out()).toBe('b\n');
  });
});
