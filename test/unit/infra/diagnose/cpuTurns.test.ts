// Diagnose All's parsing takes turns: one waiter per event-loop iteration, in the order they asked, so the
// loop polls I/O and runs timers between two parses (the benchmark measures the event-loop delay this buys).

import { expect, it } from 'vitest';
import { nextTurn } from '../../../../src/infra/diagnose/cpuTurns';

it('lets one waiter through per event-loop iteration, first come first served, and starts again when idle', async () => {
  // A ticker that runs once per iteration (in the same phase as the turns) numbers the iterations.
  let iteration = 0;
  let ticking = true;
  const tick = (): void => {
    iteration++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  const order: number[] = [];
  const turns = await Promise.all(
    [0, 1, 2, 3, 4].map((i) =>
      nextTurn().then(() => {
        order.push(i);
        return iteration;
      }),
    ),
  );
  expect(order).toEqual([0, 1, 2, 3, 4]);
  expect(new Set(turns).size).toBe(5);
  // After the queue ran dry, a new waiter still gets its turn.
  await nextTurn();
  ticking = false;
  expect(iteration).toBeGreaterThan(turns[4] ?? 0);
});
