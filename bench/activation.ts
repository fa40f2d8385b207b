// Benchmark of activation: the production bundles (minified, as in the VSIX) are built into a temporary
// directory, then each run is a fresh Node process that requires extension.js under a minimal fake
// `vscode` module and calls activate(). Measured: require start → activate() returned, cold (nothing of
// the bundle cached; Node's built-ins preloaded, as they are in the extension host). This is the
// extension's own cost; VS Code's extension host adds its own around it.
// Then the figure the goal is about: the same span inside code-server's real extension host
// (bench/activationHost.mjs: the packaged .vsix, a headless Chromium opening the workbench), from the
// first statement of dist/extension.js to activate() returning. Heavy: it takes /tmp/pleg-heavy.lock.
// Called by bench/run.ts; alone: npm run bench activation

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { extensionTargets } from '../esbuild.mjs';

const ROOT = resolve(__dirname, '..');
const GOAL_MS = 30;
const RUNS = 15;

/** The `vscode` exports the bundle reads; the bench fails loudly (a TypeError) if one is missing. */
const VSCODE_NAMES = [
  'commands', 'window', 'workspace', 'env', 'l10n', 'languages', 'extensions', 'Uri', 'EventEmitter', 'Disposable',
  'TreeItem', 'TreeItemCollapsibleState', 'ThemeIcon', 'ThemeColor', 'MarkdownString', 'StatusBarAlignment',
  'ProgressLocation', 'ViewColumn', 'ConfigurationTarget', 'CancellationTokenSource', 'Range', 'Position',
  'Diagnostic', 'DiagnosticSeverity', 'LogLevel', 'QuickPickItemKind', 'FileType', 'RelativePattern',
];

/**
 * Runs in the child (plain Node, no tsx: tsx would transform the bundle on require). The fake `vscode`
 * answers every property with a callable that returns another such object, so any API activation
 * touches exists; configuration reads return their default, which is what a fresh profile sees.
 */
const CHILD = String.raw`
const Module = require('node:module');
const path = require('node:path');
// A function target, so the proxy can be called and constructed (new vscode.EventEmitter()).
const noop = function () { return fake; };
const fake = new Proxy(noop, {
  get(_t, prop) {
    if (prop === Symbol.iterator) return function* () {};
    if (prop === Symbol.toPrimitive) return () => '';
    if (prop === 'then') return undefined;
    if (prop === 'get') return (_key, fallback) => fallback;
    return fake;
  },
  set: () => true,
  apply: () => fake,
  construct: () => fake,
});
// esbuild copies a namespace import's own properties, so the module object needs real keys.
const api = {};
for (const name of ${JSON.stringify(VSCODE_NAMES)}) api[name] = fake;
const dir = process.argv[1];
const fakePath = path.join(dir, 'vscode-fake.js');
require.cache[fakePath] = { id: fakePath, filename: fakePath, loaded: true, exports: api };
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vscode' ? fakePath : resolveFilename.call(this, request, ...rest);
};
const context = {
  subscriptions: [],
  extension: { packageJSON: { version: 'bench' } },
  globalStorageUri: { fsPath: path.join(dir, 'storage') },
  secrets: fake,
  globalState: fake,
  extensionPath: dir,
  asAbsolutePath: (p) => path.join(dir, p),
};
// The extension host has loaded Node's built-in modules long before any extension activates: load the
// ones the bundle names now, so they are not counted as the extension's cost.
const source = require('node:fs').readFileSync(path.join(dir, 'extension.js'), 'utf8');
for (const name of new Set(source.match(/require\("node:[^"]+"\)/g) ?? [])) require(name.slice(9, -2));
const c0 = process.cpuUsage();
const t0 = performance.now();
const extension = require(path.join(dir, 'extension.js'));
const t1 = performance.now();
extension.activate(context);
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
const heavyLoaded = Object.keys(require.cache).some((k) => /kube\.js$|nodeAccess\.js$/.test(k));
// What the session then loads on the next turn (kube.js) and a first snapshot loads (nodeAccess.js).
const t3 = performance.now();
require(path.join(dir, 'kube.js'));
const t4 = performance.now();
require(path.join(dir, 'nodeAccess.js'));
const t5 = performance.now();
// The extension's timers (tree ages, watches) would keep the process alive: exit once measured.
process.stdout.write(JSON.stringify({ requireMs: t1 - t0, totalMs: t2 - t0, cpuMs: (cpu.user + cpu.system) / 1000, heavyLoaded, kubeMs: t4 - t3, nodeAccessMs: t5 - t4 }), () => process.exit(0));
`;

interface Run {
  requireMs: number;
  totalMs: number;
  /** CPU time of the same span: what a loaded machine stretches least. */
  cpuMs: number;
  heavyLoaded: boolean;
  kubeMs: number;
  nodeAccessMs: number;
}

function runChild(dir: string): Run {
  try {
    return JSON.parse(execFileSync(process.execPath, ['-e', CHILD, '--', dir], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } })) as Run;
  } catch (error) {
    // The child's stderr ends with the error and its stack; the minified line above it is noise.
    const stderr = (error as { stderr?: string }).stderr ?? '';
    const cause = stderr.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? (error instanceof Error ? error.message.slice(0, 300) : String(error));
    throw new Error(`activation under the fake vscode failed: ${cause}`, { cause: error });
  }
}

/** Fresh windows: the 2-core machine shares its cores with the workbench loading beside the extension host, so one window says little. */
const HOST_RUNS = 9;

/** Activation in code-server's extension host, `HOST_RUNS` fresh windows, under the shared heavy-run lock. */
interface HostRun {
  ms: number;
  requireMs: number;
  activateMs: number;
  /** CPU time of the extension host's thread over the same two spans: the extension's cost without the wait for a core. */
  cpuMs: number;
  hostGapMs: number;
  wallMs: number;
}

function runInCodeServer(): { runs: HostRun[]; node: string } {
  const result = spawnSync('flock', ['/tmp/pleg-heavy.lock', process.execPath, join(ROOT, 'bench/activationHost.mjs'), String(HOST_RUNS)], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '' },
    timeout: 20 * 60_000,
  });
  const last = result.stdout.trim().split('\n').pop() ?? '';
  if (result.status !== 0 || !last.startsWith('{')) {
    const reason = result.error?.message ?? result.stderr.trim().split('\n').slice(-12).join('\n');
    throw new Error(`activation in code-server failed (bash test/e2e/install.sh installs code-server and Chromium):\n${reason}`);
  }
  return JSON.parse(last) as { runs: HostRun[]; node: string };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export async function benchActivation(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'pleg-activation-'));
  try {
    await Promise.all(extensionTargets({ production: true, outdir: dir }).map((t) => esbuild.build({ ...t, absWorkingDir: ROOT, logLevel: 'warning' })));
    const size = (f: string): string => `${(statSync(join(dir, f)).size / 1e6).toFixed(2)} MB`;
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      runs.push(runChild(dir));
    }
    if (runs.some((r) => r.heavyLoaded)) throw new Error('activation loaded dist/kube.js or dist/nodeAccess.js: the lazy bundles are not lazy');
    const total = median(runs.map((r) => r.totalMs));
    const ratio = total / GOAL_MS;
    const host = runInCodeServer();
    const hostMedian = median(host.runs.map((r) => r.ms));
    const hostRatio = hostMedian / GOAL_MS;
    const med = (key: keyof HostRun): string => median(host.runs.map((r) => r[key])).toFixed(1);
    return [
      `activate in code-server's extension host (evaluating extension.js + activate(), median of ${host.runs.length} fresh windows, Node ${host.node}): ` +
        `${hostMedian.toFixed(1)} ms (goal ≤ ${GOAL_MS} ms, ${hostRatio.toFixed(2)}× goal${hostRatio <= 1 ? ', ok' : ', OVER'}) — evaluate ${med('requireMs')} ms, activate() ${med('activateMs')} ms; ` +
        `the thread's CPU time over both ${med('cpuMs')} ms (range ${Math.min(...host.runs.map((r) => r.cpuMs)).toFixed(1)}–${Math.max(...host.runs.map((r) => r.cpuMs)).toFixed(1)}); ` +
        `the host's ExtensionContext in between ${med('hostGapMs')} ms, first statement → activate() returned ${med('wallMs')} ms; runs ${host.runs.map((r) => r.ms.toFixed(1)).join(', ')} ms`,
      `activate under a fake vscode (require extension.js → activate() returned, median of ${RUNS} cold Node processes): ${total.toFixed(1)} ms ` +
        `(goal ≤ ${GOAL_MS} ms, ${ratio.toFixed(2)}× goal${ratio <= 1 ? ', ok' : ', OVER'}) — require ${median(runs.map((r) => r.requireMs)).toFixed(1)} ms, ` +
        `max ${Math.max(...runs.map((r) => r.totalMs)).toFixed(1)} ms; CPU ${median(runs.map((r) => r.cpuMs)).toFixed(1)} ms; load average ${loadavg()[0]?.toFixed(1)}`,
      `bundles (minified): extension.js ${size('extension.js')}; on first use kube.js ${size('kube.js')} ` +
        `(require ${median(runs.map((r) => r.kubeMs)).toFixed(1)} ms, on the turn after activate() when the session reads the kubeconfig) ` +
        `and nodeAccess.js ${size('nodeAccess.js')} (require ${median(runs.map((r) => r.nodeAccessMs)).toFixed(1)} ms, first snapshot or diagnosis)`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
