import { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from '../../../../src/infra/ssh/coalescedWrites';

/** A channel that records what reaches its own _write, and can hold the callbacks back like a full window. */
class RecordingChannel extends Duplex {
  readonly sent: Buffer[] = [];
  readonly events: string[] = [];
  holdCallbacks = false;
  readonly heldCallbacks: Array<(error?: Error | null) => void> = [];
  failWith: Error | undefined;

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.sent.push(Buffer.from(chunk));
    this.events.push(`write ${chunk.toString()}`);
    if (this.failWith !== undefined) callback(this.failWith);
    else if (this.holdCallbacks) this.heldCallbacks.push(callback);
    else callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.events.push('final');
    callback();
  }
}

/**
 * Writes as node:http2 does to a non-socket stream: the next chunk a turn after the previous write's
 * callback (its JSStreamSocket finishes each write in a setImmediate).
 */
function writeLikeHttp2(stream: Duplex, chunks: string[]): Promise<void> {
  return new Promise((resolve) => {
    const next = (i: number): void => {
      if (i === chunks.length) return resolve();
      stream.write(chunks[i], () => setImmediate(() => next(i + 1)));
    };
    next(0);
  });
}

describe('coalesceWrites', () => {
  it('sends writes made over consecutive turns as one write, in order', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    await writeLikeHttp2(channel, ['HEADERS|', 'DATA-HEADER|', 'PAYLOAD']);
    await nextTurn();
    await nextTurn();
    expect(channel.sent.map((b) => b.toString())).toEqual(['HEADERS|DATA-HEADER|PAYLOAD']);
  });

  it('holds a lone write for a second turn, so that a write in the next turn joins it', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    // The PING ACK written while a reply is read, then the caller's next request a turn later.
    channel.write('PING-ACK|');
    await new Promise((resolve) => setImmediate(resolve));
    channel.write('NEXT-REQUEST');
    for (let turn = 0; turn < 4; turn++) await nextTurn();
    expect(channel.sent.map((b) => b.toString())).toEqual(['PING-ACK|NEXT-REQUEST']);
  });

  it('sends a write alone when the next one comes after an idle turn', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    channel.write('first');
    await nextTurn();
    await nextTurn();
    await nextTurn();
    channel.write('second');
    await nextTurn();
    await nextTurn();
    expect(channel.sent.map((b) => b.toString())).toEqual(['first', 'second']);
  });

  it('does not hold a writer that writes every turn back for more than a few turns', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    let stop = false;
    let written = 0;
    const writer = new Promise<void>((resolve) => {
      const next = (): void => {
        if (stop || written === 200) return resolve();
        channel.write(`${written++},`, () => setImmediate(next));
      };
      next();
    });
    for (let turn = 0; turn < 20 && channel.sent.length === 0; turn++) await nextTurn();
    stop = true;
    await writer;
    expect(channel.sent.length).toBeGreaterThan(0);
    // Nothing is lost or reordered across the sends.
    await nextTurn();
    await nextTurn();
    const all = Buffer.concat(channel.sent).toString().split(',').filter((s) => s !== '');
    expect(all).toEqual(all.map((_, i) => String(i)));
  });

  it('on end, sends what is pending before the channel\u2019s own final step, and finishes after it', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    const finished = new Promise<void>((resolve) => channel.on('finish', () => resolve()));
    channel.write('a');
    channel.end('b');
    await finished;
    expect(channel.events).toEqual(['write ab', 'final']);
  });

  it('acknowledges big writes only once the channel has taken them (backpressure)', async () => {
    const channel = new RecordingChannel();
    channel.holdCallbacks = true;
    coalesceWrites(channel);
    let acknowledged = false;
    channel.write(Buffer.alloc(100 * 1024, 1), () => {
      acknowledged = true;
    });
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(channel.sent).toHaveLength(1);
    expect(acknowledged).toBe(false);
    channel.heldCallbacks.shift()?.();
    await nextTurn();
    expect(acknowledged).toBe(true);
  });

  it('does not send again while the channel has not taken the previous write', async () => {
    const channel = new RecordingChannel();
    channel.holdCallbacks = true;
    coalesceWrites(channel);
    channel.write('one');
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    channel.write('two');
    channel.write('three');
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    expect(channel.sent.map((b) => b.toString())).toEqual(['one']);
    channel.heldCallbacks.shift()?.();
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    expect(channel.sent.map((b) => b.toString())).toEqual(['one', 'twothree']);
  });

  it('destroys the stream with the channel\u2019s error when acknowledged bytes cannot be sent', async () => {
    const channel = new RecordingChannel();
    coalesceWrites(channel);
    const failure = new Error('channel write failed');
    channel.failWith = failure;
    const errored = new Promise<Error>((resolve) => channel.on('error', resolve));
    channel.write('lost');
    await expect(errored).resolves.toBe(failure);
    expect(channel.destroyed).toBe(true);
  });
});
