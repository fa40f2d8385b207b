// The seam between the panel and the timeline's producers (the live feed, the validator, the converters
// and the prediction in src/core/timeline, src/infra/timeline and src/host/timeline). The panel only
// knows this interface; the unit tests hand it their own.

import { readFile, stat } from 'node:fs/promises';
import type { SimulationRun } from '../../core/pleg/sim/simulationRun';
import { sessionFromSimulation } from '../../core/timeline/fromSimulation';
import { predictThreshold } from '../../core/timeline/predict';
import { TIMELINE_SESSION_FORMAT, type TimelineSession } from '../../core/timeline/session';
import { sessionFromMetricsSeries } from '../../core/timeline/fromMetrics';
import { parseTimelineSession } from '../../core/timeline/validate';
import { readMetricsFolder } from '../../infra/timeline/readMetricsFolder';
import type { NodeAccessRuntime } from '../nodeAccess/nodeAccessRuntime';
import type { Services } from '../services';
import { openLiveSource } from './liveSource';
import type { LiveSourceLike } from './sessionFeed';
import { errorText } from '../../core/util/errorText';

export interface LoadedRecording {
  session: TimelineSession;
  /** What the file was, for the panel's label, e.g. "a panel export". */
  kind: string;
}

export interface TimelineSources {
  /** Resolves once the way is chosen and the feed runs; `opening` aborts it while it opens (the panel closed). */
  openLive(services: Services, nodeAccess: NodeAccessRuntime, context: string, node: string, opening: AbortSignal): Promise<LiveSourceLike>;
  loadRecording(path: string): Promise<LoadedRecording>;
  /** The model's sentence about the threshold, or null when it predicts nothing; `silent`: the live source is not answering. */
  predict(session: TimelineSession, live: boolean, silent?: boolean): string | null;
}

/** A recording the panel cannot replay: the message names the file and the cause. */
export class RecordingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingError';
  }
}

function looksLikeSimulation(json: unknown): json is SimulationRun {
  if (typeof json !== 'object' || json === null) return false;
  const o = json as Record<string, unknown>;
  return typeof o['scenario'] === 'string' && Array.isArray(o['relists']) && Array.isArray(o['health']) && typeof o['summary'] === 'object';
}

/** A panel export (or `pleg-doctor timeline --out`) or a `pleg-doctor simulate` timeline. */
export async function loadRecordingFile(path: string): Promise<LoadedRecording> {
  const info = await stat(path);
  if (info.isDirectory()) return loadEvidenceFolder(path);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8')) as unknown;
  } catch (error) {
    throw new RecordingError(`${path} is not JSON: ${errorText(error)}`);
  }
  if (typeof json === 'object' && json !== null && (json as Record<string, unknown>)['format'] === TIMELINE_SESSION_FORMAT) {
    const parsed = parseTimelineSession(json);
    if (!parsed.ok) throw new RecordingError(`${path} is not a valid timeline recording: ${parsed.errors.join('; ')}`);
    return { session: parsed.session, kind: 'a timeline recording' };
  }
  if (looksLikeSimulation(json)) return { session: sessionFromSimulation(json), kind: 'a pleg-doctor simulate timeline' };
  throw new RecordingError(`${path} is neither a timeline recording ("format": "${TIMELINE_SESSION_FORMAT}") nor a pleg-doctor simulate timeline`);
}

/** An evidence folder with a series of saved /metrics scrapes: the kubelet's own view, replayed. */
async function loadEvidenceFolder(path: string): Promise<LoadedRecording> {
  let scrapes;
  try {
    scrapes = await readMetricsFolder(path);
  } catch (error) {
    throw new RecordingError(`${path} is not an evidence folder with metrics scrapes: ${errorText(error)}`);
  }
  if (scrapes.length === 0) throw new RecordingError(`${path} holds no metrics scrapes`);
  return { session: sessionFromMetricsSeries({ scrapes }), kind: 'an evidence folder of metrics scrapes' };
}

export const timelineSources: TimelineSources = {
  openLive: openLiveSource,
  loadRecording: loadRecordingFile,
  predict: (session, live, silent = false) => {
    // A replay is judged at its end; a live session now.
    const nowMs = live ? Date.now() - Date.parse(session.startedAt) : session.durationMs;
    const prediction = predictThreshold(session, Number.isFinite(nowMs) ? nowMs : session.durationMs, { sourceSilent: live && silent });
    return prediction.state === 'unknown' && prediction.basis === 'none' ? null : prediction.sentence;
  },
};
