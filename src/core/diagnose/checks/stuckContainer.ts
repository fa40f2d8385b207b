// Root cause 2: one pod's container or shim is stuck, so GetPodStatus for that pod waits out the CRI
// deadline on every relist while the List* calls stay fast (docs/node-access.md). Two such waits in one relist
// (≤1.31 inspects a failing pod twice) make a ≈4 min relist, which is NotReady (#94829). Without any
// status-call evidence, a /metrics that hangs while /healthz answers and PLEG is healthy (§8) still points
// at one frozen shim.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext, OperationView } from '../checkContext';
import type { EvidenceLine, Remediation } from '../diagnosis';
import { slowSamples } from '../histogramFacts';
import {
  LIST_OPERATIONS,
  STATUS_OPERATIONS,
  durationLine,
  errorsLine,
  isDeadlineLike,
  meanSeconds,
  metricsHangLine,
  metricsHangWhileHealthzAnswers,
  operation,
  relistGoroutineLine,
  relistStuckIn,
} from '../signals';
import { missingNotes } from '../sourceNotes';
import { approxSeconds, isHexId, plural, quoted, seconds } from '../textFormat';

export const STUCK_POD_TITLE = "One pod's status calls time out: a stuck container or shim";
const FROZEN_SHIM_TITLE = '/metrics hangs while /healthz answers and PLEG is healthy: likely one frozen shim';
const STATUS_METHODS = ['PodSandboxStatus', 'ContainerStatus'];
const SHIM_METHODS = new Set(['PodSandboxStatus', 'ContainerStatus', 'ContainerStats', 'ListContainerStats', 'ExecSync']);

function listFailing(ctx: CheckContext): boolean {
  return LIST_OPERATIONS.some((name) => {
    const op = operation(ctx, name);
    if (op === undefined) return false;
    const mean = meanSeconds(op);
    return (op.errorsDelta ?? 0) > 0 || (op.p99Seconds !== undefined && isDeadlineLike(ctx, op.p99Seconds)) || (mean !== undefined && isDeadlineLike(ctx, mean));
  });
}

/** Samples of a status operation that waited out the deadline, in the interval or since kubelet start. */
function deadlineSamples(ctx: CheckContext, op: OperationView): { count: number; meanSeconds: number; window: string } | undefined {
  const bound = (ctx.runtimeRequestTimeoutMs / 1000) * 0.9;
  if (op.window === 'interval' && op.duration !== undefined) {
    const s = slowSamples(op.duration, bound);
    if (s !== undefined) return { ...s, window: 'between the scrapes' };
  }
  if (op.cumulative !== undefined) {
    const s = slowSamples(op.cumulative, bound);
    if (s !== undefined) return { ...s, window: 'since the kubelet started' };
  }
  return undefined;
}

function remediation(ids: string[]): Remediation[] {
  const out: Remediation[] = [];
  for (const id of ids.filter(isHexId).slice(0, 3)) {
    out.push({ text: 'Confirm the stuck sandbox answers no status call', gate: 'readOnly', command: `timeout 15 crictl -t 10s inspectp ${id}` });
  }
  out.push(
    {
      text: 'Find the culprit: the sandbox whose inspect times out',
      gate: 'readOnly',
      command: 'for id in $(crictl pods -q); do timeout 15 crictl -t 10s inspectp "$id" >/dev/null 2>&1 || echo "stuck: $id"; done',
    },
    { text: 'Look for runc init or other tasks stuck in D state, then read their kernel stack (/proc/PID/stack)', gate: 'readOnly', command: "ps -eo stat,pid,wchan:32,cmd | awk '$1 ~ /D/'" },
    { text: 'containerd logs "get state … context deadline exceeded" for a hung shim', gate: 'readOnly', command: 'journalctl -u containerd --since "-30min" --no-pager | grep -i "deadline exceeded" | tail -n 50' },
    { text: 'Cordon the node so no new pods land on it while it is investigated', gate: 'confirm', command: 'kubectl cordon NODE_NAME' },
    { text: 'Reboot the node when the task is stuck in the kernel; then fix the kernel or filesystem behind it', gate: 'destructive' },
  );
  return out;
}

const REFS = ['kubernetes/kubernetes#45419', 'kubernetes/kubernetes#94829'];

/**
 * Why the report cannot name the pod from what it read, and what would. The goroutine dump prints
 * GetPodStatus's pod UID, name and namespace as string pointers and lengths only (Go tracebacks never print
 * string contents); the kubelet does not log a failed PodSandboxStatus (cri-client remote_runtime.go,
 * podSandboxStatusV1 returns the error unlogged); the metrics count calls per operation, not per pod. What
 * names it: the kubelet's own log, which from 1.24 writes `"PLEG: Write status" err=… pod="ns/name"` at
 * error level for each pod whose status a relist could not read (pleg/generic.go, updateCache), and the
 * node side's CRI snapshot, which asks each sandbox and container on its own call.
 */
export const WHICH_POD =
  'Which pod: the evidence read does not name it (the goroutine dump shows only pointers to the pod’s UID, name and namespace, and the metrics count calls, not pods). The kubelet log names it (from kubelet 1.24, "PLEG: Write status" with err= and pod=, at error level), and so does the node side’s CRI snapshot, which asks each sandbox and container on its own call.';

export const stuckContainerCheck: Check = {
  id: 'stuck-container',
  title: 'One container or shim stuck',
  run(ctx: CheckContext): CheckOutcome {
    const direct: EvidenceLine[] = [];
    const supporting: EvidenceLine[] = [];
    const ids: string[] = [];
    let relistHangs = false;
    let statusTimeouts = false;
    const runtimeDown = listFailing(ctx);

    if (!runtimeDown) {
      for (const name of STATUS_OPERATIONS) {
        const op = operation(ctx, name);
        if (op === undefined) continue;
        const slow = deadlineSamples(ctx, op);
        const errors = (op.errorsDelta ?? 0) > 0 || (op.errors ?? 0) > 0;
        if (slow !== undefined && errors) {
          // Only samples or errors from between the scrapes show it is happening now, not in the past.
          if (slow.window === 'between the scrapes' || (op.errorsDelta ?? 0) > 0) relistHangs = true;
          statusTimeouts = true;
          direct.push(errorsLine(ctx, op));
          direct.push({
            origin: op.window === 'interval' && slow.window === 'between the scrapes' ? 'metricsLater' : 'metrics',
            text: `${quoted(`kubelet_runtime_operations_duration_seconds{operation_type="${op.name}"}`)}: ${plural(slow.count, 'call')} ${slow.window} took ≈${approxSeconds(slow.meanSeconds)} each on average (runtimeRequestTimeout ${seconds(ctx.runtimeRequestTimeoutMs / 1000)})`,
          });
        }
      }
      if (statusTimeouts) {
        for (const name of LIST_OPERATIONS) {
          const op = operation(ctx, name);
          if (op !== undefined) supporting.push({ ...durationLine(op), text: `${durationLine(op).text}; ${op.errorsDelta ?? op.errors ?? 0} errors: the runtime itself answers` });
        }
      }
    }

    const relist = ctx.relist;
    if (relist !== undefined) {
      const timeout = ctx.runtimeRequestTimeoutMs / 1000;
      const long = slowSamples(relist.cumulative, timeout * 0.9);
      if (long !== undefined && statusTimeouts) {
        const multiple = Math.max(1, Math.round(long.meanSeconds / timeout));
        supporting.push({
          origin: 'metrics',
          text: `${quoted('kubelet_pleg_relist_duration_seconds')}: ${plural(long.count, 'relist')} since the kubelet started took ≈${approxSeconds(long.meanSeconds)} each on average (≈ ${multiple} × the ${seconds(timeout)} CRI deadline)`,
        });
      }
    }

    if (relistStuckIn(ctx, STATUS_METHODS)) {
      relistHangs = true;
      const line = relistGoroutineLine(ctx);
      if (line !== undefined) direct.push({ ...line, text: `${line.text}, called from GetPodStatus under the relist` });
    }

    for (const f of ctx.snapshot?.findings ?? []) {
      if (f.kind !== 'hungShim') continue;
      direct.push({ origin: 'nodeSide', text: `CRI snapshot: pod ${quoted(`${f.podNamespace}/${f.podName}`)} (sandbox ${quoted(f.sandboxId)}): ${f.message}` });
      ids.push(f.sandboxId);
    }
    if (!runtimeDown) {
      for (const e of ctx.snapshot?.errors ?? []) {
        if (!SHIM_METHODS.has(e.method) || e.codeName !== 'DEADLINE_EXCEEDED') continue;
        direct.push({ origin: 'nodeSide', text: `CRI ${e.method}${e.id !== undefined ? ` ${quoted(e.id)}` : ''} hit its deadline after ${Math.round(e.ms)} ms` });
        if (e.id !== undefined) ids.push(e.id);
      }
    }
    // The kubelet's own words: each relist that could not read a pod's status names the pod.
    let namedInLog = false;
    if (!runtimeDown) {
      for (const f of (ctx.kubeletLog?.statusWriteFailures ?? []).slice(0, 3)) {
        namedInLog = true;
        const line: EvidenceLine = {
          origin: 'kubeletLog',
          text: `kubelet log: the relist could not read the status of pod ${quoted(f.pod)} ×${f.count} ("PLEG: Write status"), the latest at line ${f.last.line}${f.last.clock !== undefined ? ` (${f.last.clock})` : ''}${f.last.err !== undefined ? `: ${quoted(f.last.err)}` : ''}`,
        };
        (f.last.err !== undefined && /deadline ?exceeded/iu.test(f.last.err) ? direct : supporting).push(line);
      }
    }
    const dState = ctx.probes?.dStateProcesses;
    if (dState?.status === 'ok') {
      for (const p of dState.value.filter((row) => /runc|shim/u.test(row.comm)).slice(0, 5)) {
        direct.push({ origin: 'nodeSide', text: `${quoted(p.comm)} (pid ${p.pid}) is in D state${p.wchan !== undefined ? ` in ${quoted(p.wchan)}` : ''}` });
      }
    }

    const summary =
      'GetPodStatus for one pod waits out the CRI deadline while ListPodSandbox and ListContainers stay ' +
      'fast: the runtime answers, one pod’s sandbox or container does not. Relists inspect pods one after ' +
      'another, so each hung call adds up to runtimeRequestTimeout to the relist, and two of them (≤1.31 ' +
      'inspects a failing pod twice) pass the 3 minute threshold. A slow CNI teardown can block sandbox ' +
      'status the same way (#107749, #98044).';
    if (direct.length > 0) {
      return found({
        cause: 2,
        severity: ctx.plegUnhealthy || relistHangs ? 'problem' : 'warning',
        title: STUCK_POD_TITLE,
        summary: ids.length > 0 || namedInLog ? summary : `${summary} ${WHICH_POD}`,
        evidence: [...direct, ...supporting],
        remediation: remediation(ids),
        refs: REFS,
      });
    }
    if (metricsHangWhileHealthzAnswers(ctx) && !ctx.plegUnhealthy) {
      return found({
        cause: 2,
        severity: 'warning',
        title: FROZEN_SHIM_TITLE,
        summary:
          'A frozen shim does not make PLEG unhealthy (relists keep running in ms), but every /metrics scrape, ' +
          'stats call and exec into that pod hangs, and the eviction manager stalls. The pod itself still shows ' +
          'Running.',
        evidence: [metricsHangLine(ctx)],
        remediation: remediation([]),
        refs: REFS,
      });
    }
    if (runtimeDown) return clear('the List* calls fail too: the runtime itself, not one pod (see "Container runtime hung or slow")');
    const statusOps = STATUS_OPERATIONS.map((n) => operation(ctx, n)).filter((o) => o !== undefined);
    if (statusOps.length > 0) {
      return clear(statusOps.map((o) => `${o.name}: ${o.errorsDelta ?? o.errors ?? 0} errors, p99 ${o.p99Seconds !== undefined ? seconds(o.p99Seconds) : 'n/a'}`).join('; '));
    }
    if (ctx.snapshot?.budget?.exhausted === true) return noEvidence('the CRI snapshot ran out of its budget before every sandbox and container was asked');
    if (ctx.snapshot !== undefined) return clear('every sandbox and container answered its status and stats calls in the CRI snapshot');
    if (ctx.metrics !== undefined) return clear('no status call has failed or waited out the deadline (no podsandbox_status samples yet)');
    return noEvidence(missingNotes(ctx.evidence, ['metrics', 'goroutines', 'nodeSide']));
  },
};
