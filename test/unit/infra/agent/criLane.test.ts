// The agent's one lane to the runtime (infra/agent/criLane.ts): one call out at a time; a call whose
// deadline passes in the gate fails DEADLINE_EXCEEDED without being sent; relists go before diagnosis calls.

import { describe, expect, it } from 'vitest';
import { CallGate } from '../../../../src/infra/agent/criLane';
import { CriError } from '../../../../src/infra/cri/criError';

/** A runtime that never answers: every send waits until its deadline, like a SIGSTOPped containerd. */
function hungRuntime(): { sent: string[]; send: (method: string) => (remainingMs: number) => Promise<string> } {
  const sent: string[] = [];
  return {
    sent,
    send: (method) => (remainingMs) => {
      sent.push(method);
      return new Promise((_, reject) => setTimeout(() => reject(new CriError(4, 'deadline', method, remainingMs)), remainingMs));
    },
  };
}

describe('CallGate', () => {
  it('sends one call to a hung runtime; the others fail at their deadline unsent', async () => {
    const gate = new CallGate();
    const runtime = hungRuntime();
    const calls = ['ListPodSandbox', 'Version', 'Status', 'ListContainers'].map((m) => gate.run(m, 'diagnosis', 200, undefined, runtime.send(m)).catch((e: unknown) => e));
    expect(gate.inflightCalls).toBe(0); // not yet: acquire resolves on the next tick
    const errors = (await Promise.all(calls)) as CriError[];
    expect(runtime.sent).toEqual(['ListPodSandbox']);
    expect(gate.maxInflight).toBe(1);
    expect(errors.map((e) => e.code)).toEqual([4, 4, 4, 4]);
    expect(errors.slice(1).every((e) => /^not sent: /u.test(e.detail))).toBe(true);
    expect(gate.inflightCalls).toBe(0);
    expect(gate.inflightSince).toBeUndefined();
  });

  it('lets a waiting relist call out before waiting diagnosis calls', async () => {
    const gate = new CallGate();
    const order: string[] = [];
    let release: () => void = () => undefined;
    const first = gate.run('Version', 'diagnosis', 1000, undefined, () => new Promise<void>((r) => (release = r)));
    await Promise.resolve();
    const d = gate.run('Status', 'diagnosis', 1000, undefined, async () => void order.push('diagnosis'));
    const r = gate.run('ListPodSandbox', 'relist', 1000, undefined, async () => void order.push('relist'));
    release();
    await Promise.all([first, d, r]);
    expect(order).toEqual(['relist', 'diagnosis']);
  });

  it('gives a call that waited in the gate only what is left of its deadline', async () => {
    const gate = new CallGate();
    const first = gate.run('Version', 'relist', 1000, undefined, () => new Promise<void>((r) => setTimeout(r, 150)));
    let given = 0;
    const second = gate.run('Status', 'relist', 1000, undefined, async (remaining) => void (given = remaining));
    await Promise.all([first, second]);
    expect(given).toBeLessThanOrEqual(1000 - 140);
    expect(given).toBeGreaterThan(500);
  });

  it('a cancelled waiter leaves the queue at once', async () => {
    const gate = new CallGate();
    const runtime = hungRuntime();
    const held = gate.run('ListPodSandbox', 'relist', 300, undefined, runtime.send('ListPodSandbox')).catch(() => undefined);
    const controller = new AbortController();
    const waiting = gate.run('Status', 'diagnosis', 10_000, controller.signal, runtime.send('Status'));
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 1 });
    expect(gate.queued).toBe(0);
    await held;
    expect(runtime.sent).toEqual(['ListPodSandbox']);
  });
});
