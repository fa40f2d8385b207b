// Benchmark of the kubelet log reader: (a) `pleg-doctor logs` on a generated 1 GB kubelet journal against
// `grep -c 'PLEG is not healthy'` on the same file (goal ≤ 3.5×, memory flat); (b) the language server's
// document analysis on a 100,000-line log: first analysis (goal ≤ 300 ms) and one keystroke (≤ 50 ms).
// The journal is the real 1.32 recording repeated, one day later per copy, behind a short-precise prefix;
// it is written to /tmp (and written back to disk before timing) and removed afterwards. PLEG_BENCH_LOG_MB
// sets its size (default 1024), PLEG_BENCH_LOG_ROUNDS the alternated rounds (default 3), PLEG_BENCH_CLI
// another build of the CLI to time (default dist/cli.js), and PLEG_BENCH_BASELINE a second build timed in
// the same rounds (its ratio printed beside), to compare two builds side by side in one run.
// Alone: npx tsx bench/logs.ts (after npm run build); from bench/run.ts: benchLogs(). Figures: bench/README.md.

import { spawnSync } from 'node:child_process';
import { closeSync, createWriteStream, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DocumentAnalysis } from '../src/server/documentAnalysis';

const ROOT = resolve(__dirname, '..');
const REAL = readFileSync(join(ROOT, 'test/fixtures/real-kubelet-1.32/kubelet-runtime-stopped.log'), 'utf8');
const p2 = (n: number): string => String(n).padStart(2, '0');

/** One copy of the recording moved `day` days on (from Nov 22), behind a journalctl short-precise prefix. */
function copy(day: number): string {
  const d = new Date(Date.UTC(2026, 10, 22 + day));
  const mmdd = `${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}`;
  const mon = d.toUTCString().slice(8, 11);
  return REAL.replace(/^([IWEF])1122 (\d\d:\d\d:\d\d\.\d{6})/gmu, `${mon} ${p2(d.getUTCDate())} $2 pleg-node kubelet[31657]: $1${mmdd} $2`);
}

async function writeJournal(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  let written = 0;
  let day = 0;
  while (written < bytes) {
    const chunk = copy(day++);
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((ok, fail) => out.end((e?: Error | null) => (e ? fail(e) : ok())));
  return day;
}

/** Wall time, and CPU time (user + system), which a machine busy with other work stretches far less. */
function timed(cmd: string, args: string[]): { ms: number; cpuMs?: number; maxRssKb?: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.error) throw r.error;
  const m = /(\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)\s*$/u.exec(r.stderr ?? '');
  if (m === null) return { ms, stdout: r.stdout };
  return { ms, cpuMs: (Number(m[2]) + Number(m[3])) * 1000, maxRssKb: Number(m[1]), stdout: r.stdout };
}

const cpu = (t: { cpuMs?: number }, grep: { cpuMs?: number }): string =>
  t.cpuMs !== undefined && grep.cpuMs !== undefined && grep.cpuMs > 0 ? `; CPU ${t.cpuMs.toFixed(0)} ms = ${(t.cpuMs / grep.cpuMs).toFixed(2)}× grep's` : '';

function stretches(stdout: string): number | string {
  const summary = (JSON.parse(stdout.trimEnd().split('\n').pop() ?? '{}') as { summary?: { plegStretches?: unknown[] } }).summary;
  return summary?.plegStretches?.length ?? '?';
}

/** A positive whole number from the environment variable `name`, or `fallback` when it is unset; anything else is an error that names it. */
function positiveEnv(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive whole number, got "${text}"`);
  return n;
}

/** Alternated rounds of grep and the CLI on the same file (PLEG_BENCH_LOG_ROUNDS, default 3): the machine's noise hits both alike. */
const ROUNDS = positiveEnv('PLEG_BENCH_LOG_ROUNDS', 3);

const rss = (kb: number | undefined): string => (kb !== undefined ? `${(kb / 1024).toFixed(0)} MB` : '?');

/** `pleg-doctor logs` must stay within this factor of `grep -c` on the journal (issue 27). */
const JOURNAL_GOAL = 3.5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] as number;

async function benchJournal(): Promise<string[]> {
  const mb = positiveEnv('PLEG_BENCH_LOG_MB', 1024);
  const dir = mkdtempSync(join(tmpdir(), 'pleg-bench-logs-'));
  const path = join(dir, 'kubelet.log');
  try {
    const copies = await writeJournal(path, mb * 1024 * 1024);
    // Written back before timing: the kernel's writeback of a fresh gigabyte would share the cores with
    // whichever command ran first. The file stays in the page cache.
    const fd = openSync(path, 'r+');
    fsyncSync(fd);
    closeSync(fd);
    const size = statSync(path).size;
    const out: string[] = [];
    const ratios: number[] = [];
    const baselineRatios: number[] = [];
    const baseline = process.env['PLEG_BENCH_BASELINE'];
    let grepLines = '';
    for (let round = 1; round <= ROUNDS; round++) {
      // grep first, then each build: their order is the same every round.
      const grep = timed('grep', ['-c', 'PLEG is not healthy', path]);
      const cli = timed(process.execPath, [process.env['PLEG_BENCH_CLI'] ?? join(ROOT, 'dist/cli.js'), 'logs', path]);
      grepLines = grep.stdout.trim();
      const ratio = cli.ms / grep.ms;
      ratios.push(ratio);
      let beside = '';
      if (baseline !== undefined) {
        const base = timed(process.execPath, [baseline, 'logs', path]);
        baselineRatios.push(base.ms / grep.ms);
        beside = `; baseline ${base.ms.toFixed(0)} ms = ${(base.ms / grep.ms).toFixed(2)}× grep, max RSS ${rss(base.maxRssKb)}${cpu(base, grep)}`;
      }
      out.push(
        `round ${round}: grep -c ${grep.ms.toFixed(0)} ms${grep.cpuMs !== undefined ? ` (CPU ${grep.cpuMs.toFixed(0)} ms)` : ''}; pleg-doctor logs ${cli.ms.toFixed(0)} ms = ${ratio.toFixed(2)}× grep, ` +
          `max RSS ${rss(cli.maxRssKb)}, ${stretches(cli.stdout)} PLEG stretches${cpu(cli, grep)}${beside}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'}`,
      );
    }
    const m = median(ratios);
    return [
      `journal: ${(size / 1024 / 1024).toFixed(0)} MB, ${copies} copies of the 1.32 recording, ${Number(grepLines)} "PLEG is not healthy" lines`,
      ...out,
      `pleg-doctor logs vs grep -c, median of ${ROUNDS} alternated rounds: ${m.toFixed(2)}× (goal ≤ ${JOURNAL_GOAL}×${m <= JOURNAL_GOAL ? ', ok' : ', OVER'})` +
        (baseline !== undefined ? `; baseline ${baseline}: ${median(baselineRatios).toFixed(2)}×` : ''),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchDocument(): Promise<string[]> {
  const lines = REAL.split('\n');
  const doc: string[] = [];
  for (let day = 0; doc.length < 100_000; day++) doc.push(...copy(day).split('\n'));
  doc.length = 100_000;
  const live = { cancelled: false };
  // Warm-up on a copy so the JIT is measured out.
  await new DocumentAnalysis().update(doc.slice(0, 20_000).join('\n'), live);
  const a = new DocumentAnalysis();
  const text = doc.join('\n');
  const cpuMs = (since: NodeJS.CpuUsage): number => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1000;
  };
  let cpu0 = process.cpuUsage();
  let t0 = performance.now();
  const first = await a.update(text, live);
  const firstMs = performance.now() - t0;
  const firstCpu = cpuMs(cpu0);
  // A keystroke as the server gets it: one incremental change, applied to the stored lines, then the
  // sequential pass that the server runs after its debounce.
  cpu0 = process.cpuUsage();
  t0 = performance.now();
  a.applyChange({ start: { line: 50_000, character: 0 }, end: { line: 50_000, character: 0 } }, 'x');
  a.resequence();
  const keyMs = performance.now() - t0;
  const keyCpu = cpuMs(cpu0);
  return [
    `100,000-line document (${lines.length}-line recording repeated): first analysis ${firstMs.toFixed(0)} ms (CPU ${firstCpu.toFixed(0)} ms; goal ≤ 300 ms${firstMs <= 300 ? ', ok' : ', OVER'}), ` +
      `${first.findings.length} findings`,
    `one keystroke: ${keyMs.toFixed(1)} ms (CPU ${keyCpu.toFixed(1)} ms; goal ≤ 50 ms${keyMs <= 50 ? ', ok' : ', OVER'}), ${a.lastReclassified} line re-classified`,
  ];
}

export async function benchLogs(): Promise<string[]> {
  return [...(await benchDocument()), ...(await benchJournal())];
}

if (require.main === module) {
  void benchLogs().then((out) => {
    for (const l of out) console.log(l);
  });
}
