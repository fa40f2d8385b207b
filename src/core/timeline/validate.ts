// Runtime validation of a TimelineSession read from a file or a webview: every error names the field
// (e.g. `relists[3].rpcs[0].latencyMs: expected a non-negative number, got "12"`). Collects up to 20
// errors instead of stopping at the first, so a hand-edited file can be fixed in one go.

import type { OnDemandGateSource } from '../pleg/onDemandGate';
import type { CriRpc } from '../pleg/cost/criCall';
import { KUBELET_PROFILE_IDS } from '../pleg/profiles';
import type { KubeletProfileId } from '../pleg/types';
import { TIMELINE_SESSION_FORMAT, type PredictedEvent, type TimelineSession } from './session';
import { errorText } from '../util/errorText';

export type SessionParseResult = { ok: true; session: TimelineSession } | { ok: false; errors: string[] };

const MAX_ERRORS = 20;
const RPCS: readonly CriRpc[] = ['ListPodSandbox', 'ListContainers', 'PodSandboxStatus', 'ContainerStatus', 'Status', 'Version'];
const PROFILES: readonly KubeletProfileId[] = KUBELET_PROFILE_IDS;
const SOURCES = ['live', 'metrics-series', 'simulation'] as const;
const GATE_SOURCES: readonly OnDemandGateSource[] = ['metrics', 'configz', 'versionDefault'];
const EVENT_TYPES = ['ContainerStarted', 'ContainerDied', 'ContainerRemoved', 'ContainerChanged'] as const;
const READY = ['True', 'False', 'Unknown'] as const;
const SCRAPES = ['ok', 'hung', 'error', 'forbidden'] as const;
const STALLS = ['hang', 'refused'] as const;
const POST_SOURCES = ['watch', 'heartbeat'] as const;
const PREDICTED: readonly PredictedEvent[] = ['runtime-down-posted', 'pleg-unhealthy', 'pleg-notready-posted', 'ready-posted'];

type Obj = Record<string, unknown>;

class Checker {
  readonly errors: string[] = [];

  fail(path: string, what: string, v: unknown): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push(`${path}: expected ${what}, got ${describe(v)}`);
  }

  object(v: unknown, path: string): Obj | null {
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Obj;
    this.fail(path, 'an object', v);
    return null;
  }

  array(o: Obj, key: string, path: string, each: (item: unknown, path: string) => void): void {
    const v = o[key];
    if (!Array.isArray(v)) return this.fail(`${path}${key}`, 'an array', v);
    v.forEach((item, i) => each(item, `${path}${key}[${i}]`));
  }

  num(o: Obj, key: string, path: string, opts: { optional?: boolean; min?: number; integer?: boolean } = {}): void {
    const v = o[key];
    if (v === undefined && opts.optional === true) return;
    const ok = typeof v === 'number' && Number.isFinite(v) && (opts.min === undefined || v >= opts.min) && (opts.integer !== true || Number.isInteger(v));
    if (ok) return;
    const kind = opts.integer === true ? 'integer' : 'number';
    this.fail(`${path}${key}`, opts.min === 0 ? `a non-negative ${kind}` : kind === 'integer' ? 'an integer' : 'a finite number', v);
  }

  str(o: Obj, key: string, path: string, optional = false): void {
    const v = o[key];
    if (v === undefined && optional) return;
    if (typeof v !== 'string') this.fail(`${path}${key}`, 'a string', v);
  }

  bool(o: Obj, key: string, path: string): void {
    if (typeof o[key] !== 'boolean') this.fail(`${path}${key}`, 'true or false', o[key]);
  }

  oneOf(o: Obj, key: string, path: string, values: readonly string[], optional = false): void {
    const v = o[key];
    if (v === undefined && optional) return;
    if (typeof v !== 'string' || !values.includes(v)) this.fail(`${path}${key}`, `one of ${values.map((x) => `"${x}"`).join(', ')}`, v);
  }

  numberMap(o: Obj, key: string, path: string): void {
    const v = o[key];
    if (v === undefined) return;
    const m = this.object(v, `${path}${key}`);
    if (m === null) return;
    for (const [k, x] of Object.entries(m)) if (typeof x !== 'number' || !Number.isFinite(x)) this.fail(`${path}${key}.${k}`, 'a number', x);
  }
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return String(v);
}

/** Validates parsed JSON (or a JSON text) as a TimelineSession. */
export function parseTimelineSession(input: unknown): SessionParseResult {
  let json = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input) as unknown;
    } catch (err) {
      return { ok: false, errors: [`not JSON: ${errorText(err)}`] };
    }
  }
  const c = new Checker();
  const o = c.object(json, '(session)');
  if (o === null) return { ok: false, errors: c.errors };
  if (o['format'] !== TIMELINE_SESSION_FORMAT) c.fail('format', `"${TIMELINE_SESSION_FORMAT}"`, o['format']);
  c.str(o, 'node', '');
  c.str(o, 'context', '', true);
  c.oneOf(o, 'source', '', SOURCES);
  c.str(o, 'via', '', true);
  c.str(o, 'kubeletVersion', '', true);
  c.str(o, 'containerRuntimeVersion', '', true);
  if (typeof o['startedAt'] !== 'string' || !Number.isFinite(Date.parse(o['startedAt']))) c.fail('startedAt', 'an ISO 8601 instant', o['startedAt']);
  c.num(o, 'durationMs', '', { min: 0 });
  const settings = c.object(o['settings'], 'settings');
  if (settings !== null) {
    c.num(settings, 'relistPeriodMs', 'settings.', { min: 0 });
    c.num(settings, 'thresholdMs', 'settings.', { min: 0 });
    c.num(settings, 'runtimeRequestTimeoutMs', 'settings.', { min: 0 });
    c.oneOf(settings, 'profile', 'settings.', PROFILES);
    c.bool(settings, 'evented', 'settings.');
    c.num(settings, 'maxPods', 'settings.', { optional: true, min: 0, integer: true });
    c.num(settings, 'nodeStatusUpdateFrequencyMs', 'settings.', { optional: true, min: 1 });
    if (settings['onDemandRelist'] !== undefined) {
      const gate = c.object(settings['onDemandRelist'], 'settings.onDemandRelist');
      if (gate !== null) {
        c.bool(gate, 'enabled', 'settings.onDemandRelist.');
        c.oneOf(gate, 'source', 'settings.onDemandRelist.', GATE_SOURCES);
      }
    }
  }
  c.array(o, 'lacks', '', (v, p) => {
    if (typeof v !== 'string') c.fail(p, 'a string', v);
  });
  c.array(o, 'relists', '', (v, p) => {
    const r = c.object(v, p);
    if (r === null) return;
    const q = `${p}.`;
    c.num(r, 'startMs', q);
    c.num(r, 'endMs', q);
    if (typeof r['startMs'] === 'number' && typeof r['endMs'] === 'number' && r['endMs'] < r['startMs']) c.fail(`${q}endMs`, `a number ≥ startMs (${r['startMs']})`, r['endMs']);
    c.bool(r, 'ok', q);
    c.str(r, 'error', q, true);
    c.array(r, 'rpcs', q, (x, rp) => {
      const s = c.object(x, rp);
      if (s === null) return;
      c.oneOf(s, 'rpc', `${rp}.`, RPCS);
      c.num(s, 'atMs', `${rp}.`);
      c.num(s, 'latencyMs', `${rp}.`, { min: 0 });
      c.str(s, 'error', `${rp}.`, true);
      c.str(s, 'pod', `${rp}.`, true);
    });
    c.array(r, 'podsInspected', q, (x, ip) => {
      if (typeof x !== 'string') c.fail(ip, 'a string', x);
    });
    c.num(r, 'events', q, { min: 0, integer: true });
    c.num(r, 'discards', q, { min: 0, integer: true });
    c.num(r, 'sinceLastRelistStartMs', q, { min: 0 });
    c.num(r, 'pods', q, { optional: true, min: 0, integer: true });
    c.num(r, 'containers', q, { optional: true, min: 0, integer: true });
    if (r['streamFailure'] !== undefined) {
      const f = c.object(r['streamFailure'], `${q}streamFailure`);
      if (f !== null) {
        c.str(f, 'error', `${q}streamFailure.`);
        c.num(f, 'failures', `${q}streamFailure.`, { min: 1, integer: true });
      }
    }
  });
  c.array(o, 'podEvents', '', (v, p) => {
    const e = c.object(v, p);
    if (e === null) return;
    c.num(e, 'atMs', `${p}.`);
    c.str(e, 'pod', `${p}.`);
    c.oneOf(e, 'type', `${p}.`, EVENT_TYPES);
    c.str(e, 'container', `${p}.`);
  });
  c.array(o, 'health', '', (v, p) => {
    const h = c.object(v, p);
    if (h === null) return;
    c.num(h, 'atMs', `${p}.`);
    c.bool(h, 'healthy', `${p}.`);
    c.str(h, 'message', `${p}.`, true);
  });
  // A Node condition as a lane entry: the Ready lane and (later) the PLEGAtRisk lane.
  const condition = (v: unknown, p: string): Record<string, unknown> | null => {
    const r = c.object(v, p);
    if (r === null) return null;
    c.num(r, 'atMs', `${p}.`);
    c.oneOf(r, 'status', `${p}.`, READY);
    c.str(r, 'reason', `${p}.`);
    c.str(r, 'message', `${p}.`);
    c.str(r, 'lastTransitionTime', `${p}.`, true);
    return r;
  };
  c.array(o, 'ready', '', (v, p) => void condition(v, p));
  c.array(o, 'kubelet', '', (v, p) => {
    const k = c.object(v, p);
    if (k === null) return;
    const q = `${p}.`;
    c.num(k, 'atMs', q);
    c.oneOf(k, 'scrape', q, SCRAPES);
    c.str(k, 'detail', q, true);
    for (const key of ['lastSeenAgeS', 'relistDurationS', 'relistIntervalS', 'discardEvents', 'runningPods', 'runningContainers', 'podRelistDurationS', 'scrapeMs']) {
      c.num(k, key, q, { optional: true });
    }
    c.numberMap(k, 'runtimeErrors', q);
    c.numberMap(k, 'runtimeLatencyS', q);
  });
  c.array(o, 'cost', '', (v, p) => {
    const r = c.object(v, p);
    if (r === null) return;
    const q = `${p}.`;
    c.num(r, 'atMs', q);
    c.num(r, 'relistMs', q, { min: 0 });
    c.num(r, 'pods', q, { min: 0, integer: true });
    c.num(r, 'projectedPods', q, { optional: true, min: 0, integer: true });
    c.num(r, 'projectedRelistMs', q, { optional: true, min: 0 });
    c.num(r, 'podRelistWaitMs', q, { optional: true, min: 0 });
  });
  // Lanes added later: optional, so older recordings still open.
  if (o['stalls'] !== undefined) {
    c.array(o, 'stalls', '', (v, p) => {
      const r = c.object(v, p);
      if (r === null) return;
      c.num(r, 'sinceMs', `${p}.`);
      c.num(r, 'untilMs', `${p}.`, { optional: true });
      c.oneOf(r, 'kind', `${p}.`, STALLS);
      c.oneOf(r, 'seenBy', `${p}.`, ['kubelet'], true);
    });
  }
  if (o['nodeStatusPosts'] !== undefined) {
    c.array(o, 'nodeStatusPosts', '', (v, p) => {
      const r = c.object(v, p);
      if (r === null) return;
      c.num(r, 'atMs', `${p}.`);
      c.oneOf(r, 'source', `${p}.`, POST_SOURCES);
    });
  }
  if (o['atRisk'] !== undefined) {
    c.array(o, 'atRisk', '', (v, p) => {
      const r = condition(v, p);
      if (r !== null) c.str(r, 'lastHeartbeatTime', `${p}.`, true);
    });
  }
  if (o['predictions'] !== undefined) {
    c.array(o, 'predictions', '', (v, p) => {
      const r = c.object(v, p);
      if (r === null) return;
      c.num(r, 'atMs', `${p}.`);
      c.oneOf(r, 'event', `${p}.`, PREDICTED);
      if (r['predictedAtMs'] !== null) c.num(r, 'predictedAtMs', `${p}.`);
    });
  }
  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  return { ok: true, session: json as TimelineSession };
}
