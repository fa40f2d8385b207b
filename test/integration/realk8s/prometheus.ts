// Debian's Prometheus (/usr/bin/prometheus, `npm run setup` installs it) as a plain process on a free
// loopback port with its own storage dir, for the fault window's alert checks (./alertLeadTimes.ts): it
// scrapes the agent and the real kubelet with deploy/prometheus/pleg-doctor.rules.yaml as shipped and the
// kubernetes-mixin's PLEG rules (test/support/kubernetesMixin.ts). Read through its HTTP API, each request
// with a deadline.

import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';
import { MIXIN_RULES } from '../../support/kubernetesMixin';
import { REPO, until } from './cluster';

export const PROMETHEUS_BIN = '/usr/bin/prometheus';
/**
 * The scrape interval: the one deploy/prometheus-operator's ServiceMonitor ships for the agent, and the
 * same for the kubelet so KubeletPLEGStalled is measured at the cadence a 2-minute warning needs (the
 * common 30 s-1 m kubelet scrape would spend a quarter to half of it waiting).
 */
export const SCRAPE_INTERVAL_S = 15;
/**
 * Groups without their own interval (the mixin's): prometheus-operator's default evaluationInterval.
 * deploy/prometheus/pleg-doctor.rules.yaml sets 15 s on its own group, used as shipped.
 */
export const DEFAULT_EVALUATION_INTERVAL_S = 30;
const API_DEADLINE_MS = 5_000;

export interface Target {
  job: string;
  health: string;
  lastError: string;
}

export interface Alert {
  alertname: string;
  state: 'pending' | 'firing' | string;
  activeAt: string;
  labels: Record<string, string>;
}

export interface RunningPrometheus {
  url: string;
  targets: () => Promise<Target[]>;
  alerts: () => Promise<Alert[]>;
  /** An instant query's result vector. */
  query: (expr: string) => Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  log: () => string;
  /** SIGTERM and wait for the exit (SIGKILL after 15 s). Idempotent. */
  stop: () => Promise<void>;
}

export interface PrometheusTargets {
  /** host:port of the agent's /metrics (plain HTTP). */
  agent: string;
  /** host:port of the kubelet's /metrics (HTTPS). */
  kubelet: string;
  /** A bearer token that may `get nodes/metrics`. */
  kubeletToken: string;
}

async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The prometheus.yml for these targets (exported for a reader of a failure; the test writes it into its dir). */
export function prometheusConfig(dir: string, targets: PrometheusTargets): string {
  writeFileSync(join(dir, 'mixin.rules.yaml'), MIXIN_RULES);
  writeFileSync(join(dir, 'kubelet.token'), targets.kubeletToken, { mode: 0o600 });
  return dump({
    global: { scrape_interval: `${SCRAPE_INTERVAL_S}s`, scrape_timeout: '10s', evaluation_interval: `${DEFAULT_EVALUATION_INTERVAL_S}s` },
    rule_files: [join(REPO, 'deploy/prometheus/pleg-doctor.rules.yaml'), join(dir, 'mixin.rules.yaml')],
    scrape_configs: [
      { job_name: 'pleg-doctor-agent', static_configs: [{ targets: [targets.agent] }] },
      {
        // The mixin selects job="kubelet".
        job_name: 'kubelet',
        scheme: 'https',
        authorization: { credentials_file: join(dir, 'kubelet.token') },
        // The kubelet's serving certificate is self-signed (no serverTLSBootstrap), so there is no CA to
        // check it against; the token goes to a loopback address only.
        tls_config: { insecure_skip_verify: true },
        static_configs: [{ targets: [targets.kubelet] }],
      },
    ],
  });
}

export async function startPrometheus(dir: string, targets: PrometheusTargets): Promise<RunningPrometheus> {
  mkdirSync(join(dir, 'data'), { recursive: true });
  const config = join(dir, 'prometheus.yml');
  writeFileSync(config, prometheusConfig(dir, targets));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(PROMETHEUS_BIN, [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  const spawned = new Promise<Error | undefined>((r) => {
    child.once('spawn', () => r(undefined));
    child.once('error', (e) => r(new Error(`${PROMETHEUS_BIN} did not start (${e.message}): npm run setup installs Debian's prometheus`)));
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const spawnError = await spawned;
  if (spawnError !== undefined) throw spawnError;

  const api = async <T>(path: string): Promise<T> => {
    if (child.exitCode !== null) throw new Error(`Prometheus exited (${child.exitCode}):\n${log.slice(-3000)}`);
    const res = await fetch(`${url}${path}`, { signal: timeoutSignal(API_DEADLINE_MS) });
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (!res.ok || body.status !== 'success') throw new Error(`Prometheus ${path}: HTTP ${res.status} ${body.error ?? ''}`);
    return body.data;
  };
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await until('Prometheus ready', async () => {
      if (child.exitCode !== null) throw new Error(`Prometheus exited (${child.exitCode}):\n${log.slice(-3000)}`);
      const ok = await fetch(`${url}/-/ready`, { signal: timeoutSignal(API_DEADLINE_MS) }).then((r) => r.ok, () => false);
      return ok ? true : undefined;
    }, 30_000, 250);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url,
    log: () => log,
    stop,
    targets: async () =>
      (await api<{ activeTargets: { labels: Record<string, string>; health: string; lastError: string }[] }>('/api/v1/targets')).activeTargets.map((t) => ({
        job: t.labels['job'] ?? '',
        health: t.health,
        lastError: t.lastError,
      })),
    alerts: async () =>
      (await api<{ alerts: { labels: Record<string, string>; state: string; activeAt: string }[] }>('/api/v1/alerts')).alerts.map((a) => ({
        alertname: a.labels['alertname'] ?? '',
        state: a.state,
        activeAt: a.activeAt,
        labels: a.labels,
      })),
    query: async (expr) => (await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result,
  };
}
