// An evidence bundle: one node's evidence as a folder of plain files, so a diagnosis can be re-run later,
// elsewhere, or on files gathered by hand (`curl …/proxy/metrics > metrics.txt`). Kubelet endpoints are
// kept as the raw bodies the kubelet sent and parsed again on reading, so a bundle written by an older
// PLEG Doctor is judged by the current parsers. Any subset of the files is a valid bundle: a missing
// file makes its source "skipped", and the checks that needed it `unknown`. This module is pure: the
// folder itself is read and written by src/infra/diagnose/evidenceBundle.ts.

import type { KubeEvent, KubeNode } from '../kube/objects';
import type { CriSnapshot, NodeProbeReport } from '../node/nodeSnapshotTypes';
import { summarizeGoroutineDump } from '../parse/goroutineDump';
import { parseHealthz } from '../parse/healthz';
import { parseKubeletConfigz } from '../parse/kubeletConfigz';
import { summarizeKubeletMetrics } from '../parse/kubeletMetrics';
import { bundleClock } from './clock/bundleClock';
import { EVIDENCE_SOURCES, type EvidenceSource, type Fetched, type NodeEvidence, type NodeSideEvidence } from './evidence';
import { kubeletLogEvidence, type KubeletLogEvidence, type KubeletLogOrigin } from './kubeletLog';
import { errorText } from '../util/errorText';

export const BUNDLE_FILES = {
  manifest: 'bundle.json',
  node: 'node.json',
  metrics: 'metrics.txt',
  metricsLater: 'metrics-later.txt',
  configz: 'configz.json',
  healthz: 'healthz.txt',
  goroutines: 'goroutines.txt',
  events: 'events.json',
  kubeletLog: 'kubelet.log',
  snapshot: 'snapshot.json',
  probes: 'probes.json',
} as const;
export type BundleFileKey = keyof typeof BUNDLE_FILES;
/** The report rendered when the bundle was written: for a person opening the folder. Never read back as evidence. */
export const BUNDLE_REPORT_FILE = 'report.md';
export type BundleFiles = Partial<Record<BundleFileKey | 'report', string>>;

export const BUNDLE_FORMAT = 'pleg-doctor-evidence-bundle/1';

/** The kubelet's answers as it sent them (collectNodeEvidence hands them over when asked to). */
export interface RawKubeletBodies {
  metrics?: string;
  metricsLater?: string;
  configz?: string;
  healthz?: { body: string; httpStatus: number };
  goroutines?: string;
  /** The kubelet's journal as read (over SSH or the NodeLogQuery), whole lines only. */
  kubeletLog?: string;
}

/** A source's outcome without its value: values live in their own files. */
type SourceStatus = { status: 'ok'; ms: number } | Exclude<Fetched<never>, { status: 'ok' }>;

export interface BundleManifest {
  format: typeof BUNDLE_FORMAT;
  context: string;
  nodeName: string;
  collectedAt: string;
  metricsIntervalMs: number;
  sources: Partial<Record<EvidenceSource, SourceStatus>>;
  podCount?: number;
  healthzHttpStatus?: number;
  nodeSide?: Omit<NodeSideEvidence, 'snapshot' | 'probes'>;
  /** How kubelet.log was read, so a re-read judges it as it was collected. */
  kubeletLog?: { origin: KubeletLogOrigin; window: string; cut?: string };
}

export class EvidenceBundleError extends Error {
  override readonly name = 'EvidenceBundleError';
}

function statusOf(f: Fetched<unknown>): SourceStatus {
  if (f.status === 'ok') return { status: 'ok', ms: f.ms };
  return f;
}

/** The files of a bundle for this evidence. Kubelet sources are written only when their raw body is at hand. */
/** The bundle's files; `reportMarkdown`, the diagnosis of this evidence rendered, goes in as report.md. */
export function bundleFilesOf(evidence: NodeEvidence, raw: RawKubeletBodies, reportMarkdown?: string): BundleFiles {
  const sources: BundleManifest['sources'] = {};
  for (const source of EVIDENCE_SOURCES) sources[source] = statusOf(evidence[source]);
  const manifest: BundleManifest = {
    format: BUNDLE_FORMAT,
    context: evidence.context,
    nodeName: evidence.nodeName,
    collectedAt: evidence.collectedAt,
    metricsIntervalMs: evidence.metricsIntervalMs,
    sources,
  };
  if (evidence.podCount.status === 'ok') manifest.podCount = evidence.podCount.value;
  if (raw.healthz !== undefined) manifest.healthzHttpStatus = raw.healthz.httpStatus;
  const files: BundleFiles = { node: `${JSON.stringify(evidence.node, null, 2)}\n` };
  if (evidence.events.status === 'ok') files.events = `${JSON.stringify({ kind: 'EventList', apiVersion: 'v1', items: evidence.events.value }, null, 2)}\n`;
  if (evidence.metrics.status === 'ok' && raw.metrics !== undefined) files.metrics = raw.metrics;
  if (evidence.metricsLater.status === 'ok' && raw.metricsLater !== undefined) files.metricsLater = raw.metricsLater;
  if (evidence.configz.status === 'ok' && raw.configz !== undefined) files.configz = raw.configz;
  if (evidence.healthz.status === 'ok' && raw.healthz !== undefined) files.healthz = raw.healthz.body;
  if (evidence.goroutines.status === 'ok' && raw.goroutines !== undefined) files.goroutines = raw.goroutines;
  if (evidence.kubeletLog.status === 'ok' && raw.kubeletLog !== undefined) {
    files.kubeletLog = raw.kubeletLog;
    const { origin, window, cut } = evidence.kubeletLog.value;
    manifest.kubeletLog = cut !== undefined ? { origin, window, cut } : { origin, window };
  }
  if (evidence.nodeSide.status === 'ok') {
    const { snapshot, probes, ...meta } = evidence.nodeSide.value;
    manifest.nodeSide = meta;
    files.snapshot = `${JSON.stringify(snapshot, null, 2)}\n`;
    if (probes !== undefined) files.probes = `${JSON.stringify(probes, null, 2)}\n`;
  }
  files.manifest = `${JSON.stringify(manifest, null, 2)}\n`;
  if (reportMarkdown !== undefined) files.report = reportMarkdown;
  return files;
}

function parseJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new EvidenceBundleError(`${file} is not valid JSON: ${errorText(e)}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readManifest(text: string | undefined): BundleManifest | undefined {
  if (text === undefined) return undefined;
  const m = parseJson(BUNDLE_FILES.manifest, text);
  if (!isObject(m) || m['format'] !== BUNDLE_FORMAT) {
    throw new EvidenceBundleError(`${BUNDLE_FILES.manifest} is not a PLEG Doctor bundle manifest (expected "format": "${BUNDLE_FORMAT}")`);
  }
  if (!isObject(m['sources'])) throw new EvidenceBundleError(`${BUNDLE_FILES.manifest} has no "sources" object`);
  return m as unknown as BundleManifest;
}

function readNode(text: string | undefined): KubeNode {
  if (text === undefined) throw new EvidenceBundleError(`the bundle has no ${BUNDLE_FILES.node}: a diagnosis needs at least the Node object (kubectl get node NAME -o json)`);
  const node = parseJson(BUNDLE_FILES.node, text);
  if (!isObject(node)) throw new EvidenceBundleError(`${BUNDLE_FILES.node} is not a Node object`);
  const name = isObject(node['metadata']) ? node['metadata']['name'] : undefined;
  if (typeof name !== 'string' || name === '') throw new EvidenceBundleError(`${BUNDLE_FILES.node} has no metadata.name: is it a Node object?`);
  if (node['kind'] !== undefined && node['kind'] !== 'Node') throw new EvidenceBundleError(`${BUNDLE_FILES.node} is a ${String(node['kind'])}, not a Node`);
  return node as KubeNode;
}

function readEvents(text: string): KubeEvent[] {
  const parsed = parseJson(BUNDLE_FILES.events, text);
  const items = Array.isArray(parsed) ? parsed : isObject(parsed) && Array.isArray(parsed['items']) ? parsed['items'] : undefined;
  if (items === undefined) throw new EvidenceBundleError(`${BUNDLE_FILES.events} is neither an EventList nor an array of events`);
  return items.filter(isObject) as KubeEvent[];
}

/** Without a manifest the status code is not known: the kubelet answers 500 exactly when a check failed. */
function healthzStatusOf(body: string): number {
  return /^\[-\]/mu.test(body) || /check failed/u.test(body) ? 500 : 200;
}

export interface BundleReading {
  evidence: NodeEvidence;
  /** Files the bundle holds that no check reads, and other remarks about the bundle itself. */
  notes: string[];
}

/**
 * The bundle's evidence. With a manifest, its collectedAt is the clock. Without one, each file's capture
 * time is derived from the evidence itself (clock/captureClock.ts), with `mtimes` (file name → epoch ms)
 * as one clue among others; `fallbackTime` is the collection time only when nothing else tells it.
 */
export function evidenceFromBundle(files: BundleFiles, fallbackTime: string, mtimes: Record<string, number> = {}): BundleReading {
  const manifest = readManifest(files.manifest);
  const node = readNode(files.node);
  const nodeName = node.metadata?.name ?? '';
  if (manifest !== undefined && manifest.nodeName !== '' && manifest.nodeName !== nodeName) {
    throw new EvidenceBundleError(`${BUNDLE_FILES.manifest} is about node "${manifest.nodeName}" but ${BUNDLE_FILES.node} is "${nodeName}"`);
  }
  const notes: string[] = [];
  const recorded = (source: EvidenceSource): SourceStatus | undefined => manifest?.sources[source];
  const absent = (source: EvidenceSource, file: string): Fetched<never> => {
    const was = recorded(source);
    // A source that failed when the bundle was written keeps its outcome: a hung /metrics is evidence.
    if (was !== undefined && was.status !== 'ok') return was;
    return { status: 'skipped', reason: `${file} is not in the evidence bundle` };
  };
  const ms = (source: EvidenceSource): number => {
    const was = recorded(source);
    return was?.status === 'ok' ? was.ms : 0;
  };
  const parsed = <T>(source: EvidenceSource, key: BundleFileKey, parse: (text: string) => T): Fetched<T> => {
    const text = files[key];
    if (text === undefined) return absent(source, BUNDLE_FILES[key]);
    try {
      return { status: 'ok', value: parse(text), ms: ms(source) };
    } catch (e) {
      return { status: 'failed', message: `${BUNDLE_FILES[key]} did not parse: ${errorText(e)}`, ms: 0 };
    }
  };

  const events: Fetched<KubeEvent[]> = files.events !== undefined ? { status: 'ok', value: readEvents(files.events), ms: ms('events') } : absent('events', BUNDLE_FILES.events);
  const podCount: Fetched<number> =
    manifest?.podCount !== undefined ? { status: 'ok', value: manifest.podCount, ms: ms('podCount') } : absent('podCount', `the pod count (${BUNDLE_FILES.manifest})`);
  const metrics = parsed('metrics', 'metrics', summarizeKubeletMetrics);
  const metricsLater = parsed('metricsLater', 'metricsLater', summarizeKubeletMetrics);
  const configz = parsed('configz', 'configz', parseKubeletConfigz);
  const healthz = parsed('healthz', 'healthz', (body) => parseHealthz(body, manifest?.healthzHttpStatus ?? healthzStatusOf(body)));
  const goroutines = parsed('goroutines', 'goroutines', summarizeGoroutineDump);

  let nodeSide: Fetched<NodeSideEvidence>;
  if (files.snapshot !== undefined) {
    const snapshot = parseJson(BUNDLE_FILES.snapshot, files.snapshot);
    if (!isObject(snapshot) || !Array.isArray(snapshot['sandboxes']) || !Array.isArray(snapshot['containers']) || !Array.isArray(snapshot['errors'])) {
      throw new EvidenceBundleError(`${BUNDLE_FILES.snapshot} is not a PLEG Doctor CRI snapshot (needs sandboxes, containers and errors)`);
    }
    const value: NodeSideEvidence = {
      host: manifest?.nodeSide?.host ?? nodeName,
      transport: manifest?.nodeSide?.transport ?? { kind: 'bundle', endpoint: '', reason: `read from ${BUNDLE_FILES.snapshot}` },
      connectMs: manifest?.nodeSide?.connectMs ?? 0,
      snapshot: { findings: [], timings: [], sandboxStatuses: [], containerStatuses: [], ...snapshot } as unknown as CriSnapshot,
    };
    // The way it came by (an agent's snapshot with its age) stays named when the bundle is judged again.
    const reachedBy = manifest?.nodeSide?.reachedBy;
    if (typeof reachedBy === 'string') value.reachedBy = reachedBy;
    if (files.probes !== undefined) {
      const probes = parseJson(BUNDLE_FILES.probes, files.probes);
      if (!isObject(probes)) throw new EvidenceBundleError(`${BUNDLE_FILES.probes} is not a probe report object`);
      value.probes = probes as unknown as NodeProbeReport;
    }
    nodeSide = { status: 'ok', value, ms: ms('nodeSide') };
  } else {
    nodeSide = absent('nodeSide', BUNDLE_FILES.snapshot);
    if (files.probes !== undefined) notes.push(`${BUNDLE_FILES.probes} is read only together with ${BUNDLE_FILES.snapshot}, which the bundle lacks`);
  }
  let kubeletLog: Fetched<KubeletLogEvidence>;
  if (files.kubeletLog !== undefined) {
    // Written by an export, the log was read with the rest and reaches the collection time; put in by
    // hand, it may be from any time, so its lines are history and never overrule the other sources.
    const meta = manifest?.kubeletLog;
    const exported = meta !== undefined && recorded('kubeletLog')?.status === 'ok';
    const value = kubeletLogEvidence(files.kubeletLog, {
      origin: exported ? meta.origin : 'bundle',
      window: exported ? `${meta.window} (${BUNDLE_FILES.kubeletLog})` : `${BUNDLE_FILES.kubeletLog} of the bundle`,
      contemporaneous: exported,
      ...(exported && meta.cut !== undefined ? { cut: meta.cut } : {}),
    });
    kubeletLog = { status: 'ok', value, ms: ms('kubeletLog') };
    if (!exported) notes.push(`${BUNDLE_FILES.kubeletLog} was not written with this bundle's manifest: its lines are read as history, not as the node's state when the other files were captured`);
  } else {
    kubeletLog = absent('kubeletLog', BUNDLE_FILES.kubeletLog);
  }

  const evidence: NodeEvidence = {
    context: manifest?.context ?? '',
    nodeName,
    collectedAt: manifest?.collectedAt ?? fallbackTime,
    node,
    events,
    podCount,
    metrics,
    metricsLater,
    metricsIntervalMs: manifest?.metricsIntervalMs ?? 0,
    configz,
    healthz,
    goroutines,
    nodeSide,
    kubeletLog,
  };
  if (manifest === undefined) {
    const clock = bundleClock(evidence, BUNDLE_FILES, files.kubeletLog, mtimes);
    evidence.captureClock = clock;
    if (clock.referenceMs !== undefined) {
      evidence.collectedAt = new Date(clock.referenceMs).toISOString();
      notes.push(`no ${BUNDLE_FILES.manifest}: each file's capture time is taken from the evidence itself; the folder is dated ${evidence.collectedAt}`);
    } else {
      notes.push(`no ${BUNDLE_FILES.manifest} and nothing in the files tells when they were captured: the folder is dated ${fallbackTime}, the newest file's modification time`);
    }
    for (const line of clock.notes) notes.push(`clock: ${line}`);
  }
  return { evidence, notes };
}
