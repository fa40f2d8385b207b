/* global document, window */
// The node tree in a real VS Code (code-server + Chromium, as the e2e drives it) against a real cluster
// kit, run INSIDE that kit's one fault window (test/integration/realk8s/treeInCodeServer.ts calls it from
// the window's hooks; no second freeze): a workbench whose only kubeconfig is the kit's opens the PLEG
// Doctor view, and from then on a recorder in the page notes every change of the real node's row
// description with the time it saw it. What the row said is then held against the Ready posts the
// window's own watch saw reach the API server (compareRowWithPosts): Ready, each NotReady form the kubelet
// posted ("container runtime is down …" on 1.22 + dockershim, "PLEG is not healthy …"), and Ready again
// after SIGCONT, each shown within a bound of its post, without a refresh. Where node-problem-detector
// reports the PLEGAtRisk condition (the 1.26 kit), its changes count too: while Ready=True the row says
// "PLEG at risk" when it is True (src/core/classify/classifyNode.ts; on a NotReady node the kubelet's
// verdict wins).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureVsix, installVsix, logTail, prepareRunDir, startCodeServer } from './codeServer.mjs';
import { REPO, ensureTools } from './tools.mjs';
import { findRow, hoverRow, launchBrowser, openWorkbench, readTreeRows } from './workbench.mjs';

/** How often the recorder in the page reads the row. */
const RECORD_EVERY_MS = 250;
/** The page's clock and this process's are one machine's; a post's time is when the watch delivered it. */
const CLOCK_SLACK_MS = 1_000;

/**
 * The first word(s) the row's description must start with for a Ready post of the kubelet: the tree's
 * verdict names (src/core/tree/verdictPresentation.ts verdictShortName, English) for the messages the
 * kubelet's node status code writes (pkg/kubelet/nodestatus/setters.go ReadyCondition: "kubelet is posting
 * ready status"; runtimeErrors "container runtime is down" / "container runtime not ready"; the PLEG
 * health check "PLEG is not healthy"). A message none of these names is a form this check has no
 * expectation for: undefined.
 */
export function expectedRowWord(post, atRisk = false) {
  if (post.status === 'True') return atRisk ? 'PLEG at risk' : 'Ready';
  if (post.message.includes('PLEG is not healthy')) return 'PLEG';
  if (/container runtime is down|container runtime not ready/u.test(post.message)) return 'Runtime down';
  return undefined;
}

/** The verdict word a row description starts with ("PLEG · 3m" → "PLEG"; src/core/tree/nodeDescription.ts). */
const wordOf = (description) => description.split(' · ')[0] ?? '';
const startsWithWord = (description, word) => wordOf(description) === word;

/**
 * Every change of what the row should say, oldest first: each Ready post, and each change of the
 * PLEGAtRisk condition (`atRisk`: { atMs, status } as a watch saw them), with the word it makes the row
 * say given the other one in force. Changes before the first post have no word yet and are left out.
 */
function expectedChanges(posts, atRisk) {
  const merged = [...posts.map((p) => ({ atMs: p.atMs, post: p })), ...atRisk.map((c) => ({ atMs: c.atMs, risk: c }))].sort((a, b) => a.atMs - b.atMs);
  const changes = [];
  let post;
  let risk;
  for (const change of merged) {
    if (change.post) post = change.post;
    else risk = change.risk;
    if (post === undefined) continue;
    const what = change.post ? `${post.status} "${post.message.slice(0, 90)}"` : `PLEGAtRisk=${risk.status}`;
    const cause = change.post ? `the Node posted ${post.status} "${post.message}"` : `node-problem-detector set PLEGAtRisk=${risk.status}`;
    changes.push({ atMs: change.atMs, word: expectedRowWord(post, risk?.status === 'True'), what, cause });
  }
  return changes;
}

/**
 * What the row said against what the Node posted. `history`: the row's description changes as the page
 * saw them ({ atMs, description }, '' while the row was not shown); `posts`: every Ready change the watch
 * saw ({ atMs, status, message }), oldest first; `atRisk` (optional): every PLEGAtRisk change a watch saw.
 * Every change from the one in force when the recording started on must show in the row, its verdict word
 * within `boundMs` of it, and the row may say nothing the changes did not: the two sequences of verdict
 * words are the same. A word that held for less than `boundMs` (the Node posted Ready 2 s before NPD
 * cleared PLEGAtRisk, say) may be skipped by the row, not said out of turn. Returns the problems (empty
 * when it held) and one line per change with how long the row took.
 */
export function compareRowWithPosts(history, posts, { boundMs, atRisk = [] }) {
  const problems = [];
  const lines = [];
  const shown = history.filter((h) => h.description !== '');
  if (shown.length === 0) return { problems: ['the row was never shown'], lines };
  const from = shown[0].atMs;
  const changes = expectedChanges(posts, atRisk);
  const inForce = changes.filter((c) => c.atMs <= from).at(-1);
  const relevant = [...(inForce ? [inForce] : []), ...changes.filter((c) => c.atMs > from)];
  const descriptionAt = (t) => shown.filter((h) => h.atMs <= t).at(-1)?.description ?? '';
  // A word the next change replaced within the bound: the row may never have shown it.
  const fleeting = (i) => i + 1 < relevant.length && relevant[i + 1].atMs - relevant[i].atMs < boundMs && relevant[i + 1].word !== relevant[i].word;
  for (const [i, change] of relevant.entries()) {
    const word = change.word;
    if (word === undefined) {
      problems.push(`${change.cause}, a form this check has no expectation for`);
      continue;
    }
    // When the row first said the word, from just before the change on (the one in force at the start: from the start).
    const start = change === inForce ? from : change.atMs - CLOCK_SLACK_MS;
    const seenAt = startsWithWord(descriptionAt(start), word) ? start : shown.find((h) => h.atMs > start && startsWithWord(h.description, word))?.atMs;
    const after = seenAt === undefined ? undefined : Math.max(0, seenAt - Math.max(change.atMs, from));
    const brief = fleeting(i) && (after === undefined || after > boundMs);
    lines.push(`${change.what} → "${word}" ${after === undefined ? 'never' : `after ${(after / 1000).toFixed(1)} s`}${brief ? ` (held ${((relevant[i + 1].atMs - change.atMs) / 1000).toFixed(1)} s: may be skipped)` : ''}`);
    if (!brief && (after === undefined || after > boundMs)) problems.push(`${change.cause} but the row did not say "${word}" within ${boundMs / 1000} s (${after === undefined ? 'never' : `${(after / 1000).toFixed(1)} s`})`);
  }
  const squeeze = (words) => words.filter((w, i) => i === 0 || w !== words[i - 1]);
  const said = squeeze(shown.map((h) => wordOf(h.description)));
  const posted = squeeze(relevant.map((c) => c.word ?? '?'));
  const lasting = squeeze(relevant.filter((_c, i) => !fleeting(i)).map((c) => c.word ?? '?'));
  const saidLine = said.join(' → ');
  if (saidLine !== posted.join(' → ') && saidLine !== lasting.join(' → ')) problems.push(`the row said ${said.map((w) => `"${w}"`).join(' → ')}, the Node posted ${posted.map((w) => `"${w}"`).join(' → ')}`);
  return { problems, lines };
}

/** Packages the extension (reused when newer than its sources) and checks the tools: before any window. */
export async function prepareKitTree({ log }) {
  ensureTools(log);
  return ensureVsix(log);
}

/** Starts the page's recorder of `label`'s description: every change, with the page's wall-clock time. */
function startRecorder(page, label) {
  return page.evaluate(
    ({ wanted, everyMs }) => {
      const history = [];
      const ticks = { count: 0, lastMs: 0 };
      const read = () => {
        for (const r of document.querySelectorAll('.part.sidebar .monaco-list-row[role="treeitem"]')) {
          if (r.querySelector('.label-name')?.textContent?.trim() === wanted) return r.querySelector('.label-description')?.textContent?.trim() ?? '';
        }
        return '';
      };
      const tick = () => {
        const description = read();
        ticks.count++;
        ticks.lastMs = Date.now();
        if (history.at(-1)?.description !== description) history.push({ atMs: ticks.lastMs, description });
      };
      tick();
      window.__plegKitRow = { history, ticks, timer: window.setInterval(tick, everyMs) };
    },
    { wanted: label, everyMs: RECORD_EVERY_MS },
  );
}

/**
 * A code-server + Chromium on the kit: `kubeconfig` is the workbench's only one, HOME an empty dir (no
 * ~/.kube, no ~/.ssh). Resolves once the PLEG Doctor view shows `nodeName` Ready and the recorder runs;
 * everything started is stopped again if it fails. `shotsDir`: where shot() writes (test-results/…).
 */
export async function startKitTree({ vsix, kubeconfig, nodeName, kit, shotsDir, log, readyTimeoutMs = 120_000 }) {
  const runDir = mkdtempSync(join(tmpdir(), `pleg-kit-tree-${kit}-`));
  const dirs = prepareRunDir(runDir);
  const home = join(runDir, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(shotsDir, { recursive: true });
  const serverLog = join(runDir, 'server.log');
  let server;
  let browser;
  let closed = false;
  // The vitest worker may die without its afterAll (a killed run): code-server leads its own process group.
  const onExit = () => {
    try {
      if (server?.child.pid !== undefined) process.kill(-server.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const session = {
    runDir,
    /** The workbench page (the timeline's checks drive it too). */
    get page() {
      return browser.page;
    },
    async close() {
      if (closed) return;
      closed = true;
      process.off('exit', onExit);
      if (browser) await browser.context.close().catch((err) => log(`kit tree: closing the browser: ${err.message}`));
      if (server) await server.stop().catch((err) => log(`kit tree: stopping code-server: ${err.message}`));
      rmSync(runDir, { recursive: true, force: true });
    },
    /** The recorder's history and tick count, read from the page. */
    async recording() {
      return browser.page.evaluate(() => ({ history: [...window.__plegKitRow.history], ticks: { ...window.__plegKitRow.ticks } }));
    },
    /** The row's description once it matches `pattern` (throws naming what it says at the deadline). */
    async waitForRow(pattern, timeoutMs) {
      const row = await findRow(browser.page, nodeName, pattern, timeoutMs);
      if (!row || !pattern.test(row.description)) throw new Error(`${nodeName} is ${row ? `"${row.description}"` : 'not in the tree'} after ${timeoutMs / 1000} s, expected ${pattern}; rows: ${(await readTreeRows(browser.page)).map((r) => `${r.label} | ${r.description}`).join('; ')}`);
      return row.description;
    },
    /** The row's hover text once `accept` holds it (or as it is after `timeoutMs`). */
    hover(accept, timeoutMs) {
      return hoverRow(browser.page, nodeName, accept, timeoutMs);
    },
    /** A screenshot of the workbench (or of `clip`) into shotsDir as realk8s-<kit>-tree-<name>.png; the file, or undefined. */
    async shot(name, clip) {
      const file = join(shotsDir, `realk8s-${kit}-tree-${name}.png`);
      try {
        await browser.page.screenshot({ path: file, timeout: 15_000, ...(clip ? { clip } : {}) });
        return file;
      } catch (err) {
        log(`kit tree: screenshot ${name}: ${err.message}`);
        return undefined;
      }
    },
    serverLogTail: () => logTail(serverLog),
  };
  try {
    process.on('exit', onExit);
    log(`kit tree: ${await installVsix(dirs, vsix)}`);
    server = await startCodeServer(dirs, { logFile: serverLog, env: { KUBECONFIG: kubeconfig, HOME: home } });
    browser = await launchBrowser(dirs.chromeProfile);
    await openWorkbench(browser.page, server.url);
    // The tab appears once the extension host has read the manifest; findRow opens the view.
    await browser.page.getByRole('tab', { name: /PLEG Doctor/i }).first().waitFor({ timeout: 90_000 });
    await session.waitForRow(/^Ready\b/, readyTimeoutMs);
    await startRecorder(browser.page, nodeName);
    return session;
  } catch (err) {
    if (browser) await session.shot('failure-start');
    const tail = logTail(serverLog, 20);
    await session.close();
    throw new Error(`${err.message}${tail ? `\ncode-server log:\n${tail}` : ''}`, { cause: err });
  }
}

/** Where the kit tree's screenshots go: beside the timeline recordings the window keeps. */
export const KIT_TREE_SHOTS = join(REPO, 'test-results');
