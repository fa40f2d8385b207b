// An evidence folder with a series of saved kubelet /metrics scrapes (such as
// ../shared/fixtures/real-kubelet-1.32) → the scrapes with their times, for sessionFromMetricsSeries.
// Each `metrics-<phase>.txt` is timed by its line in `metrics-requests.txt`
// (`<phase> request_start=<ISO> done=<ISO> http_code_and_seconds=<code> <seconds>`).

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MetricsScrape } from '../../core/timeline/kubeletSampler';

export const REQUESTS_FILE = 'metrics-requests.txt';

export class MetricsFolderError extends Error {
  override readonly name = 'MetricsFolderError';
}

interface RequestLine {
  startMs: number;
  seconds?: number;
  httpCode?: number;
}

export function parseRequestsFile(text: string, file: string): Map<string, RequestLine> {
  const out = new Map<string, RequestLine>();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const phase = line.split(/\s+/u)[0] ?? '';
    const start = /request_start=(\S+)/u.exec(line)?.[1];
    const startMs = start === undefined ? NaN : Date.parse(start);
    if (!Number.isFinite(startMs)) throw new MetricsFolderError(`${file}:${i + 1}: no readable request_start=<ISO time> for phase "${phase}"`);
    const m = /http_code_and_seconds=(\d+)\s+([\d.]+)/u.exec(line);
    out.set(phase, { startMs, ...(m !== null ? { httpCode: Number(m[1]), seconds: Number(m[2]) } : {}) });
  });
  return out;
}

export async function readMetricsFolder(dir: string): Promise<MetricsScrape[]> {
  const names = await readdir(dir);
  const requestsPath = join(dir, REQUESTS_FILE);
  if (!names.includes(REQUESTS_FILE)) throw new MetricsFolderError(`${dir} has no ${REQUESTS_FILE}: the time of each metrics-<phase>.txt scrape is read from it`);
  const requests = parseRequestsFile(await readFile(requestsPath, 'utf8'), requestsPath);
  const scrapes: MetricsScrape[] = [];
  for (const name of names.sort()) {
    const m = /^metrics-(.+)\.txt$/u.exec(name);
    if (m === null || name === REQUESTS_FILE) continue;
    const phase = m[1] as string;
    const request = requests.get(phase);
    if (request === undefined) throw new MetricsFolderError(`${join(dir, name)}: phase "${phase}" has no line in ${requestsPath}`);
    const text = await readFile(join(dir, name), 'utf8');
    const scrape: MetricsScrape = { epochMs: request.startMs, outcome: 'ok', text };
    if (request.seconds !== undefined) {
      scrape.scrapeMs = request.seconds * 1000;
      if (request.seconds > 10) scrape.detail = `the scrape took ${request.seconds.toFixed(1)} s to answer`;
    }
    scrapes.push(scrape);
  }
  if (scrapes.length === 0) throw new MetricsFolderError(`${dir} has no metrics-<phase>.txt files`);
  return scrapes.sort((a, b) => a.epochMs - b.epochMs);
}
