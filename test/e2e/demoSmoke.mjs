// The README's "Run it" command, run as a new user runs it and looked at as a new user looks at it:
// `npm ci && npm run demo` in this checkout (a shell, its own process group), wait for the URL it
// prints, open that URL in Debian Chromium, open the PLEG Doctor view, and see a node flagged PLEG
// there; then Ctrl-C (SIGINT to the group, as a terminal sends it) and check that nothing it started
// is left running. CI runs it on the clean clone before the README's test command, so the demo's
// own first-run install is what gets exercised, with nothing installed ahead of it.
//
// Env: PLEG_SMOKE_COMMAND overrides the command (default: the README's); PLEG_SMOKE_TIMEOUT_MS bounds
// the wait for the URL (default 25 min: a cold install of code-server takes ~4 min on 2 cores).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './lib/tools.mjs';
import { groupMembers, processesMentioning } from './lib/processes.mjs';

const COMMAND = process.env.PLEG_SMOKE_COMMAND ?? 'npm ci && npm run demo';
const URL_TIMEOUT_MS = Number(process.env.PLEG_SMOKE_TIMEOUT_MS ?? 25 * 60_000);
const TREE_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** The demo prints its URL indented on a line of its own under this sentence (scripts/demo.mjs). */
const URL_LINE = /Open this URL in a browser:\s*\n\s*\n\s*(http:\/\/\S+)/;

const t0 = Date.now();
const log = (msg) => process.stdout.write(`[demo-smoke +${((Date.now() - t0) / 1000).toFixed(0)}s] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const outDir = join(REPO, 'test-results/demo-smoke');

function demoRunDirs() {
  return new Set(readdirSync(tmpdir()).filter((d) => d.startsWith('pleg-demo-')));
}

/** Starts the command in a shell that leads its own process group; its output goes to a log file. */
function startDemo(logFile) {
  const out = createWriteStream(logFile);
  const child = spawn('bash', ['-c', COMMAND], { cwd: REPO, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  let stdoutText = '';
  child.stdout.on('data', (buf) => {
    out.write(buf);
    text += buf.toString();
    stdoutText += buf.toString();
  });
  // The demo cluster logs its flaps on stderr as they happen; they are not part of the banner check.
  child.stderr.on('data', (buf) => {
    out.write(buf);
    text += buf.toString();
  });
  const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, exited, output: () => text, stdout: () => stdoutText, close: () => new Promise((r) => out.end(r)) };
}

async function waitForUrl(demo) {
  const deadline = Date.now() + URL_TIMEOUT_MS;
  let lastProgress = '';
  while (Date.now() < deadline) {
    const text = demo.output();
    const match = URL_LINE.exec(text);
    if (match) return match[1];
    if (demo.child.exitCode !== null || demo.child.signalCode !== null) {
      throw new Error(`\`${COMMAND}\` exited (code ${demo.child.exitCode}, signal ${demo.child.signalCode}) before printing a URL`);
    }
    const progress = text.split('\n').filter((l) => l.startsWith('[demo]')).at(-1) ?? '';
    if (progress && progress !== lastProgress) log(`… ${progress}`);
    lastProgress = progress;
    await sleep(1000);
  }
  throw new Error(`no URL within ${URL_TIMEOUT_MS / 60_000} min`);
}

/** The demo's URL printed last on stdout: after it, only the banner's own lines (no install noise). */
function checkUrlIsLast(text, url) {
  const after = text.slice(text.indexOf(url) + url.length).split('\n').filter((l) => l.trim() !== '');
  const stray = after.filter((l) => !/^\s{2}\S|^─+$/.test(l));
  if (stray.length) throw new Error(`lines after the URL that are not the banner's: ${stray.slice(0, 5).join(' | ')}`);
}

async function lookAtTheProduct(url, profileDir) {
  // Loaded only now: playwright-core comes with `npm ci`, which the command under test runs.
  const { launchBrowser, openWorkbench, readTreeRows } = await import('./lib/workbench.mjs');
  const { context, page } = await launchBrowser(profileDir);
  try {
    await openWorkbench(page, url);
    await page.locator('.part.activitybar [aria-label^="PLEG Doctor"]').first().click({ timeout: 30_000 });
    const deadline = Date.now() + TREE_TIMEOUT_MS;
    let rows = [];
    while (Date.now() < deadline) {
      rows = await readTreeRows(page);
      const flagged = rows.find((r) => r.level >= 2 && /PLEG/.test(r.description));
      if (flagged) {
        await page.screenshot({ path: join(outDir, 'demo-first-look.png') });
        return `${flagged.label}: ${flagged.description}`;
      }
      await sleep(500);
    }
    await page.screenshot({ path: join(outDir, 'demo-no-pleg-node.png') });
    throw new Error(`no node flagged PLEG within ${TREE_TIMEOUT_MS / 1000} s; rows: ${rows.map((r) => `${r.label} [${r.description}]`).join('; ')}`);
  } finally {
    await context.close().catch(() => {});
  }
}

async function stopLikeCtrlC(demo) {
  process.kill(-demo.child.pid, 'SIGINT');
  const stopped = await Promise.race([demo.exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)]);
  if (!stopped) throw new Error(`still running ${STOP_TIMEOUT_MS / 1000} s after Ctrl-C`);
  return stopped;
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const profileDir = mkdtempSync(join(tmpdir(), 'pleg-smoke-browser-'));
  const logFile = join(outDir, 'demo-output.log');
  const dirsBefore = demoRunDirs();
  log(`running \`${COMMAND}\` in ${REPO} (output: ${logFile})`);
  const demo = startDemo(logFile);
  const failures = [];
  try {
    const url = await waitForUrl(demo);
    log(`URL printed: ${url}`);
    try {
      checkUrlIsLast(demo.stdout(), url);
    } catch (err) {
      failures.push(`URL not printed last: ${err.message}`);
    }
    log(`the Nodes view shows ${await lookAtTheProduct(url, profileDir)}`);
  } catch (err) {
    failures.push(err.message);
  } finally {
    try {
      const { code, signal } = await stopLikeCtrlC(demo);
      log(`stopped after Ctrl-C (code ${code}, signal ${signal})`);
    } catch (err) {
      failures.push(`stopping: ${err.message}`);
      process.kill(-demo.child.pid, 'SIGKILL');
    }
    await demo.close();
    rmSync(profileDir, { recursive: true, force: true });
  }
  await sleep(1000);
  const leftInGroup = groupMembers(demo.child.pid);
  const newDirs = [...demoRunDirs()].filter((d) => !dirsBefore.has(d));
  const leftProcesses = [...newDirs.flatMap((d) => processesMentioning(join(tmpdir(), d))), ...processesMentioning(join(REPO, 'dist/demo.js'))];
  if (leftInGroup.length) failures.push(`processes of the demo's group still running: ${leftInGroup.join(', ')}`);
  if (leftProcesses.length) failures.push(`left running: ${leftProcesses.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}`);
  if (newDirs.length) failures.push(`run dirs left behind: ${newDirs.join(', ')}`);
  if (failures.length) {
    log(`FAIL\n  ${failures.join('\n  ')}\nlast output:\n${readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n')}`);
    process.exitCode = 1;
  } else {
    log('PASS: the README\'s "Run it" command printed the URL last, the page showed a PLEG-flagged node, Ctrl-C left nothing behind');
  }
}

await main();
