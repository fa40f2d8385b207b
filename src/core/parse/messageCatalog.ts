// The message catalog of docs/kubelet-messages.md as compiled, documented regular expressions. Every rule keeps the
// guide's id (R1…R8 Ready messages, E1–E2 events, L1…L13 kubelet log lines, X1–X4 lines from outside the
// kubelet) so that diagnostics, tests and the guide can refer to the same thing.
//
// Deliberate differences from the guide's text, each to accept real variants the guide does not list:
// - Literal spaces in R, E, L and X patterns match any run of whitespace: pasted messages get re-wrapped or
//   doubly spaced ("PLEG is not healthy:  pleg was…").
// - R5 also accepts the pre-1.11 form without the leading "container" ("runtime network not ready: …").
// - None of the R patterns is anchored: a Ready message joins several errors and they are searched anywhere.

/** A Go Duration.String() value: `3m46.752815514s`, `250ms`, `1.1µs` (micro sign, Greek mu or `us`). */
export const DUR_SOURCE = String.raw`(?:\d+(?:\.\d+)?(?:ns|us|µs|μs|ms|s|m|h))+`;

/** Where a rule's text is found. */
export type RuleArea = 'ready' | 'event' | 'log' | 'external';

export type RuleId =
  | 'R1' | 'R2' | 'R3' | 'R4' | 'R5' | 'R6' | 'R7' | 'R8'
  | 'E1' | 'E2'
  | 'L1' | 'L2' | 'L3' | 'L4' | 'L5' | 'L6' | 'L7' | 'L8' | 'L9' | 'L10' | 'L11' | 'L12' | 'L13'
  | 'X1' | 'X2' | 'X3' | 'X4';

export interface CatalogRule {
  id: RuleId;
  area: RuleArea;
  /** What the text means, one line. */
  title: string;
  /** Unanchored, non-global; use `new RegExp(rule.regex.source, 'gu')` to find every occurrence. */
  regex: RegExp;
}

/** Replaces each literal space of a pattern source with `\s+` (none of our sources has one in a class). */
function loose(source: string): string {
  return source.replace(/ /gu, String.raw`\s+`);
}

function rule(id: RuleId, area: RuleArea, title: string, source: string): CatalogRule {
  return { id, area, title, regex: new RegExp(loose(source), 'u') };
}

export const R1 = rule(
  'R1',
  'ready',
  'PLEG is not healthy: the last successful relist started longer ago than the threshold',
  `PLEG is not healthy: pleg was last seen active (?<ago>${DUR_SOURCE}) ago; threshold is (?<thr>${DUR_SOURCE})`,
);
export const R2 = rule(
  'R2',
  'ready',
  'PLEG is not healthy: no relist has succeeded since the kubelet started',
  'PLEG is not healthy: pleg has yet to be successful',
);
export const R3 = rule(
  'R3',
  'ready',
  'EventedPLEG is not healthy: its event channel is exactly full',
  String.raw`EventedPLEG is not healthy: EventedPLEG: pleg event channel capacity is full with (?<n>\d+) events`,
);
/** The `kind` group tells the two forms apart: `down` (Status failing > 30 s) or `pending` (not run yet). */
export const R4 = rule(
  'R4',
  'ready',
  'The container runtime status check is failing or has not completed yet',
  'container runtime (?:(?<down>is down)|(?<pending>status check may not have completed yet))',
);
export const R5 = rule(
  'R5',
  'ready',
  'The container runtime (or its network) reports not ready',
  '(?:container )?runtime (?<net>network )?not ready:',
);
export const R6 = rule(
  'R6',
  'ready',
  'Not a PLEG problem: missing node capacity or node shutdown',
  '(?<capacity>missing node capacity for resources:)|(?<shutdown>node is shutting down)',
);
export const R7 = rule('R7', 'ready', 'The kubelet reports Ready', 'kubelet is posting ready status');
export const R8 = rule(
  'R8',
  'ready',
  'The node controller has no heartbeat from the kubelet (Ready=Unknown)',
  String.raw`Kubelet (?<lease>stopped posting|never posted) node status\.`,
);

export const E1 = rule(
  'E1',
  'event',
  'Node event: the Ready state changed',
  String.raw`Node (?<node>\S+) status is now: (?<st>NodeNotReady|NodeReady)`,
);
export const E2 = rule('E2', 'event', 'Pod event from the node controller: its node is not ready', '^Node is not ready$');

/** klog text header; `body` is the message. */
export const KLOG =
  /^(?<sev>[IWEF])(?<mmdd>\d{4}) (?<hms>\d\d:\d\d:\d\d\.\d{6})\s+(?<pid>\d+) (?<src>[^\]\s]+:\d+)\] (?<body>.*)$/u;
/** Traditional syslog / `journalctl` short prefix; `rest` is what the kubelet wrote. */
export const SYSL = /^(?<ts>\w{3}\s+\d+ [\d:]{8}) (?<host>\S+) kubelet(?:\[\d+\])?: (?<rest>.*)$/u;

export const L1 = rule(
  'L1',
  'log',
  'The sync loop skipped pod synchronization because the runtime or PLEG is unhealthy',
  String.raw`[Ss]kipping pod synchronization(?: - \[?(?<e1>.*?)\]?$|"\s+err="(?<e2>(?:[^"\\]|\\.)*)")`,
);
export const L2 = rule('L2', 'log', 'A relist failed to list pods from the runtime', 'GenericPLEG: Unable to retrieve pods');
export const L3 = rule('L3', 'log', 'PLEG could not inspect a pod and dropped its events', 'PLEG: Ignoring events for pod');
export const L4 = rule('L4', 'log', 'PLEG wrote (or failed to write) a pod status to the cache', 'PLEG: Write status');
export const L5 = rule(
  'L5',
  'log',
  'The PLEG event channel is full: events of this relist were discarded',
  String.raw`[Ee]vent channel is full, discard this relist\(\) cycle event`,
);
export const L6 = rule('L6', 'log', 'The kubelet set the node NotReady', 'Node became not ready');
export const L7 = rule('L7', 'log', 'The kubelet recorded a node event', 'Recording (?:NodeNotReady )?event message for node');
export const L8 = rule('L8', 'log', 'A PLEG event reached the sync loop (relists are running)', String.raw`SyncLoop \(PLEG\): event for pod`);
export const L9 = rule('L9', 'log', 'The sync loop has not run for too long (healthz syncloop check)', '[Ss]ync Loop took longer than expected');
export const L10 = rule('L10', 'log', 'Evented PLEG trouble or fallback to generic relisting', 'Evented PLEG: |Fall back to Generic PLEG relisting');
export const L11 = rule('L11', 'log', 'A pod failed reinspection after an earlier failure', String.raw`PLEG: pod (?:\S+ )?failed reinspection`);
export const L12 = rule(
  'L12',
  'log',
  'The kubelet’s periodic runtime status poll failed or reported not ready',
  'Container runtime (?:sanity check failed|(?:network )?not ready)',
);
export const L13 = rule(
  'L13',
  'log',
  'systemd watchdog state (1.32+)',
  'Do not notify watchdog this iteration|Starting systemd watchdog with interval|Systemd watchdog is not enabled',
);

export const X1 = rule(
  'X1',
  'external',
  'Docker daemon unreachable',
  String.raw`Cannot connect to the Docker daemon at (?<sock>\S+)\. Is the docker daemon running\?`,
);
export const X2 = rule('X2', 'external', 'containerd could not get a task’s state (hung shim)', 'get state.*context deadline exceeded');
export const X3 = rule(
  'X3',
  'external',
  'Kernel: a task is blocked (D state)',
  String.raw`task (?<comm>.+?):(?<pid>\d+) blocked for more than (?<secs>\d+) seconds`,
);
export const X4 = rule('X4', 'external', 'Kernel: an NFS server is not responding', String.raw`nfs: server (?<srv>\S+) not responding`);

export const READY_RULES: readonly CatalogRule[] = [R1, R2, R3, R4, R5, R6, R7, R8];
export const EVENT_RULES: readonly CatalogRule[] = [E1, E2];
export const LOG_RULES: readonly CatalogRule[] = [L1, L2, L3, L4, L5, L6, L7, L8, L9, L10, L11, L12, L13];
export const EXTERNAL_RULES: readonly CatalogRule[] = [X1, X2, X3, X4];
export const ALL_RULES: readonly CatalogRule[] = [...READY_RULES, ...EVENT_RULES, ...LOG_RULES, ...EXTERNAL_RULES];

/** A global copy of a rule's regex, for matchAll over a whole message. */
export function globalRegex(r: CatalogRule): RegExp {
  return new RegExp(r.regex.source, 'gu');
}
