// `pleg-doctor agent` as a process (dist/cli.js, `npm run build` first) on the real node stack's containerd
// (test/support/node-stack.sh), scraped over HTTP: relists with real latencies, /metrics accepted by the
// real reader (`promtool check metrics`), /v1/session with increments; containerd SIGSTOPped: the CRI call in
// flight and the relist age grow while /metrics and /healthz keep answering within their deadline, with
// exactly one CRI call in flight (the relists' and the diagnosis' calls share one lane); SIGCONT recovers;
// SIGTERM exits 0 promptly. No kubelet here (its /metrics is a closed port): the real kubelet, Prometheus
// and NPD run in the cluster test of issue #28 point 5.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, type MetricFamily } from '../../../src/core/parse/prometheusText';
import { parseTimelineSession } from '../../../src/core/timeline/validate';
import { timeoutSignal } from '../../../src/core/util/deadlineSignal';
import { stack, waitForState } from '../cri/kit';

const env = stack();
const CLI = resolve(__dirname, '../../../dist/cli.js');
const scratch = mkdtempSync(join(tmpdir(), 'pleg-agent-'));
/** The deadline the agent's server puts on every request (agentServer.ts REQUEST_DEADLINE_MS); answers must come well inside it. */
const ANSWER_WITHIN_MS = 2_000;
const RUNTIME_REQUEST_TIMEOUT_S = 20;
let agent: ChildProcess | undefined;
let frozen = false;

afterAll(() => {
  if (frozen) process.kill(env.containerdPid, 'SIGCONT');
  if (agent?.exitCode === null) agent.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A loopback port nobody listens on: the agent's kubelet scrape fails fast and is recorded as such. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function get(base: string, path: string): Promise<{ status: number; body: string; ms: number; headers: Headers }> {
  const started = Date.now();
  const response = await fetch(`${base}${path}`, { signal: timeoutSignal(10_000) });
  return { status: response.status, body: await response.text(), ms: Date.now() - started, headers: response.headers };
}

function value(families: MetricFamily[], sample: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families) {
    for (const s of f.samples) if (s.name === sample && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) return s.value;
  }
  return undefined;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('pleg-doctor agent on the real node stack', () => {
  it('relists, serves valid metrics and session increments, shows a frozen runtime with one call in flight, recovers, and stops on SIGTERM', async () => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
    const config = join(scratch, 'config.yaml');
    writeFileSync(config, `apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nruntimeRequestTimeout: ${RUNTIME_REQUEST_TIMEOUT_S}s\nmaxPods: 110\n`);
    writeFileSync(join(scratch, 'token'), 'not-a-real-token\n');
    const kubeletPort = await closedPort();
    const childEnv: Record<string, string> = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: scratch };
    agent = spawn(
      process.execPath,
      [CLI, 'agent', '--listen', '127.0.0.1:0', '--node-name', 'node-stack', '--cri-socket', env.criSocket, '--kubelet-config', config, '--token-file', join(scratch, 'token'), '--kubelet-url', `https://127.0.0.1:${kubeletPort}`, '--diagnosis-period', '2s'],
      { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    agent.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => agent?.once('exit', (code) => r(code)));
    const base = await until('the agent\u2019s port', async () => {
      const m = /serving .* on 127\.0\.0\.1:(\d+)/u.exec(stderr);
      return m === null ? undefined : `http://127.0.0.1:${m[1]}`;
    }, 15_000);

    // Healthy: relists on the real runtime with real latencies.
    const healthy = await until('three relists', async () => {
      const families = parsePrometheusText((await get(base, '/metrics')).body);
      return (value(families, 'pleg_doctor_relist_duration_seconds_count') ?? 0) >= 3 ? families : undefined;
    }, 20_000);
    expect(value(healthy, 'pleg_doctor_pods')).toBeGreaterThanOrEqual(1);
    expect(value(healthy, 'pleg_doctor_relist_failures_total')).toBe(0);
    expect(value(healthy, 'pleg_doctor_relist_age_seconds')).toBeLessThan(2);
    expect(value(healthy, 'pleg_doctor_cri_call_duration_seconds_sum', { rpc: 'ListPodSandbox' })).toBeGreaterThan(0);
    expect(value(healthy, 'pleg_doctor_cri_call_inflight_seconds')).toBeLessThan(1);
    expect(value(healthy, 'pleg_doctor_notready_predicted_seconds')).toBe(Infinity);
    expect(value(healthy, 'pleg_doctor_runtime_down_predicted_seconds')).toBe(Infinity);
    expect(healthy.find((f) => f.name === 'pleg_doctor_build_info')?.samples[0]?.labels['runtime']).toMatch(/^containerd /u);
    expect(value(healthy, 'pleg_doctor_projected_relist_seconds', { max_pods: '110' })).toBeGreaterThan(0);

    // The real reader of the format.
    const text = (await get(base, '/metrics')).body;
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8', timeout: 10_000 });
    expect(check.error).toBeUndefined();
    expect({ status: check.status, out: `${check.stdout}${check.stderr}` }).toEqual({ status: 0, out: '' });

    // The session as the panel exports it, then increments from its cursor.
    const full = await get(base, '/v1/session');
    const parsed = parseTimelineSession(full.body);
    if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
    expect(parsed.session.relists.every((r) => r.ok && r.rpcs.every((c) => c.latencyMs > 0))).toBe(true);
    expect(parsed.session.settings.runtimeRequestTimeoutMs).toBe(RUNTIME_REQUEST_TIMEOUT_S * 1000);
    const cursor = full.headers.get('x-pleg-doctor-cursor') ?? '';
    await new Promise((r) => setTimeout(r, 1_500));
    const more = JSON.parse((await get(base, `/v1/session?since=${cursor}`)).body) as { cursor: string; deltas: { relists?: unknown[] }[] };
    expect(more.cursor).not.toBe(cursor);
    expect(more.deltas.some((d) => (d.relists?.length ?? 0) > 0)).toBe(true);
    const diagnosis = await until('the first diagnosis', async () => {
      const answer = await get(base, '/v1/diagnosis');
      return answer.status === 200 ? (JSON.parse(answer.body) as { diagnosis: { checks: { id: string; verdict: string }[] } }) : undefined;
    }, 15_000);
    expect(diagnosis.diagnosis.checks.find((c) => c.id === 'runtime-hung')?.verdict).toBe('ok');

    // Frozen runtime.
    process.kill(env.containerdPid, 'SIGSTOP');
    frozen = true;
    expect(await waitForState(env.containerdPid, 'T')).toBe('T');
    const samples: { inflight: number; calls: number; age: number; ms: number; healthz: number; healthzMs: number }[] = [];
    const frozenAt = Date.now();
    while (Date.now() - frozenAt < 9_000) {
      const m = await get(base, '/metrics');
      const h = await get(base, '/healthz');
      const families = parsePrometheusText(m.body);
      samples.push({
        inflight: value(families, 'pleg_doctor_cri_call_inflight_seconds') ?? NaN,
        calls: value(families, 'pleg_doctor_cri_calls_inflight') ?? NaN,
        age: value(families, 'pleg_doctor_relist_age_seconds') ?? NaN,
        ms: m.ms,
        healthz: h.status,
        healthzMs: h.ms,
      });
      await new Promise((r) => setTimeout(r, 500));
    }
    const late = samples.slice(4);
    expect(samples.every((s) => s.ms < ANSWER_WITHIN_MS && s.healthzMs < ANSWER_WITHIN_MS && s.healthz === 200)).toBe(true);
    // One call waits for the runtime (the relist's), nothing else is sent: the diagnosis waits in the lane.
    expect(late.every((s) => s.calls === 1)).toBe(true);
    expect(samples.every((s) => s.calls <= 1)).toBe(true);
    const first = late[0];
    const last = late.at(-1);
    expect(last?.inflight).toBeGreaterThan((first?.inflight ?? 0) + 3);
    expect(last?.inflight).toBeLessThan(RUNTIME_REQUEST_TIMEOUT_S);
    expect(last?.age).toBeGreaterThan((first?.age ?? 0) + 3);
    expect(last?.age).toBeGreaterThan(8);

    // Thawed: the waiting call is answered, relists succeed again.
    process.kill(env.containerdPid, 'SIGCONT');
    frozen = false;
    await until('recovery', async () => {
      const families = parsePrometheusText((await get(base, '/metrics')).body);
      const age = value(families, 'pleg_doctor_relist_age_seconds') ?? Infinity;
      return age < 2 && value(families, 'pleg_doctor_cri_calls_inflight') === 0 ? true : undefined;
    }, 10_000);

    const stopping = Date.now();
    agent.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(3_000);
  });
});
