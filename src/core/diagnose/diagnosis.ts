// What a diagnosis says. `diagnose()` (runDiagnosis.ts) turns NodeEvidence into a Diagnosis; the renderers
// (report/) turn it into the report the user reads. Nothing here runs anything: remediation is advice,
// labelled with the gate docs/root-causes.md assigns ("Gates").

import type { Verdict } from '../classify/types';
import type { EvidenceSource } from './evidence';

export type Severity = 'problem' | 'warning' | 'info';

/** The gate classes of docs/root-causes.md. */
export type RemediationGate = 'readOnly' | 'confirm' | 'disruptive' | 'destructive';

export interface Remediation {
  text: string;
  gate: RemediationGate;
  /** A command the user may run themselves, shown verbatim (never executed by PLEG Doctor). */
  command?: string;
}

/** Where a piece of evidence came from: one of the collected sources, or the Node object itself. */
export type EvidenceOrigin = EvidenceSource | 'node';

export interface EvidenceLine {
  origin: EvidenceOrigin;
  /** One fact, quoted or measured, e.g. `kubelet_runtime_operations_errors_total{list_podsandbox}` rose 2 → 4 in 5 s. */
  text: string;
}

export interface Finding {
  /** The check that produced it, e.g. "runtime-hung". */
  checkId: string;
  /** Row of the root-cause catalog in docs/root-causes.md, when the finding is one of its causes. */
  cause?: number;
  severity: Severity;
  /** One line, e.g. "The container runtime is not answering CRI calls". */
  title: string;
  /** One to three sentences: what is wrong and why it makes PLEG unhealthy (or not). */
  summary: string;
  evidence: EvidenceLine[];
  remediation: Remediation[];
  /** Upstream references, e.g. "kubernetes/kubernetes#45419". */
  refs: string[];
}

export type CheckStatus =
  /** The check found something (see `finding`). */
  | 'found'
  /** The check had the evidence it needs and found nothing wrong. */
  | 'clear'
  /** The check does not apply to this node (e.g. EventedPLEG checks with the gate off). */
  | 'notApplicable'
  /** The evidence it needs could not be collected; `note` says which and why. */
  | 'noEvidence';

export interface CheckResult {
  checkId: string;
  /** What the check looks for, e.g. "Container runtime hung or slow". */
  title: string;
  status: CheckStatus;
  finding?: Finding;
  note?: string;
}

export interface SourceReport {
  source: EvidenceSource;
  status: 'ok' | 'forbidden' | 'timeout' | 'unavailable' | 'failed' | 'skipped';
  ms?: number;
  /** The reason or error, for anything but ok. */
  detail?: string;
}

export interface Diagnosis {
  context: string;
  nodeName: string;
  collectedAt: string;
  /** The node's classification (classifyNode) at collection time. */
  verdict: Verdict;
  /** The kubelet's Ready message, verbatim, and since when the Ready condition has had its status. */
  readyMessage?: string;
  readySince?: string;
  /** One sentence for notifications, e.g. "NotReady (PLEG): the container runtime is not answering CRI calls". */
  headline: string;
  /** Findings, most severe first. */
  findings: Finding[];
  /** Every check of the catalog, in catalog order, with its status. */
  checks: CheckResult[];
  sources: SourceReport[];
  /** What could not be collected and how to get it, e.g. the nodes/proxy RBAC grant (with its warning). */
  gaps: string[];
}
