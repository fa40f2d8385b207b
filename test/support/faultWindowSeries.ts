// Prometheus series of a real frozen runtime, for `promtool test rules`: rebuilt from the recording of a
// real kubelet 1.32 whose containerd was SIGSTOPped for 300 s (test/fixtures/real-kubelet-1.32: a /metrics
// body every 30 s, metrics-requests.txt with when each request started and how long it took, and
// fault-times.json with the SIGSTOP and SIGCONT times).
//
// How a recorded request becomes a scrape: one scrape at the request's start (rounded to the second).
// With `scrapeTimeoutS` (Prometheus's default scrape_timeout is 10 s) a request that took longer is a
// failed scrape, as Prometheus would see it: up 0 and a staleness marker on every kubelet series. Without
// it every request is a scrape that answered (what a kubelet whose /metrics does not wait on the runtime
// shows: the 1.22 dockershim kubelet), with the values of the body recorded for it.
//
// Times: promtool starts every test at Unix time 0, so every time here is seconds after `origin` (60 s
// before the SIGSTOP, whole seconds), and kubelet_pleg_last_seen_seconds (a Unix time) is shifted by the
// same origin: `time() - value` is unchanged.
//
// The agent's pleg_doctor_notready_predicted_seconds has no recording yet (the agent is new), so it is
// derived from the same window: +Inf (nothing predicted) outside the freeze; during it, the seconds until
// the latest time the kubelet posts NotReady for this stall: its last successful relist start
// (kubelet_pleg_last_seen_seconds) + the 3 min threshold + one nodeStatusUpdateFrequency (10 s), because
// the post comes with the next node status update after the crossing. Scraped every 15 s.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parsePrometheusText } from '../../src/core/parse/prometheusText';

export const REAL_KUBELET_132 = resolve(__dirname, '../fixtures/real-kubelet-1.32');

/** The kubelet's PLEG threshold (relistThreshold, pkg/kubelet/pleg) and its default node status period. */
const PLEG_THRESHOLD_S = 180;
const NODE_STATUS_UPDATE_S = 10;
const AGENT_SCRAPE_S = 15;

export interface PromSeries {
  series: string;
  values: string;
}

export interface FaultWindow {
  /** Seconds after the origin, as promtool's clock reads them. */
  stopAt: number;
  contAt: number;
  /**
   * The start of the last successful relist before the freeze: the highest kubelet_pleg_last_seen_seconds
   * in any body recorded before the SIGCONT, answered in time or not (the gauge follows the relist only when
   * Healthy() next runs, so the last scrape before the freeze may still show the relist before it).
   */
  lastSeenAt: number;
  /** When the kubelet's Healthy() turns false: lastSeenAt + 180 s. */
  thresholdAt: number;
  /** The last second the series cover. */
  endAt: number;
  /** The kubelet's node name in the recording (kubelet_node_name). */
  node: string;
  kubeletInstance: string;
  agentInstance: string;
  series: PromSeries[];
  /** The highest kubelet_pleg_last_seen_seconds Prometheus scraped at or before second `t`. */
  scrapedLastSeenAt(t: number): number;
  /** The agent's pleg_doctor_notready_predicted_seconds as last scraped at or before second `t`. */
  predictedAt(t: number): number;
}

interface Scrape {
  at: number;
  phase: string;
  answered: boolean;
}

function readScrapes(dir: string, origin: number, scrapeTimeoutS: number | undefined): Scrape[] {
  const scrapes: Scrape[] = [];
  for (const line of readFileSync(join(dir, 'metrics-requests.txt'), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const m = /^(\S+) request_start=(\S+) done=\S+ http_code_and_seconds=(\d+) ([\d.]+)$/.exec(line);
    if (m === null) throw new Error(`metrics-requests.txt: unexpected line ${JSON.stringify(line)}`);
    const [, phase = '', start = '', code = '', seconds = ''] = m;
    const at = Math.round(Date.parse(start) / 1000 - origin);
    const answered = code === '200' && (scrapeTimeoutS === undefined || Number(seconds) < scrapeTimeoutS);
    scrapes.push({ at, phase, answered });
  }
  return scrapes.sort((a, b) => a.at - b.at);
}

/** One value per second from 0 to `end`, `_` where there is no sample, runs of `_` folded as promtool reads them. */
function valuesText(points: ReadonlyMap<number, string>, end: number): string {
  const out: string[] = [];
  let gap = 0;
  const flush = (): void => {
    if (gap === 1) out.push('_');
    else if (gap > 1) out.push(`_x${gap}`);
    gap = 0;
  };
  for (let t = 0; t <= end; t++) {
    const v = points.get(t);
    if (v === undefined) gap++;
    else {
      flush();
      out.push(v);
    }
  }
  flush();
  return out.join(' ');
}

function labelsText(labels: Readonly<Record<string, string>>): string {
  return `{${Object.entries(labels)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(',')}}`;
}

/** The kubelet families the rules under test read (ours and the kubernetes-mixin's). */
const KUBELET_FAMILIES = new Set(['kubelet_pleg_last_seen_seconds', 'kubelet_pleg_relist_duration_seconds', 'kubelet_pleg_relist_interval_seconds', 'kubelet_node_name']);

export function faultWindowSeries(opts: { scrapeTimeoutS?: number | undefined; dir?: string } = {}): FaultWindow {
  const dir = opts.dir ?? REAL_KUBELET_132;
  const times = JSON.parse(readFileSync(join(dir, 'fault-times.json'), 'utf8')) as { sigstop_epoch: number; sigcont_epoch: number };
  const origin = Math.floor(times.sigstop_epoch) - 60;
  const stopAt = times.sigstop_epoch - origin;
  const contAt = times.sigcont_epoch - origin;
  const scrapes = readScrapes(dir, origin, opts.scrapeTimeoutS);
  const endAt = (scrapes.at(-1)?.at ?? 0) + 1;
  const kubeletInstance = '10.0.0.7:10250';
  const agentInstance = '10.0.0.7:9787';
  const base = { job: 'kubelet', instance: kubeletInstance };

  const points = new Map<string, Map<number, string>>();
  const put = (series: string, at: number, value: string): void => {
    let byTime = points.get(series);
    if (byTime === undefined) points.set(series, (byTime = new Map()));
    byTime.set(at, value);
  };

  let node = '';
  let lastSeenBeforeCont = -Infinity;
  const scraped: { at: number; lastSeen: number }[] = [];
  const kubeletSeries = new Set<string>();
  for (const scrape of scrapes) {
    put(`up${labelsText(base)}`, scrape.at, scrape.answered ? '1' : '0');
    const text = readFileSync(join(dir, `metrics-${scrape.phase}.txt`), 'utf8');
    const families = parsePrometheusText(text).filter((f) => KUBELET_FAMILIES.has(f.name));
    const lastSeen = families.find((f) => f.name === 'kubelet_pleg_last_seen_seconds')?.samples[0]?.value;
    if (lastSeen === undefined) throw new Error(`${dir}/metrics-${scrape.phase}.txt: no kubelet_pleg_last_seen_seconds`);
    if (scrape.at < contAt) lastSeenBeforeCont = Math.max(lastSeenBeforeCont, lastSeen - origin);
    if (!scrape.answered) {
      // What Prometheus does on a failed scrape: every series of the last good scrape goes stale.
      for (const s of kubeletSeries) put(s, scrape.at, 'stale');
      continue;
    }
    scraped.push({ at: scrape.at, lastSeen: lastSeen - origin });
    for (const family of families) {
      for (const sample of family.samples) {
        let value = sample.value;
        if (sample.name === 'kubelet_pleg_last_seen_seconds') value -= origin;
        if (sample.name === 'kubelet_node_name') node = sample.labels['node'] ?? '';
        const series = `${sample.name}${labelsText({ ...base, ...sample.labels })}`;
        kubeletSeries.add(series);
        put(series, scrape.at, String(value));
      }
    }
  }
  if (node === '') throw new Error(`${dir}: no kubelet_node_name in any answered scrape`);

  const lastSeenAt = lastSeenBeforeCont;
  const thresholdAt = lastSeenAt + PLEG_THRESHOLD_S;
  const postBy = thresholdAt + NODE_STATUS_UPDATE_S;
  const predicted = (t: number): number => (t >= stopAt && t < contAt ? Math.max(0, postBy - t) : Infinity);
  const agent = `pleg_doctor_notready_predicted_seconds${labelsText({ job: 'pleg-doctor-agent', instance: agentInstance })}`;
  for (let t = 0; t <= endAt; t += AGENT_SCRAPE_S) put(agent, t, Number.isFinite(predicted(t)) ? String(predicted(t)) : '+Inf');

  const series = [...points].map(([name, byTime]) => ({ series: name, values: valuesText(byTime, endAt) }));
  const predictedAt = (t: number): number => predicted(t - (t % AGENT_SCRAPE_S));
  const scrapedLastSeenAt = (t: number): number => Math.max(...scraped.filter((s) => s.at <= t).map((s) => s.lastSeen));
  return { stopAt, contAt, lastSeenAt, thresholdAt, endAt, node, kubeletInstance, agentInstance, series, scrapedLastSeenAt, predictedAt };
}
