// How the kubelet turns its checks into text: runtimeErrors() (pkg/kubelet/runtime.go) and the Ready
// condition (nodestatus ReadyCondition). Both use utilerrors.NewAggregate, whose Error() flattens nested
// aggregates, drops duplicate messages, and brackets the list only when more than one message remains.

/** utilerrors.NewAggregate(errs).Error(); undefined for no errors. */
export function aggregateError(messages: readonly string[]): string | undefined {
  const seen: string[] = [];
  for (const m of messages) if (!seen.includes(m)) seen.push(m);
  if (seen.length === 0) return undefined;
  if (seen.length === 1) return seen[0];
  return `[${seen.join(', ')}]`;
}

export const RUNTIME_STATUS_NOT_YET = 'container runtime status check may not have completed yet';
export const RUNTIME_DOWN = 'container runtime is down';

export interface RuntimeErrorsInput {
  nowMs: number;
  /** Completion time of the last successful CRI Status, or null if none yet. */
  lastRuntimeSyncMs: number | null;
  runtimeSyncThresholdMs: number;
  /** Failing health checks by name, e.g. PLEG → its Healthy() error. */
  failingChecks: ReadonlyArray<readonly [name: string, error: string]>;
}

/** The individual messages of runtimeErrors(), in the kubelet's order. */
export function runtimeErrorMessages(input: RuntimeErrorsInput): string[] {
  const errs: string[] = [];
  if (input.lastRuntimeSyncMs === null) errs.push(RUNTIME_STATUS_NOT_YET);
  // `!lastBaseRuntimeSync.Add(threshold).After(now)`: down from exactly threshold after the last sync.
  else if (!(input.lastRuntimeSyncMs + input.runtimeSyncThresholdMs > input.nowMs)) errs.push(RUNTIME_DOWN);
  for (const [name, error] of input.failingChecks) errs.push(`${name} is not healthy: ${error}`);
  return errs;
}

export interface ReadyCondition {
  status: 'True' | 'False';
  reason: 'KubeletReady' | 'KubeletNotReady';
  message: string;
}

/** The Ready condition for a runtimeErrors() result (network, storage and shutdown errors not modelled). */
export function readyCondition(runtimeErrors: readonly string[]): ReadyCondition {
  const message = aggregateError(runtimeErrors);
  if (message === undefined) return { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' };
  return { status: 'False', reason: 'KubeletNotReady', message };
}
