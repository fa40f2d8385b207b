// `npm run demo`: the demo cluster (dist/demo.js) plus a real VS Code (code-server) with PLEG Doctor
// installed and KUBECONFIG pointing at the demo, on 127.0.0.1. Prints the URL to open and runs until
// Ctrl-C, then stops everything it started.
//
// Env: PLEG_DEMO_PORT=<port> for code-server (default: a free port); PLEG_E2E_REBUILD=1 repackages.
// `npm run demo -- --real-cluster`: instead of the stand-in, a real kube-apiserver + kubelet 1.26
// (test/support/real-cluster.sh; needs root and ../shared/k8s or PLEG_REAL_K8S_DIR), whose runtime
// `npm run demo:freeze` / `npm run demo:thaw` stop and continue.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, ensureTools } from '../test/e2e/lib/tools.mjs';
import { ensureVsix, installVsix, logTail, prepareRunDir, startCodeServer } from '../test/e2e/lib/codeServer.mjs';
import { processesMentioning, run, stopGroup } from '../test/e2e/lib/processes.mjs';

const log = (msg) => process.stdout.write(`[demo] ${msg}\n`);
const INSTALL_TIMEOUT_MS = 15 * 60_000;

/** What the demo cluster shows, printed under the URL. */
const DEMO_TOUR = [
  'prod-eu-node-07 is NotReady with PLEG all the time (Diagnose Node names the cause); prod-eu-node-05',
  'flaps to PLEG NotReady for ~1 min every ~6 min (first ~1.5 min in; its row counts the flaps);',
  'prod-eu-node-03 has a crash-looping runtime; prod-eu-node-11 has no heartbeat; staging-node-04 is cordoned.',
];

const REAL = process.argv.includes('--real-cluster');
const REAL_TOUR = [
  'realk8s-node is a real kubelet 1.26 on its own containerd. `npm run demo:freeze` stops that containerd:',
  'after ~45 s the node is NotReady ("container runtime is down"), after ~3.3 min "PLEG is not healthy".',
  '`npm run demo:thaw` continues it: Ready again ~10 s later. Diagnose Node reads the real kubelet.',
];

/** real-cluster.sh up (reusing a running one); returns its kubeconfig and whether this run started it. */
function startRealCluster() {
  const r = spawnSync('bash', [join(REPO, 'test/support/real-cluster.sh'), 'up'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 300_000 });
  const kubeconfig = /^KUBECONFIG=(.+)$/m.exec(r.stdout ?? '')?.[1];
  if (r.status !== 0 || !kubeconfig) throw new Error(`the real cluster did not start (test/support/real-cluster.sh up, exit ${r.status})`);
  return { kubeconfig, startedHere: !/reusing it/.test(r.stderr ?? '') };
}

/** Starts dist/demo.js in its own process group and waits for its DEMO_READY line. */
function startDemoCluster(kubeconfig) {
  const child = spawn(process.execPath, [join(REPO, 'dist/demo.js'), '--kubeconfig', kubeconfig], {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolveStart, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`dist/demo.js did not get ready within 30 s:\n${out}`)), 30_000);
    child.stdout.on('data', (buf) => {
      out += buf.toString();
      process.stdout.write(buf);
      if (out.includes('DEMO_READY')) {
        clearTimeout(timer);
        resolveStart(child);
      }
    });
    // The cluster's own log (flaps as they happen) goes to our stderr.
    child.stderr.on('data', (buf) => process.stderr.write(buf));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`dist/demo.js exited (code ${code}, signal ${signal}) before it was ready:\n${out}`));
    });
  });
}

/**
 * test/e2e/install.sh, with its own progress lines shown and the package managers' output (hundreds of
 * lines from code-server's postinstall) kept in a log file, so the URL printed later is not buried.
 */
function installTools() {
  mkdirSync(join(REPO, '.code-server'), { recursive: true });
  const logFile = join(REPO, '.code-server', 'install.log');
  const out = createWriteStream(logFile);
  const child = spawn('bash', [join(REPO, 'test/e2e/install.sh')], { stdio: ['ignore', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
  let pending = '';
  child.stdout.on('data', (buf) => {
    out.write(buf);
    pending += buf.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('[e2e-install]')) log(line.replace('[e2e-install] ', 'tools: '));
  });
  child.stderr.on('data', (buf) => out.write(buf));
  return new Promise((resolveInstall, reject) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      out.end(() => {
        if (code === 0) return resolveInstall();
        const tail = logTail(logFile, 30);
        reject(new Error(`test/e2e/install.sh failed (${signal ? `signal ${signal}` : `exit ${code}`}); its full output is in ${logFile}. Last lines:\n${tail}`));
      });
    });
  });
}

/** The line a person (and the CI smoke test) looks for: printed last, on its own, after a blank line. */
function printUrl(url) {
  const rule = '─'.repeat(Math.min(100, url.length + 8));
  process.stdout.write(`\n${rule}\n  PLEG Doctor demo is running. Open this URL in a browser:\n\n    ${url}\n\n`);
  process.stdout.write('  Then click the PLEG Doctor icon in the activity bar.\n');
  for (const line of DEMO_TOUR) process.stdout.write(`  ${line}\n`);
  process.stdout.write(`  Ctrl-C stops everything.\n${rule}\n`);
}

async function main() {
  await installTools();
  ensureTools(log);
  const vsix = await ensureVsix(log, { force: process.env.PLEG_E2E_REBUILD === '1' });
  if (!existsSync(join(REPO, 'dist/demo.js'))) {
    log('building dist/demo.js: npm run build');
    await run('npm', ['run', 'build'], { cwd: REPO, timeoutMs: 300_000 });
  }

  const runDir = mkdtempSync(join(tmpdir(), 'pleg-demo-'));
  const dirs = prepareRunDir(runDir);
  const kubeconfig = join(runDir, 'kubeconfig');
  let cluster;
  let real;
  let server;
  let stopping = false;

  const teardown = async (reason, code) => {
    if (stopping) return;
    stopping = true;
    log(`${reason}: stopping`);
    if (server) await server.stop().catch((err) => log(`stopping code-server: ${err.message}`));
    if (cluster) await stopGroup(cluster).catch((err) => log(`stopping the demo cluster: ${err.message}`));
    if (real?.startedHere) spawnSync('bash', [join(REPO, 'test/support/real-cluster.sh'), 'down'], { stdio: 'inherit', timeout: 120_000 });
    const left = processesMentioning(runDir);
    for (const p of left) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    if (left.length) log(`killed leftovers: ${left.map((p) => p.pid).join(', ')}`);
    rmSync(runDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void teardown('Ctrl-C', 0));
  process.on('SIGTERM', () => void teardown('SIGTERM', 0));

  try {
    if (REAL) real = startRealCluster();
    else cluster = await startDemoCluster(kubeconfig);
    cluster?.once('exit', (c, s) => void teardown(`the demo cluster exited (code ${c}, signal ${s})`, 1));
    log(await installVsix(dirs, vsix));
    const port = process.env.PLEG_DEMO_PORT ? Number(process.env.PLEG_DEMO_PORT) : undefined;
    server = await startCodeServer(dirs, { logFile: join(runDir, 'server.log'), env: { KUBECONFIG: real?.kubeconfig ?? kubeconfig }, ...(port ? { port } : {}) });
    server.child.once('exit', (c, s) => {
      if (!stopping) log(`code-server log tail:\n${logTail(join(runDir, 'server.log'))}`);
      void teardown(`code-server exited (code ${c}, signal ${s})`, 1);
    });
  } catch (err) {
    log(err.message);
    await teardown('startup failed', 1);
    return;
  }
  if (REAL) DEMO_TOUR.splice(0, DEMO_TOUR.length, ...REAL_TOUR);
  printUrl(server.url);
}

await main();
