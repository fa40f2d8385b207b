// The deadlines must fire even when nothing but the timer holds them and a garbage collection runs in
// between: the way AbortSignal.any(AbortSignal.timeout()) fails on Node 20 (nodejs/node#57736).

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { timeoutSignal, withDeadline } from '../../../../src/core/util/deadlineSignal';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function abortedWithin(make: () => AbortSignal, ms: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Only a listener on the combined signal, as a consumer (fetch, ssh2, http2) holds it.
    make().addEventListener('abort', function onAbort(this: AbortSignal) {
      resolve(this.reason);
    });
    setTimeout(() => reject(new Error(`not aborted within ${ms} ms`)), ms);
  });
}

async function collectGarbage(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 10));
    gc();
  }
}

describe('deadline signals', () => {
  it('withDeadline fires after a garbage collection, with a TimeoutError', async () => {
    const parent = new AbortController();
    const reason = abortedWithin(() => withDeadline(parent.signal, 150), 2_000);
    await collectGarbage();
    const error = (await reason) as Error;
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toContain('150 ms');
  });

  it('timeoutSignal alone fires after a garbage collection', async () => {
    const reason = abortedWithin(() => AbortSignal.any([timeoutSignal(150)]), 2_000);
    await collectGarbage();
    expect((await reason) as Error).toHaveProperty('name', 'TimeoutError');
  });

  it('the parent aborting first wins, with its reason', async () => {
    const parent = new AbortController();
    const signal = withDeadline(parent.signal, 10_000);
    parent.abort(new Error('stopped by the user'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('stopped by the user');
  });

  it('without a parent it is the deadline alone', async () => {
    const signal = withDeadline(undefined, 20);
    expect(signal.aborted).toBe(false);
    await new Promise((r) => setTimeout(r, 60));
    expect(signal.aborted).toBe(true);
  });
});
