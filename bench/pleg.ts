// Benchmark of the PLEG simulator and the model: (a) 24 h of 1 s relists on a full node (110 pods) with
// churn, a slow hour, a runtime freeze and a consumer stall; (b) the whole oracle corpus replayed.
// Called by bench/run.ts; alone: npm run bench pleg

import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { replayTrace, type ReplayKubelet } from '../src/core/pleg/replay';
import { parseScenario } from '../src/core/pleg/sim/scenario';
import { simulate } from '../src/core/pleg/sim/simulate';

// tsx runs this file as CommonJS (the package has no "type": "module"), so __dirname is defined.
const ROOT = resolve(__dirname, '..');
const SIM_GOAL_MS = 2_000;
const REPLAY_GOAL_MS = 1_000;

function line(label: string, ms: number, goalMs: number, detail: string): string {
  const ratio = ms / goalMs;
  return `${label}: ${ms.toFixed(0)} ms (goal ≤ ${goalMs} ms, ${ratio.toFixed(2)}× goal${ratio <= 1 ? ', ok' : ', OVER'}) — ${detail}`;
}

function bench24h(): string {
  const scenario = parseScenario(JSON.parse(readFileSync(join(ROOT, 'test/fixtures/scenarios/busy-node-24h.json'), 'utf8')));
  // One warm-up day at a tenth of the length, so the measurement is of the simulator, not of the JIT.
  simulate({ ...scenario, durationMs: scenario.durationMs / 10 });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const tl = simulate(scenario);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const s = tl.summary;
  return line(
    `simulate 24 h, ${scenario.pods.count} pods`,
    ms,
    SIM_GOAL_MS,
    `${s.relists} relists (${s.failedRelists} failed, max ${(s.maxRelistMs / 1000).toFixed(1)} s), ${s.events} events, ${s.criCalls} CRI calls; ` +
      `${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
  );
}

function benchReplay(): string {
  const corpus = join(ROOT, 'test/fixtures/pleg-oracle');
  const traces: Array<{ trace: unknown; kubelet: ReplayKubelet }> = [];
  for (const [dir, kubelet] of [
    ['kubelet-1.26', '1.26'],
    ['kubelet-1.32', '1.32'],
  ] as const) {
    for (const f of readdirSync(join(corpus, dir)).filter((n) => n.endsWith('.json')).sort()) {
      const file = JSON.parse(readFileSync(join(corpus, dir, f), 'utf8')) as { trace?: unknown };
      if (file.trace === undefined) throw new Error(`${dir}/${f}: no "trace" field`);
      traces.push({ trace: file.trace, kubelet });
    }
  }
  const t0 = performance.now();
  let steps = 0;
  for (const t of traces) steps += replayTrace(t.trace, t.kubelet).steps.length;
  const ms = performance.now() - t0;
  return line('replay oracle corpus', ms, REPLAY_GOAL_MS, `${traces.length} traces, ${steps} steps (JSON parsing excluded)`);
}

export async function benchPleg(): Promise<string[]> {
  const out: string[] = [];
  for (const run of [bench24h, benchReplay]) {
    try {
      out.push(run());
    } catch (e) {
      out.push(`${run.name}: FAILED — ${(e as Error).message}`);
    }
    // Let other benchmarks' timers breathe between the two synchronous runs.
    await new Promise((r) => setImmediate(r));
  }
  return out;
}
