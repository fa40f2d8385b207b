import { describe, expect, it } from 'vitest';
import type { RefreshBatch, Timers } from '../../../../src/core/tree/changeCoalescer';
import { ChangeCoalescer } from '../../../../src/core/tree/changeCoalescer';
import { ContextNodes } from '../../../../src/core/tree/contextNodes';
import { classification } from '../../../support/nodeFixtures';

/** Manual clock and timers: nothing fires until the test advances time. */
function manualTimers() {
  let now = 0;
  let pending: { at: number; callback: () => void; handle: number }[] = [];
  let next = 1;
  const timers: Timers = {
    set: (callback, ms) => {
      const handle = next++;
      pending.push({ at: now + ms, callback, handle });
      return handle;
    },
    clear: (handle) => {
      pending = pending.filter((p) => p.handle !== handle);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const p of pending.filter((x) => x.at <= now)) {
      pending = pending.filter((x) => x !== p);
      p.callback();
    }
  };
  return { timers, advance, clock: () => now };
}

function group(name: string) {
  const g = new ContextNodes({ name, isCurrent: false }, (node) => classification({ name: node.metadata?.name ?? '' }));
  g.upsert({ metadata: { name: 'n1' } }, new Date());
  g.upsert({ metadata: { name: 'n2' } }, new Date());
  return g;
}

describe('ChangeCoalescer', () => {
  it('turns a burst into one batch after the quiet delay', () => {
    const { timers, advance, clock } = manualTimers();
    const batches: RefreshBatch[] = [];
    const c = new ChangeCoalescer((b) => batches.push(b), { delayMs: 150, maxDelayMs: 750, timers, clock });
    const prod = group('prod');
    for (let i = 0; i < 5000; i++) c.push({ scope: 'context', context: prod });
    advance(149);
    expect(batches).toEqual([]);
    advance(1);
    expect(batches).toEqual([{ root: false, contexts: [prod], entries: [] }]);
  });

  it('never delays a change by more than maxDelayMs, even under a steady stream', () => {
    const { timers, advance, clock } = manualTimers();
    const batches: RefreshBatch[] = [];
    const c = new ChangeCoalescer((b) => batches.push(b), { delayMs: 150, maxDelayMs: 750, timers, clock });
    const prod = group('prod');
    const entry = prod.get('n1')!;
    for (let t = 0; t < 740; t += 100) {
      c.push({ scope: 'node', context: prod, entry });
      advance(100);
    }
    expect(batches.length).toBe(1);
    expect(batches[0]!.entries).toEqual([entry]);
  });

  it('drops row refreshes already covered by their context, and root wins over everything', () => {
    const { timers, advance, clock } = manualTimers();
    const batches: RefreshBatch[] = [];
    const c = new ChangeCoalescer((b) => batches.push(b), { delayMs: 10, maxDelayMs: 100, timers, clock });
    const prod = group('prod');
    const staging = group('staging');
    c.push({ scope: 'node', context: prod, entry: prod.get('n1')! });
    c.push({ scope: 'node', context: staging, entry: staging.get('n2')! });
    c.push({ scope: 'context', context: prod });
    advance(10);
    expect(batches[0]).toEqual({ root: false, contexts: [prod], entries: [staging.get('n2')] });
    c.push({ scope: 'context', context: prod });
    c.push({ scope: 'root' });
    advance(10);
    expect(batches[1]).toEqual({ root: true, contexts: [], entries: [] });
    advance(1000);
    expect(batches.length).toBe(2);
  });

  it('dispose cancels the pending flush', () => {
    const { timers, advance, clock } = manualTimers();
    const batches: RefreshBatch[] = [];
    const c = new ChangeCoalescer((b) => batches.push(b), { delayMs: 10, maxDelayMs: 100, timers, clock });
    c.push({ scope: 'root' });
    c.dispose();
    advance(100);
    expect(batches).toEqual([]);
  });
});
