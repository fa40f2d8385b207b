// PLEG-relevant findings in a kubelet log (journalctl, /var/log/messages, klog text or JSON lines), for the
// language server's diagnostics and hovers. One finding per line at most: the most telling rule wins.

import { meansNeverRelisted, parseGoDurationSeconds } from '../util/goDuration';
import { readJournalJson } from './journalJson';
import { stripLogPrefix } from './klogPrefix';
import type { CatalogRule, RuleId } from './messageCatalog';
import {
  E1, KLOG, L1, L10, L11, L12, L13, L2, L3, L4, L5, L6, L7, L8, L9, R1, R2, R3, R4, R8, X1, X2, X3, X4,
} from './messageCatalog';
import { parseReadyMessage, unquoteGo } from './readyMessage';

export type FindingSeverity = 'error' | 'warning' | 'information' | 'hint';

export interface LogFinding {
  /** 0-based line number. */
  line: number;
  /** 0-based UTF-16 columns of the matched text within the line. */
  start: number;
  end: number;
  rule: RuleId;
  severity: FindingSeverity;
  /** One sentence for the Problems view. */
  message: string;
  /** Markdown for the hover: what the line says, in numbers, and what it means. */
  explanation: string;
}

interface LineView {
  /** The text the patterns run on (the klog body, or `msg` + ` err="…"` of a JSON line). */
  body: string;
  /** Offset of `body` in the raw line, or -1 when the body was rebuilt (JSON) and columns cannot map. */
  offset: number;
  /** klog severity letter, when there is one. */
  severity?: 'I' | 'W' | 'E' | 'F';
}

/**
 * Strips a collector prefix (the reader's own: klogPrefix.ts) and a klog header; unpacks JSON log lines and
 * `journalctl -o json` entries. Tolerant: unknown lines pass through.
 */
export function viewLine(raw: string): LineView {
  const entry = readJournalJson(raw);
  // The MESSAGE is JSON-escaped inside the entry: its columns do not map onto the raw line.
  if (entry !== undefined) return { ...viewLine(entry.message), offset: -1 };
  const stripped = stripLogPrefix(raw);
  const offset = stripped?.rest ?? 0;
  const body = offset === 0 ? raw : raw.slice(offset);
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const obj = JSON.parse(trimmed) as unknown;
      if (typeof obj === 'object' && obj !== null && typeof (obj as Record<string, unknown>)['msg'] === 'string') {
        const rec = obj as Record<string, unknown>;
        const err = typeof rec['err'] === 'string' ? ` err=${JSON.stringify(rec['err'])}` : '';
        const view: LineView = { body: `"${String(rec['msg'])}"${err}`, offset: -1 };
        const v = rec['v'];
        if (typeof v === 'number') view.severity = 'I';
        if (err !== '' && v === undefined) view.severity = 'E';
        return view;
      }
    } catch {
      // Not JSON after all (a Go struct dump); fall through and match the text as it is.
    }
  }
  const klog = KLOG.exec(body);
  const kbody = klog?.groups?.['body'];
  const sev = klog?.groups?.['sev'];
  if (kbody !== undefined) {
    const view: LineView = { body: kbody, offset: offset + body.length - kbody.length };
    if (sev === 'I' || sev === 'W' || sev === 'E' || sev === 'F') view.severity = sev;
    return view;
  }
  return { body, offset };
}

interface Check {
  rule: CatalogRule;
  severity: FindingSeverity;
  message: (m: RegExpExecArray, body: string) => string;
  explain: string;
}

const ERR_FIELD = /\berr="((?:[^"\\]|\\.)*)"/u;

function errOf(body: string): string | undefined {
  const m = ERR_FIELD.exec(body);
  return m?.[1] !== undefined ? unquoteGo(m[1]) : undefined;
}

/**
 * The Ready message inside a "Node became not ready" line: klog prints the condition Go-style
 * (`{Type:Ready … Message:… }`, Message being the last field) or as JSON (`"message":"…"`).
 */
export function conditionMessage(body: string): string | undefined {
  const json = /"message":"((?:[^"\\]|\\.)*)"/u.exec(body);
  if (json?.[1] !== undefined) {
    try {
      return JSON.parse(`"${json[1]}"`) as string;
    } catch {
      // An escape JSON does not know (klog quotes with Go rules): the raw text still reads fine.
      return json[1];
    }
  }
  const go = / Message:(.*?)\}?\s*$/u.exec(body);
  return go?.[1];
}

/** Describes the errors of a Ready-style message in one short phrase. */
export function describeReadyErrors(text: string): string {
  const parsed = parseReadyMessage(text);
  const parts = parsed.errors.map((e) => {
    switch (e.kind) {
      case 'pleg-stale':
        return `PLEG not healthy (last relist ${e.lastSeenAgo ?? '?'} ago, threshold ${e.threshold ?? '?'})`;
      case 'pleg-never':
        return 'PLEG has not relisted successfully yet';
      case 'evented-pleg-full':
        return `EventedPLEG channel full (${e.channelEvents ?? '?'} events)`;
      case 'runtime-down':
        return 'container runtime is down';
      case 'runtime-status-pending':
        return 'runtime status check not completed yet';
      case 'runtime-not-ready':
        return 'container runtime not ready';
      case 'network-not-ready':
        return 'runtime network not ready';
      case 'capacity-missing':
        return 'missing node capacity';
      case 'shutting-down':
        return 'node shutting down';
      case 'other':
        return e.text;
    }
  });
  return parts.length > 0 ? parts.join('; ') : text;
}

function plegExplanation(text: string): string {
  const m = R1.regex.exec(text);
  const ago = m?.groups?.['ago'];
  const thr = m?.groups?.['thr'];
  if (ago === undefined || thr === undefined) return '';
  try {
    const a = parseGoDurationSeconds(ago);
    const t = parseGoDurationSeconds(thr);
    if (meansNeverRelisted({ seconds: a })) {
      return `\n\nThe kubelet printed the maximum Go duration (\`${ago}\`): an old kubelet's way of saying PLEG **never** relisted successfully.`;
    }
    return (
      `\n\nThe last successful relist **started** \`${ago}\` (${a.toFixed(1)} s) before this line; the threshold is \`${thr}\` ` +
      `(${t.toFixed(0)} s), so it is ${(a - t).toFixed(1)} s over. Each relist that fails or hangs (one CRI call may take the ` +
      '2 min `runtimeRequestTimeout`) keeps this number growing until a relist succeeds.'
    );
  } catch {
    return '';
  }
}

const PLEG_MEANING =
  'While PLEG is unhealthy the node is **Ready=False** (reason KubeletNotReady), the sync loop skips every pass: no pod ' +
  'is created, updated or killed (so debug and shell pods cannot start), running containers keep running.';

/** Checks in priority order: the first rule that matches a line makes its finding. */
const CHECKS: readonly Check[] = [
  {
    rule: L1,
    severity: 'error',
    message: (m) => `Pod synchronization skipped: ${describeReadyErrors(m.groups?.['e2'] !== undefined ? unquoteGo(m.groups['e2']) : (m.groups?.['e1'] ?? ''))}`,
    explain: `The kubelet's sync loop skipped a pass because \`runtimeErrors()\` is non-empty. ${PLEG_MEANING} The pass is retried with a backoff of 100 ms doubling to 5 s.`,
  },
  {
    rule: L2,
    severity: 'error',
    message: (_m, body) => `Relist could not list pods from the runtime${errOf(body) !== undefined ? `: ${errOf(body) ?? ''}` : ''}`,
    explain:
      'GetPods (CRI ListPodSandbox + ListContainers) failed, so this relist produced nothing and the PLEG "last seen" time did **not** advance. ' +
      '`DeadlineExceeded` means the runtime is hung or very slow (check `crictl -t 10s pods` on the node). Three minutes of these make PLEG unhealthy.',
  },
  {
    rule: L9,
    severity: 'error',
    message: () => 'The sync loop has not run for too long (healthz syncloop check failing)',
    explain:
      'The `/healthz` syncloop check fails once no sync-loop pass has started for max(2 × syncFrequency, 5 min). From 1.32 a kubelet unit with `WatchdogSec=` is then restarted by systemd.',
  },
  {
    rule: L6,
    severity: 'error',
    message: (_m, body) => {
      const message = conditionMessage(body);
      return `Node became not ready${message !== undefined && message !== '' ? `: ${describeReadyErrors(message)}` : ''}`;
    },
    explain: 'The kubelet set its Ready condition to False; the node gets the `node.kubernetes.io/not-ready` taints and, after 300 s, its pods are evicted.',
  },
  {
    rule: R1,
    severity: 'error',
    message: (m) => `PLEG is not healthy: last relist ${m.groups?.['ago'] ?? '?'} ago (threshold ${m.groups?.['thr'] ?? '?'})`,
    explain: `PLEG has not completed a successful relist for longer than its threshold. ${PLEG_MEANING}`,
  },
  {
    rule: R3,
    severity: 'error',
    message: (m) => `EventedPLEG channel full (${m.groups?.['n'] ?? '?'} events)`,
    explain: 'With the EventedPLEG gate on, PLEG reports unhealthy when its event channel is exactly full (1000 events).',
  },
  {
    rule: L12,
    severity: 'error',
    message: (m) => `${m[0].replace(/\s+/gu, ' ')}${errOf(m.input) !== undefined ? `: ${errOf(m.input) ?? ''}` : ''}`,
    explain: 'The kubelet polls CRI `Status` every 5 s; no success for 30 s makes the Ready message say `container runtime is down`.',
  },
  {
    rule: R2,
    severity: 'warning',
    message: () => 'PLEG has not relisted successfully since the kubelet started',
    explain: 'Normal for the first seconds after a kubelet start. If it lasts more than 3 min, the first relist is stuck: the runtime is hung or has a very large number of containers.',
  },
  {
    rule: R4,
    severity: 'error',
    message: (m) => (m.groups?.['down'] !== undefined ? 'Container runtime is down' : 'Container runtime status check has not completed yet'),
    explain: 'CRI `Status` has failed for more than 30 s (`is down`), or has not run yet (`may not have completed yet`, normal right after a start).',
  },
  {
    rule: L5,
    severity: 'warning',
    message: () => 'PLEG event channel full: events of this relist were discarded',
    explain: 'The sync loop is not draining PLEG events fast enough (1000 queued). `kubelet_pleg_discard_events` grows; pods may miss updates until the next relist.',
  },
  {
    rule: L10,
    severity: 'warning',
    message: (_m, body) => body.replace(/^"|"$/gu, '').slice(0, 160),
    explain: 'Evented PLEG trouble. After 5 failed `GetContainerEvents` streams the kubelet falls back to generic relisting (1 s / 3 min). containerd < 1.7 has no events API.',
  },
  {
    rule: L4,
    severity: 'warning',
    message: () => 'PLEG cache write for a pod (an error here names the pod that slows every relist)',
    explain: 'From 1.24 a failed status write is logged at error level. The same pod failing every relist points at one stuck container: `timeout 10 crictl inspect <id>` on the node.',
  },
  {
    rule: L3,
    severity: 'warning',
    message: () => 'PLEG could not inspect a pod and dropped its events for this relist',
    explain: 'GetPodStatus failed for this pod; the same diff is computed again next relist. Repeated lines for one pod point at a hung container or shim.',
  },
  {
    rule: L11,
    severity: 'warning',
    message: () => 'A pod failed PLEG reinspection',
    explain: 'A pod whose inspection failed before failed again. In ≤1.31 such a pod can be inspected twice per relist, doubling the cost of one hung CRI call.',
  },
  {
    rule: L13,
    severity: 'information',
    message: (m) => m[0].replace(/\s+/gu, ' '),
    explain: 'systemd watchdog (1.32+): the kubelet stops notifying the watchdog while a health check fails, so systemd restarts it after `WatchdogSec`.',
  },
  {
    rule: R8,
    severity: 'warning',
    message: (m) => m[0],
    explain: 'Ready=Unknown: the node controller got no heartbeat for node-monitor-grace-period. The kubelet is dead, hung or cut off — a different failure than PLEG.',
  },
  {
    rule: E1,
    severity: 'information',
    message: (m) => `Node ${m.groups?.['node'] ?? '?'} is now ${m.groups?.['st'] ?? '?'}`,
    explain: 'A node event recorded a change of the Ready state.',
  },
  {
    rule: L7,
    severity: 'information',
    message: (_m, body) => body.replace(/^"|"$/gu, '').slice(0, 160),
    explain: 'The kubelet recorded a node event (e.g. NodeNotReady, NodeReady, Starting).',
  },
  {
    rule: X1,
    severity: 'error',
    message: (m) => `Docker daemon unreachable at ${m.groups?.['sock'] ?? '?'}`,
    explain: 'The Docker daemon does not answer; with dockershim or cri-dockerd every relist fails.',
  },
  {
    rule: X3,
    severity: 'error',
    message: (m) => `Kernel: ${m.groups?.['comm'] ?? '?'} (pid ${m.groups?.['pid'] ?? '?'}) blocked for more than ${m.groups?.['secs'] ?? '?'} s`,
    explain: 'A task is stuck in D state in the kernel; if it is a runtime, shim or `runc init`, CRI calls on it hang and relists stall.',
  },
  {
    rule: X4,
    severity: 'error',
    message: (m) => `NFS server ${m.groups?.['srv'] ?? '?'} not responding`,
    explain: 'A hung network mount blocks container inspection on it; relists can take 2 × runtimeRequestTimeout.',
  },
  {
    rule: X2,
    severity: 'warning',
    message: () => 'containerd could not get a task state in time (hung shim?)',
    explain: 'A shim did not answer. One hung shim usually does not trip PLEG on containerd, but stats, exec and `/metrics` calls hang.',
  },
  {
    rule: L8,
    severity: 'hint',
    message: () => 'PLEG event delivered: relists are running',
    explain: 'A recent line like this proves the relist loop is alive.',
  },
];

/** The finding for one line, if any. */
export function findingForLine(raw: string, line: number): LogFinding | undefined {
  const view = viewLine(raw);
  for (const check of CHECKS) {
    const m = check.rule.regex.exec(view.body);
    if (m === null) continue;
    let severity = check.severity;
    // A startup-only skip ("may not have completed yet", "yet to be successful") is a transient.
    if (check.rule.id === 'L1') {
      const kinds = parseReadyMessage(m.groups?.['e2'] !== undefined ? unquoteGo(m.groups['e2']) : (m.groups?.['e1'] ?? '')).errors.map(
        (e) => e.kind,
      );
      if (kinds.length > 0 && kinds.every((k) => k === 'pleg-never' || k === 'runtime-status-pending')) severity = 'warning';
    }
    const mapped = view.offset >= 0;
    const start = mapped ? view.offset + m.index : 0;
    const end = mapped ? start + m[0].length : raw.length;
    const detail = check.rule.id === 'L1' || check.rule.id === 'L6' || check.rule.id === 'R1' ? plegExplanation(view.body) : '';
    return {
      line,
      start,
      end,
      rule: check.rule.id,
      severity,
      message: check.message(m, view.body),
      explanation: `**${check.rule.id}: ${check.rule.title}**\n\n${check.explain}${detail}`,
    };
  }
  return undefined;
}

/** Findings for a whole document. Lines end at \n, \r\n or \r. */
export function findLogFindings(text: string): LogFinding[] {
  const out: LogFinding[] = [];
  text.split(/\r\n|\r|\n/u).forEach((raw, i) => {
    const f = findingForLine(raw, i);
    if (f !== undefined) out.push(f);
  });
  return out;
}
