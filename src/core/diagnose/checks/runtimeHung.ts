// Root cause 1: the runtime itself hangs (or is down). What separates it from one stuck pod (cause 2) is
// that GetPods — ListPodSandbox and ListContainers — fails: those calls are answered from the runtime's
// memory, so they only fail when the runtime does (docs/node-access.md, "A hung runtime against one hung shim"). Calls that
// wait out the CRI deadline mean hung; calls that fail at once (Unavailable, connection refused) mean down.
// The kubelet log says the same in words: "GenericPLEG: Unable to retrieve pods" is a relist whose GetPods
// failed (its err names DeadlineExceeded or Unavailable), and the runtime status lines ("Container runtime
// sanity check failed", "container runtime is down") are the 5 s Status poll failing. They count like the
// present when they are in the last minutes of a log read with the rest (or, in a log of unknown time,
// while the node is unhealthy); older ones are history, a warning when nothing else is found.

import { clear, found, noEvidence, type Check, type CheckOutcome } from '../check';
import type { CheckContext } from '../checkContext';
import type { EvidenceLine, Remediation } from '../diagnosis';
import type { LogLineRef } from '../kubeletLog';
import { knownBadRuntime } from '../knownVersions';
import { recoveryInLog, refsLine } from '../logSignals';
import {
  LIST_OPERATIONS,
  durationLine,
  errorsLine,
  isDeadlineLike,
  meanSeconds,
  metricsHangLine,
  metricsHangWhileHealthzAnswers,
  operation,
  readyLine,
  relistGoroutineLine,
  relistStuckIn,
} from '../signals';
import { missingNotes } from '../sourceNotes';
import { approxSeconds, quoted, seconds } from '../textFormat';

export const RUNTIME_NOT_ANSWERING = 'The container runtime is not answering CRI calls';
export const RUNTIME_DOWN = 'The container runtime is down: CRI calls fail at once';
const RUNTIME_SLOW = 'The container runtime answers slowly';

/** Slower than this for a List* call is worth a look (crictl's own default timeout is 2 s). */
const SLOW_LIST_SECONDS = 1;
const FAST_FAILURE_SECONDS = 1;
const RUNTIME_METHODS = new Set(['ListPodSandbox', 'ListContainers', 'Version', 'Status']);
/** Log lines this close to the log's end count as the runtime's state now (a log read with the rest). */
const RECENT_LOG_SECONDS = 300;

type Bucket = 'hung' | 'down' | 'either';

/** A CRI error text: waited out its deadline (hung), refused at once (down), or not telling. */
function bucketOf(text: string): Bucket {
  if (/DeadlineExceeded|deadline exceeded/iu.test(text)) return 'hung';
  if (/code = Unavailable|connection refused|no such file or directory|connection error/iu.test(text)) return 'down';
  return 'either';
}

/** The log's runtime lines, sorted into the buckets above, and the old ones as history. */
function logLines(ctx: CheckContext, unhealthyNow: boolean): Record<Bucket | 'past', EvidenceLine[]> {
  const out: Record<Bucket | 'past', EvidenceLine[]> = { hung: [], down: [], either: [], past: [] };
  const log = ctx.kubeletLog;
  if (log === undefined) return out;
  // A log read with the rest ends at the collection time: its last minutes are "now". A log of unknown
  // time (a bundle put together by hand) tells the present only while the node is unhealthy now.
  // Lines before a recovery the log shows are over, however recent.
  const recoveredAt = log.contemporaneous ? (recoveryInLog(log)?.line ?? 0) : 0;
  const recent = (r: LogLineRef): boolean =>
    log.contemporaneous && r.beforeEndSeconds !== undefined ? r.beforeEndSeconds <= RECENT_LOG_SECONDS && r.line > recoveredAt : unhealthyNow;
  const kinds = [
    [log.relistFailures, 'relist failed, "GenericPLEG: Unable to retrieve pods"'],
    [log.runtimeDown, 'runtime status check failing'],
  ] as const;
  for (const [refs, what] of kinds) {
    for (const bucket of ['hung', 'down', 'either'] as const) {
      const line = refsLine(refs, what, (r) => recent(r) && bucketOf(r.err ?? r.message) === bucket);
      if (line !== undefined) out[bucket].push(line);
    }
    const past = refsLine(refs, what, (r) => !recent(r));
    if (past !== undefined) out.past.push(past);
  }
  return out;
}

/**
 * On a docker node (dockershim, or cri-dockerd) the CRI calls hang behind dockerd: `docker ps` and
 * `docker info` against the kubelet's daemon time it directly, as the seeds did by hand. A call that waits
 * out the probe deadline is dockerd not answering; one that answers dates the daemon and its drivers.
 */
function dockerLines(ctx: CheckContext): { hung: EvidenceLine[]; context: EvidenceLine[] } {
  const out: { hung: EvidenceLine[]; context: EvidenceLine[] } = { hung: [], context: [] };
  const docker = ctx.probes?.docker;
  if (docker === undefined) return out;
  const ps = docker.ps;
  if (ps.status === 'timeout') out.hung.push({ origin: 'nodeSide', text: `\`docker ps\` against ${docker.endpoint} did not answer within ${approxSeconds(ps.durationMs / 1000)}: dockerd is not answering` });
  else if (ps.status === 'ok') out.context.push({ origin: 'nodeSide', text: `\`docker ps\` against ${docker.endpoint} answered in ${Math.round(ps.durationMs)} ms (${ps.value.containers} containers)` });
  const info = docker.info;
  if (info.status === 'timeout') out.hung.push({ origin: 'nodeSide', text: `\`docker info\` against ${docker.endpoint} did not answer within ${approxSeconds(info.durationMs / 1000)}` });
  else if (info.status === 'ok') {
    out.context.push({ origin: 'nodeSide', text: `\`docker info\`: Docker ${info.value.serverVersion}, storage driver ${info.value.storageDriver}, cgroup driver ${info.value.cgroupDriver} (answered in ${Math.round(info.durationMs)} ms)` });
  }
  return out;
}

const REMEDIATION: Remediation[] = [
  { text: 'See whether the runtime answers at all (crictl gives up after 10 s)', gate: 'readOnly', command: 'timeout 15 crictl -t 10s pods' },
  { text: 'Docker only: time dockerd itself (a hung daemon never answers)', gate: 'readOnly', command: 'time timeout 15 docker ps -q; timeout 15 docker info --format "{{.ServerVersion}} {{.Driver}}"' },
  {
    text: 'Check the runtime process state: T = stopped, D = stuck in the kernel',
    gate: 'readOnly',
    command: 'ps -o pid=,stat=,wchan=,comm= -p "$(pidof containerd dockerd crio | tr " " ,)"',
  },
  { text: 'Read the runtime’s log around the time PLEG went stale', gate: 'readOnly', command: 'journalctl -u containerd --since "-30min" --no-pager | tail -n 200' },
  { text: 'Docker only: make dockerd write a goroutine dump before restarting it', gate: 'confirm', command: 'kill -USR1 "$(pidof dockerd)"' },
  {
    text: 'Restart the runtime (Docker without live-restore stops every container on the node)',
    gate: 'disruptive',
    command: 'systemctl restart containerd',
  },
  { text: 'Pin or upgrade a known-bad runtime version (containerd 1.4.4 → 1.4.3, Docker 20.10.19)', gate: 'destructive' },
];

const REFS = ['containerd/containerd#5274', 'moby/moby#44300', 'containerd/containerd#3529', 'kubernetes/kubernetes#45419'];

export const runtimeHungCheck: Check = {
  id: 'runtime-hung',
  title: 'Container runtime hung or slow',
  run(ctx: CheckContext): CheckOutcome {
    const hung: EvidenceLine[] = [];
    const down: EvidenceLine[] = [];
    const slow: EvidenceLine[] = [];
    const either: EvidenceLine[] = [];
    const c = ctx.classification;

    if (c.errors.some((e) => e.kind === 'runtime-down' || e.kind === 'runtime-not-ready' || e.kind === 'runtime-status-pending') && c.verdict !== 'startup') {
      either.push(readyLine(ctx));
    }

    // With one scrape, durations cover the kubelet's whole life: slow samples may be from a hang long
    // over. They only count while the node is unhealthy now.
    const unhealthyNow = ctx.plegUnhealthy || c.verdict === 'runtime-down';
    let listEvidence = false;
    for (const name of [...LIST_OPERATIONS, 'status', 'version']) {
      const op = operation(ctx, name);
      if (op === undefined) continue;
      if ((LIST_OPERATIONS as readonly string[]).includes(name)) listEvidence = true;
      if (op.window === 'sinceStart' && !unhealthyNow) continue;
      const mean = meanSeconds(op);
      const p99 = op.p99Seconds;
      const rising = op.errorsDelta !== undefined && op.errorsDelta > 0;
      const deadline = (p99 !== undefined && isDeadlineLike(ctx, p99)) || (mean !== undefined && isDeadlineLike(ctx, mean));
      if (rising) {
        const bucket = deadline ? hung : mean !== undefined && mean < FAST_FAILURE_SECONDS ? down : either;
        bucket.push(errorsLine(ctx, op));
        if (op.duration !== undefined && op.duration.count > 0) bucket.push(durationLine(op));
      } else if (deadline) {
        hung.push(durationLine(op));
      } else if ((LIST_OPERATIONS as readonly string[]).includes(name) && p99 !== undefined && p99 >= SLOW_LIST_SECONDS) {
        slow.push(durationLine(op));
      }
    }

    const relist = ctx.goroutines?.relist;
    if (relistStuckIn(ctx, ['ListPodSandbox', 'ListContainers'])) {
      const line = relistGoroutineLine(ctx);
      if (line !== undefined) hung.push(line);
    }
    for (const b of Array.isArray(ctx.goroutines?.criBlocked) ? ctx.goroutines.criBlocked : []) {
      // Only waits of a minute or more: a dump may catch any healthy call in flight.
      const waited = b.maxWaitMinutes !== undefined && b.maxWaitMinutes >= 1;
      if (RUNTIME_METHODS.has(b.method) && b.count > 0 && waited && relist?.blockedIn !== b.method) {
        hung.push({ origin: 'goroutines', text: `${b.count} goroutines wait inside ${quoted(b.method)}${b.maxWaitMinutes !== undefined ? ` (up to ${b.maxWaitMinutes} minutes)` : ''}` });
      }
    }

    if (metricsHangWhileHealthzAnswers(ctx) && ctx.plegUnhealthy) {
      hung.push(metricsHangLine(ctx));
    }

    const snapshot = ctx.snapshot;
    if (snapshot !== undefined) {
      for (const f of snapshot.findings ?? []) {
        if (f.kind === 'runtimeUnresponsive') hung.push({ origin: 'nodeSide', text: `CRI snapshot: ${f.message} (${f.methods.join(', ')})` });
        else if (f.kind === 'runtimeUnreachable') down.push({ origin: 'nodeSide', text: `CRI snapshot: ${f.message} (${f.methods.join(', ')})` });
        else if (f.kind === 'slowCalls' && f.methods.some((m) => RUNTIME_METHODS.has(m))) slow.push({ origin: 'nodeSide', text: `CRI snapshot: ${f.message}` });
      }
      const noFindingYet = hung.length === 0 && down.length === 0;
      for (const e of snapshot.errors ?? []) {
        if (!RUNTIME_METHODS.has(e.method) || !noFindingYet) continue;
        const line: EvidenceLine = { origin: 'nodeSide', text: `CRI ${e.method} failed after ${Math.round(e.ms)} ms: ${e.code} ${e.codeName} ${quoted(e.message)}` };
        if (e.codeName === 'DEADLINE_EXCEEDED') hung.push(line);
        else if (e.codeName === 'UNAVAILABLE') down.push(line);
        else either.push(line);
      }
    }
    const processes = ctx.probes?.runtimeProcesses;
    if (processes?.status === 'ok') {
      for (const p of processes.value) {
        if (p.state === 'stopped' || p.state === 'uninterruptible') {
          const meaning = p.state === 'stopped' ? 'stopped (SIGSTOP or a debugger)' : `stuck in the kernel${p.wchan !== undefined ? ` in ${quoted(p.wchan)}` : ''}`;
          hung.push({ origin: 'nodeSide', text: `${quoted(p.comm)} (pid ${p.pid}) has state ${quoted(p.stat)}: ${meaning}` });
        }
      }
      if (processes.value.length === 0 && (down.length > 0 || either.length > 0)) {
        down.push({ origin: 'nodeSide', text: 'no containerd, dockerd or crio process is running' });
      }
    }

    const docker = dockerLines(ctx);
    hung.push(...docker.hung);

    const fromLog = logLines(ctx, unhealthyNow);
    hung.push(...fromLog.hung);
    down.push(...fromLog.down);
    either.push(...fromLog.either);

    const bad = knownBadRuntime(ctx);
    const badLine: EvidenceLine | undefined = bad !== undefined ? { origin: bad.origin, text: bad.text } : undefined;
    // The daemon's own answers (docker info's version and drivers, docker ps answering) are context for any
    // finding, not a finding themselves.
    const withBad = (lines: EvidenceLine[]): EvidenceLine[] => [...lines, ...docker.context, ...(badLine !== undefined ? [badLine] : [])];

    const base = { cause: 1, remediation: REMEDIATION, refs: REFS };
    if (hung.length > 0) {
      return found({
        ...base,
        severity: 'problem',
        title: RUNTIME_NOT_ANSWERING,
        summary: `CRI calls that every relist makes (ListPodSandbox, ListContainers) wait out the ${seconds(ctx.runtimeRequestTimeoutMs / 1000)} runtimeRequestTimeout. A relist that cannot list pods does not advance PLEG's clock, so after 3 minutes the node goes NotReady and stays so until the runtime answers again.`,
        evidence: withBad([...hung, ...either, ...down]),
      });
    }
    if (down.length > 0 || either.length > 0) {
      const fast = down.length > 0;
      return found({
        ...base,
        severity: 'problem',
        title: fast ? RUNTIME_DOWN : RUNTIME_NOT_ANSWERING,
        summary: fast
          ? 'CRI calls fail immediately (the runtime is not running or refuses connections). The kubelet reports ' +
            '"container runtime is down" after 30 s without a successful Status call, relists cannot list pods, ' +
            'and every pod sync is skipped until the runtime is back.'
          : 'The kubelet reports the runtime down or not ready: its CRI Status call has not succeeded for over 30 ' +
            's, relists cannot list pods, and every pod sync is skipped until the runtime answers again.',
        evidence: withBad([...down, ...either]),
      });
    }
    if (slow.length > 0) {
      return found({
        ...base,
        severity: ctx.plegUnhealthy ? 'problem' : 'warning',
        title: RUNTIME_SLOW,
        summary: 'ListPodSandbox and ListContainers run on every relist; when they take seconds, every relist does, and with many pods to inspect a relist can pass the 3 minute threshold.',
        evidence: withBad(slow),
      });
    }
    if (fromLog.past.length > 0) {
      return found({
        ...base,
        severity: 'warning',
        title: 'The container runtime failed CRI calls earlier (kubelet log)',
        summary:
          'The node is healthy now, but earlier in the kubelet log relists could not list pods or the runtime status check failed. Each such stretch keeps PLEG from advancing; if it lasts 3 minutes the node goes NotReady. Look at the runtime around those times.',
        evidence: withBad(fromLog.past),
      });
    }
    if (bad !== undefined) {
      return found({
        ...base,
        severity: 'warning',
        title: 'Known-bad container runtime version',
        summary: bad.why,
        evidence: [{ origin: bad.origin, text: bad.text }],
      });
    }
    const list = [...LIST_OPERATIONS].map((n) => operation(ctx, n)).filter((o) => o !== undefined);
    if (listEvidence) {
      const facts = list.map((o) => {
        const recent = o.window === 'interval' && (o.duration?.count ?? 0) > 0;
        const mean = recent ? meanSeconds(o) : o.cumulative !== undefined && o.cumulative.count > 0 ? o.cumulative.sum / o.cumulative.count : undefined;
        const timing = mean !== undefined ? `mean ${seconds(mean)} ${recent ? 'between the scrapes' : 'since start'}` : 'no samples';
        return `${o.name} ${timing}, ${o.errorsDelta !== undefined ? `${o.errorsDelta} new errors` : `${o.errors ?? 0} errors since start`}`;
      });
      return clear(facts.join('; '));
    }
    if (snapshot !== undefined) return clear(`CRI snapshot took ${Math.round(snapshot.durationMs)} ms with no failed List/Status call`);
    if (!ctx.plegUnhealthy && c.readyStatus === 'True') return clear('Ready=True: the kubelet’s runtime status check passes (no CRI metrics or snapshot to look further)');
    return noEvidence(missingNotes(ctx.evidence, ['metrics', 'goroutines', 'nodeSide']));
  },
};
