// What the log reader knows of one kubelet line (logReaderLine.ts makes it; the memos, the sequencer, the
// language server and Diagnose's log clock read it). A leaf of types, so the memo modules and the line
// reader do not import each other.

import type { YearlessTime } from './klogHeader';

export type LineTime = { epochMs: number } | { yearless: YearlessTime };

export type LineEvent =
  /** R1/R3 anywhere in the line: the kubelet says PLEG is past its threshold. */
  | { kind: 'pleg-unhealthy'; lastSeenAgoSeconds?: number; evented: boolean }
  /** R2: no relist has succeeded since the kubelet started. */
  | { kind: 'pleg-never' }
  /** L1, with the ReadyError kinds of its err (runtime-down, pleg-stale, …). */
  | { kind: 'skip-sync'; reasons: string[] }
  /** L2, with the runtime's error. */
  | { kind: 'relist-failure'; err?: string }
  /** L5, or evented PLEG's own discard line. */
  | { kind: 'event-discard'; evented: boolean }
  /** L12 ("sanity check failed", "not ready"), or R4 "container runtime is down" outside a skip line. */
  | { kind: 'runtime-down'; text: string; err?: string }
  /** L10: evented PLEG failing or falling back to generic relisting. */
  | { kind: 'evented-fallback'; text: string }
  | { kind: 'housekeeping-slow'; actual?: string }
  | { kind: 'node-not-ready'; text: string }
  | { kind: 'node-ready'; text: string }
  /** "Kubelet version" (1.21+) or `Version: v1.x` (older): a kubelet process starts. */
  | { kind: 'kubelet-start'; version?: string };

export type LineEventKind = LineEvent['kind'];

export interface LineFacts {
  time?: LineTime;
  /** klog's header pid, else the journald `kubelet[pid]`. */
  pid?: number;
  /** `HH:MM:SS` as the line prints it, for people. */
  clock?: string;
  events: LineEvent[];
}
