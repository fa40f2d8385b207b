// Diagnose many nodes at once ("Diagnose All NotReady Nodes"): at most `concurrency` collections in flight,
// each result handed over as soon as it is ready, one node's failure recorded as that node's outcome, and
// cancellation that stops at once: nothing new starts, every collection in flight is aborted, and the
// call resolves with what was done. The diagnosis itself is the pure diagnose() of each node's evidence.

import type { Diagnosis } from '../../core/diagnose/diagnosis';
import type { NodeEvidence } from '../../core/diagnose/evidence';
import { diagnose } from '../../core/diagnose/runDiagnosis';
import { nextTurn } from './cpuTurns';
import { errorText } from '../../core/util/errorText';

export interface NodeRef {
  context: string;
  name: string;
}

export type ManyOutcome<N extends NodeRef> =
  | { node: N; kind: 'done'; diagnosis: Diagnosis; ms: number }
  | { node: N; kind: 'failed'; error: string; ms: number };

export interface DiagnoseManyOptions<N extends NodeRef> {
  nodes: readonly N[];
  /** Collections in flight at once (the API server and the kubelets see this many nodes' requests together). */
  concurrency: number;
  collect: (node: N, signal: AbortSignal) => Promise<NodeEvidence>;
  onResult?: (outcome: ManyOutcome<N>, done: number, total: number) => void;
  signal?: AbortSignal;
}

export interface DiagnoseManyResult<N extends NodeRef> {
  outcomes: ManyOutcome<N>[];
  cancelled: boolean;
  /** Nodes never started or cut off by the cancel. */
  notDiagnosed: N[];
}

export const DEFAULT_MANY_CONCURRENCY = 5;

export async function diagnoseMany<N extends NodeRef>(options: DiagnoseManyOptions<N>): Promise<DiagnoseManyResult<N>> {
  const { nodes, collect } = options;
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError(`concurrency must be a positive integer, got ${options.concurrency}`);
  const controller = new AbortController();
  const outer = options.signal;
  let cancelled = outer?.aborted === true;
  const onAbort = (): void => {
    cancelled = true;
    controller.abort(outer?.reason);
  };
  if (cancelled) controller.abort(outer?.reason);
  else outer?.addEventListener('abort', onAbort, { once: true });
  // Resolves when the cancel comes, so the workers' pending collections do not hold the caller.
  const stopped = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));

  const outcomes: ManyOutcome<N>[] = [];
  const finished = new Set<N>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!cancelled && next < nodes.length) {
      const node = nodes[next++] as N;
      const started = performance.now();
      let outcome: ManyOutcome<N>;
      try {
        const evidence = await collect(node, controller.signal);
        // Judging a node is CPU work too: in turns with the other nodes' parsing (cpuTurns.ts).
        await nextTurn();
        if (cancelled) return;
        outcome = { node, kind: 'done', diagnosis: diagnose(evidence), ms: Math.round(performance.now() - started) };
      } catch (error) {
        if (cancelled) return;
        outcome = { node, kind: 'failed', error: errorText(error), ms: Math.round(performance.now() - started) };
      }
      outcomes.push(outcome);
      finished.add(node);
      options.onResult?.(outcome, outcomes.length, nodes.length);
    }
  };
  try {
    const workers = Promise.all(Array.from({ length: Math.min(options.concurrency, nodes.length) }, worker));
    await Promise.race([workers, stopped]);
  } finally {
    outer?.removeEventListener('abort', onAbort);
  }
  return { outcomes, cancelled, notDiagnosed: nodes.filter((n) => !finished.has(n)) };
}
