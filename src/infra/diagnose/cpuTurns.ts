// The CPU-heavy steps of a diagnosis (parsing a kubelet body: a /metrics or a goroutine dump takes a few
// milliseconds each; judging a node) take turns, one per event-loop iteration. Diagnose All NotReady Nodes
// runs five nodes at a time, and their answers often arrive in the same poll phase: parsed back to back
// they held the extension host's event loop for 50–100 ms. In turns, the loop polls I/O and runs timers
// between two parses, so the host stays responsive while the total work stays the same.

const waiting: (() => void)[] = [];
let pumping = false;

/** Resolves when it is the caller's turn: at most one waiter per event-loop iteration, first come first. */
export function nextTurn(): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

function pump(): void {
  const next = waiting.shift();
  if (next === undefined) {
    pumping = false;
    return;
  }
  // The waiter continues in this iteration's microtasks; an immediate queued now runs in the next one.
  next();
  setImmediate(pump);
}
