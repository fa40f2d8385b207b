// `npm run demo`: the demo cluster (dist/demo.js) plus a real VS Code (code-server) with PLEG Doctor
// installed and KUBECONFIG pointing at the demo, on 127.0.0.1. Prints the URL to open and runs until
// Ctrl-C, then stops everything it started.
//
// Env: PLEG_DEMO_PORT=<port> for code-server (default: a free port); PLEG_E2E_REBUILD=1 repackages.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, ensureTools } from '../test/e2e/lib/tools.mjs';
import { ensureVsix, installVsix, logTail, prepareRunDir, startCodeServer } from '../test/e2e/lib/codeServer.mjs';
import { processesMentioning, run, stopGroup } from '../test/e2e/lib/processes.mjs';

const log = (msg) => process.stdout.write(`[demo] ${msg}\n`);

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

async function main() {
  await run('bash', [join(REPO, 'test/e2e/install.sh')], { timeoutMs: 900_000 }).then(({ stdout }) => log(stdout.trim().split('\n').at(-1)));
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
  let server;
  let stopping = false;

  const teardown = async (reason, code) => {
    if (stopping) return;
    stopping = true;
    log(`${reason}: stopping`);
    if (server) await server.stop().catch((err) => log(`stopping code-server: ${err.message}`));
    if (cluster) await stopGroup(cluster).catch((err) => log(`stopping the demo cluster: ${err.message}`));
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
    cluster = await startDemoCluster(kubeconfig);
    cluster.once('exit', (c, s) => void teardown(`the demo cluster exited (code ${c}, signal ${s})`, 1));
    log(await installVsix(dirs, vsix));
    const port = process.env.PLEG_DEMO_PORT ? Number(process.env.PLEG_DEMO_PORT) : undefined;
    server = await startCodeServer(dirs, { logFile: join(runDir, 'server.log'), env: { KUBECONFIG: kubeconfig }, ...(port ? { port } : {}) });
    server.child.once('exit', (c, s) => {
      if (!stopping) log(`code-server log tail:\n${logTail(join(runDir, 'server.log'))}`);
      void teardown(`code-server exited (code ${c}, signal ${s})`, 1);
    });
  } catch (err) {
    log(err.message);
    await teardown('startup failed', 1);
    return;
  }
  log('');
  log(`open ${server.url}`);
  log('then click the PLEG Doctor icon in the activity bar. prod-eu-node-07 flaps NotReady with PLEG every ~6 min');
  log('(first within ~15 s); prod-eu-node-03 has a crash-looping runtime; prod-eu-node-11 lost its lease;');
  log('staging-node-04 is cordoned. Ctrl-C stops everything.');
}

await main();
