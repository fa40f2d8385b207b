// `npm run test:e2e`: PLEG Doctor in a real VS Code (code-server + Debian Chromium, driven by
// playwright-core) against the loopback Kubernetes API stand-in, which this process runs and drives.
//
// Checks: (1) the tree shows every node of both stand-in contexts; (2) the PLEG node's description gives
// the PLEG verdict and its tooltip the kubelet's message; (3) a node flipped to PLEG-NotReady through the
// stand-in updates in the tree within 2 s, without a refresh; (4) a context whose server refuses
// connections shows an error item; (5) the what-if timeline webview runs a simulation and draws it;
// (6) a CRI snapshot of a real node (test/support/node-stack.sh: sshd + containerd + pods) over SSH, through
// the unknown-host-key modal (refused once, then trusted) and the key-passphrase box, and a second one that
// asks nothing; (7) Diagnose Node on the PLEG node (context menu) and on a Ready node (palette): the
// Markdown report, its preview, the notification and the node-proxy requests the stand-in saw, and a
// cancelled diagnosis ending at once; Diagnose All NotReady Nodes and Export Evidence Bundle (lib/diagnoseCheck.mjs);
// after (6), a diagnosis that reads the stack's node over SSH; (8) the
// guided Configure Node Access… (cancel, validation, Back, the write, Test Connection) and the walkthrough;
// (9) the tree explains (lib/treeExplainsCheck.mjs): status bar at startup, Ready message, events, log;
// (9f) the demo's node at risk: "PLEG at risk · NotReady in ~…" counting down, NPD's condition in its tooltip
// (lib/atRiskCheck.mjs);
// (10) zh-cn: a second code-server in Chinese shows the tree in Chinese (lib/localeCheck.mjs); (11) the
// PLEG timeline on the demo's PLEG node: live through the API server, headed by the tree's verdict, every
// lane drawn, lanes inside the plot after a zoom, and for every demo node (prod-eu and staging) the tree,
// the report and the timeline agree on the verdict (lib/timelineCheck.mjs); (C) the
// CLI under Node 20 and Node 24 alike (lib/cliRuntimesCheck.mjs). The
// node stack is started when it is not up, and then taken down (and checked) at the end.
// Screenshots go to test-results/e2e/. Ends with "N passed, N failed".
//
// Env: PLEG_E2E_KEEP=1 keeps the run dir; PLEG_E2E_REBUILD=1 repackages the .vsix; PLEG_E2E_VSIX=<file>
// tests that package; PLEG_E2E_UPDATE_SCREENSHOTS=1 copies the README shots to media/screenshots on success;
// PLEG_E2E_TREE_TIMEOUT_MS (default 30000) bounds the first tree render.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, WORKBENCH_SETTINGS, ensureTools } from './lib/tools.mjs';
import { ensureVsix, installVsix, logTail, prepareRunDir, startCodeServer } from './lib/codeServer.mjs';
import { freePort, processesMentioning } from './lib/processes.mjs';
import { loadDemoModules } from './lib/standIn.mjs';
import { ensureNodeStack, tearDownNodeStack } from './lib/nodeStack.mjs';
import { STACK_NODE, prepareNodeAccess, runCriSnapshotChecks } from './lib/criSnapshotCheck.mjs';
import { runDiagnoseChecks, runNodeSideDiagnoseCheck } from './lib/diagnoseCheck.mjs';
import { runConfigureNodeAccessCheck, runWalkthroughCheck } from './lib/configureNodeAccessCheck.mjs';
import { expandContexts as expandTopLevel, hoverRow, launchBrowser, openWorkbench, readTreeRows, waitForDescription, widenSidebar } from './lib/workbench.mjs';
import { runStatusBarAtStartupCheck, runTreeExplainsChecks } from './lib/treeExplainsCheck.mjs';
import { runLocaleCheck } from './lib/localeCheck.mjs';
import { runTimelineCheck } from './lib/timelineCheck.mjs';
import { refreshAtRiskNode, runAtRiskCheck } from './lib/atRiskCheck.mjs';
import { runKubeletLogCheck } from './lib/kubeletLogCheck.mjs';
import { runCliRuntimesCheck } from './lib/cliRuntimesCheck.mjs';
import { TIMELINE_LIVE_SETTINGS, runTimelineLiveCheck } from './lib/timelineLiveCheck.mjs';
import { runRealClusterCheck, startRealCluster, stopRealCluster, withRealKubeconfig } from './lib/realClusterCheck.mjs';
import { openQuickInput } from './lib/prompts.mjs';

const FLIP_BOUND_MS = 2000;
const TREE_TIMEOUT_MS = Number(process.env.PLEG_E2E_TREE_TIMEOUT_MS ?? 30_000);
const STARTUP_TIMEOUT_MS = 90_000;
const KEEP = process.env.PLEG_E2E_KEEP === '1';
const OFFLINE_CONTEXT = 'offline-lab';
const PLEG_NODE = 'prod-eu-node-07';
const FLIP_NODE = 'staging-node-02';
const VIEW_CONTAINER = /PLEG Doctor/i;

const t0 = Date.now();
const log = (msg) => process.stdout.write(`[e2e +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
const shotsDir = join(REPO, 'test-results/e2e');
const results = [];
let shotN = 0;
let page;

function record(name, ok, detail) {
  results.push({ name, ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

/** The side bar and the tooltip, without the empty editor: what the README shows. */
const README_CLIP = { x: 0, y: 0, width: 900, height: 560 };

async function shot(name, clip) {
  if (!page) return undefined;
  const file = join(shotsDir, `${clip ? 'readme' : String(++shotN).padStart(2, '0')}-${name}.png`);
  try {
    await page.screenshot({ path: file, timeout: 15_000, ...(clip ? { clip } : {}) });
    return file;
  } catch (err) {
    log(`screenshot ${name} failed: ${err.message}`);
    return undefined;
  }
}

/** Runs one check; a thrown error or false result fails it and leaves a screenshot. */
async function check(name, fn) {
  try {
    const detail = await fn();
    record(name, true, detail);
    return true;
  } catch (err) {
    record(name, false, err.message.split('\n').slice(0, 12).join('\n'));
    await shot(`failure-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`);
    return false;
  }
}

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Expands the top-level (context) rows that are collapsed, until none is left or `timeoutMs` passes. */
const expandContexts = (timeoutMs) => expandTopLevel(page, timeoutMs);

/** Rows grouped under their nearest level-1 ancestor (the context). */
function groupByContext(rows) {
  const groups = new Map();
  let current;
  for (const r of rows) {
    if (r.level === 1) {
      current = r;
      groups.set(r.label, { row: r, children: [] });
    } else if (current) {
      groups.get(current.label).children.push(r);
    }
  }
  return groups;
}

/** Finds the context group whose label names `context` (the label may carry more than the name). */
function contextGroup(groups, context) {
  for (const [label, g] of groups) if (label === context || label.split(/\s/).includes(context)) return g;
  return undefined;
}

/** Ctrl-C or SIGTERM mid-run: stop what we started (code-server leads its own group, so it would survive us). */
function onInterrupt(cleanup) {
  const handler = (signal) => {
    log(`${signal}: stopping`);
    cleanup()
      .catch((err) => log(`cleanup: ${err.message}`))
      .finally(() => {
        process.stdout.write(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok).length + 1} failed\n`);
        process.exit(130);
      });
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
}

async function main() {
  mkdirSync(shotsDir, { recursive: true });
  for (const f of readdirSync(shotsDir)) if (/\.(png|log)$/.test(f)) rmSync(join(shotsDir, f), { force: true });
  log(`tools: ${ensureTools(log)}`);
  const runDir = mkdtempSync(join(tmpdir(), 'pleg-e2e-'));
  log(`run dir ${runDir}`);
  const dirs = prepareRunDir(runDir);
  const serverLog = join(runDir, 'server.log');
  const consoleLines = [];
  let demo;
  let server;
  let browser;
  let failedSetup = false;
  // Started now so it overlaps packaging; settled (and torn down if ours) in finally whatever happens.
  const bringUpStack = () =>
    ensureNodeStack({ pods: 3, log }).then(
      (s) => {
        log(`node stack ${s.startedHere ? 'started' : 'already up, reused'}: ${s.env.SSH_USER}@${s.env.SSH_HOST}:${s.env.SSH_PORT}, CRI ${s.env.CRI_SOCKET}`);
        return s;
      },
      (error) => ({ error }),
    );
  let stackReady = bringUpStack();
  // A real kube-apiserver + kubelet as one more context; its runtime is frozen from the start (check R).
  const realReady = startRealCluster({ log });
  let access;
  let accessError;
  let stackDown = false;
  const stopStack = async () => {
    const s = await stackReady;
    if (!s.startedHere || stackDown) return undefined;
    stackDown = true;
    await tearDownNodeStack();
    return 'down';
  };

  try {
    const vsix = await ensureVsix(log, { force: process.env.PLEG_E2E_REBUILD === '1' });
    await runCliRuntimesCheck({ check });
    const demoModules = await loadDemoModules(runDir);

    // Demo time zero 40 s ago puts the flapping node in the middle of its PLEG-NotReady phase; the
    // cluster is frozen there (live: false), and only this test changes it.
    demo = await demoModules.startDemo({ originMs: Date.now() - 40_000, live: false });
    const refusedPort = await freePort(); // bound and closed: connections to it are refused
    const kubeconfig = join(runDir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      demoModules.demoKubeconfigYaml([...demo.kubeconfigEntries(), { context: OFFLINE_CONTEXT, server: `http://127.0.0.1:${refusedPort}`, token: 'unused' }]),
      { mode: 0o600 },
    );
    const expected = new Map(demo.contexts.map((c) => [c.spec.context, c.spec.nodes.map((n) => n.name)]));
    const plegNode = demo.contexts.flatMap((c) => c.server.getNode(PLEG_NODE) ?? []);
    const plegMessage = plegNode[0]?.status?.conditions?.find((c) => c.type === 'Ready')?.message ?? '';
    assert(plegMessage.startsWith('PLEG is not healthy'), `demo script: ${PLEG_NODE} is not PLEG-NotReady at the frozen instant (message: "${plegMessage}")`);
    log(`stand-ins: ${demo.kubeconfigEntries().map((e) => `${e.context}=${e.server}`).join(' ')}; ${OFFLINE_CONTEXT}=127.0.0.1:${refusedPort} (refused)`);

    // A reused stack belongs to someone else (on a shared machine, another test run) and may go down at
    // any time; if it vanished before we could read its key, bring one up again, ours this time.
    for (let attempt = 1; attempt <= 2 && !access; attempt++) {
      const stack = await stackReady;
      accessError = undefined;
      if (stack.error) accessError = stack.error;
      else access = await prepareNodeAccess(runDir, dirs.userData, stack.env, { ...WORKBENCH_SETTINGS, ...TIMELINE_LIVE_SETTINGS }).catch((err) => void (accessError = err));
      if (!access && attempt === 1 && !stack.error && !stack.startedHere) {
        log(`node stack: the reused stack went away (${accessError.message}); starting it again`);
        stackReady = bringUpStack();
      } else break;
    }
    log(await installVsix(dirs, vsix));
    // HOME is an empty dir of the run: no ~/.ssh/known_hosts may already trust the stack, no default key.
    const home = join(runDir, 'home');
    mkdirSync(home, { recursive: true, mode: 0o700 });
    server = await startCodeServer(dirs, { logFile: serverLog, env: { KUBECONFIG: await withRealKubeconfig(kubeconfig, realReady), HOME: home } });
    onInterrupt(async () => {
      if (browser) await browser.context.close().catch(() => undefined);
      await server.stop().catch(() => undefined);
      await stopStack().catch((err) => log(`node stack: ${err.message}`));
      await stopRealCluster({ realReady, record }).catch((err) => log(`real cluster: ${err.message}`));
      for (const p of processesMentioning(runDir)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
      if (!KEEP) rmSync(runDir, { recursive: true, force: true });
    });
    log(`code-server listening on 127.0.0.1:${server.port} (pgid ${server.child.pid})`);

    browser = await launchBrowser(dirs.chromeProfile);
    page = browser.page;
    page.on('console', (m) => consoleLines.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));
    await openWorkbench(page, server.url);
    log('workbench visible');
    await shot('workbench');
    await runStatusBarAtStartupCheck({ page, check, startupTimeoutMs: STARTUP_TIMEOUT_MS });

    const opened = await check('open the PLEG Doctor view', async () => {
      const tab = page.getByRole('tab', { name: VIEW_CONTAINER });
      // The tab appears once the extension host has read the manifest: startup, so a generous wait.
      await tab.first().waitFor({ timeout: STARTUP_TIMEOUT_MS });
      await tab.first().click();
      await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: TREE_TIMEOUT_MS });
      await widenSidebar(page).catch((err) => log(`widening the side bar: ${err.message}`));
      return 'tree rendered';
    });

    if (opened) {
      await check('(1) the tree shows every node of both contexts', async () => {
        const deadline = Date.now() + TREE_TIMEOUT_MS;
        let missing = [];
        let rows = [];
        while (Date.now() < deadline) {
          await expandContexts(10_000);
          rows = await readTreeRows(page);
          const groups = groupByContext(rows);
          missing = [];
          for (const [context, names] of expected) {
            const g = contextGroup(groups, context);
            const shown = new Set((g?.children ?? []).map((r) => r.label));
            for (const n of names) if (!shown.has(n)) missing.push(`${context}/${n}`);
          }
          if (missing.length === 0) break;
          await sleep(500);
        }
        await shot('tree');
        assert(missing.length === 0, `missing from the tree: ${missing.join(', ')}\nrows: ${rows.map((r) => `${'  '.repeat(r.level)}${r.label} | ${r.description}`).join('\n')}`);
        const total = [...expected.values()].reduce((a, n) => a + n.length, 0);
        return `${total} nodes under ${expected.size} contexts`;
      });

      await check('(2) the PLEG node shows the PLEG verdict and the kubelet message in its tooltip', async () => {
        const row = (await readTreeRows(page)).find((r) => r.label === PLEG_NODE);
        assert(row, `${PLEG_NODE} is not in the tree`);
        assert(/^PLEG\b/.test(row.description), `description of ${PLEG_NODE} is "${row.description}", expected it to start with "PLEG"`);
        const hover = await hoverRow(page, PLEG_NODE, (text) => text.includes(plegMessage));
        await sleep(800); // let the hover finish fading in before the screenshot
        await shot('pleg-tooltip');
        await shot('nodes-tree', README_CLIP);
        assert(hover.includes(plegMessage), `tooltip does not contain the kubelet message "${plegMessage}"; hover text: "${hover.slice(0, 600)}"`);
        return `description "${row.description}"; tooltip quotes "${plegMessage}"`;
      });

      await check(`(3) flipping ${FLIP_NODE} to PLEG-NotReady updates the tree within ${FLIP_BOUND_MS} ms without a refresh`, async () => {
        await page.mouse.move(5, 5);
        const before = (await readTreeRows(page)).find((r) => r.label === FLIP_NODE);
        assert(before, `${FLIP_NODE} is not in the tree`);
        assert(!/^PLEG\b/.test(before.description), `${FLIP_NODE} already shows "${before.description}" before the flip`);
        const found = demoModules.findDemoNode(FLIP_NODE);
        const flipped = demoModules.plegNotReadyNodeAt(found.node, demo.originMs, Date.now(), 226.5);
        const upsertAt = Date.now();
        demo.upsert(found.context.context, flipped);
        let seen;
        try {
          seen = await waitForDescription(page, FLIP_NODE, /^PLEG\b/, { timeoutMs: 15_000, pollMs: 50 });
        } catch {
          const now = (await readTreeRows(page)).find((r) => r.label === FLIP_NODE);
          throw new Error(`no PLEG description for ${FLIP_NODE} within 15 s of the upsert (it shows "${now?.description}")`);
        }
        const observedAt = Date.now();
        // The page's clock stamps the first poll that saw the change; the Node-side time includes one
        // round trip, so it is the upper bound if the two clocks disagree.
        const latency = seen.seenAt >= upsertAt && seen.seenAt <= observedAt ? seen.seenAt - upsertAt : observedAt - upsertAt;
        await shot('flipped');
        await shot('nodes-tree-flip', README_CLIP);
        assert(latency <= FLIP_BOUND_MS, `tree updated ${latency.toFixed(0)} ms after the upsert (bound ${FLIP_BOUND_MS} ms)`);
        return `"${seen.description}" ${latency.toFixed(0)} ms after the upsert (poll 50 ms; round trip included: ${observedAt - upsertAt} ms)`;
      });

      await check(`(4) the unreachable context ${OFFLINE_CONTEXT} shows an error item`, async () => {
        const deadline = Date.now() + TREE_TIMEOUT_MS;
        let g;
        const errorText = /refus|unreachable|cannot|can't|could not|couldn't|failed|error|ECONN/i;
        while (Date.now() < deadline) {
          await expandContexts(5_000);
          g = contextGroup(groupByContext(await readTreeRows(page)), OFFLINE_CONTEXT);
          const texts = g ? [g.row.description, g.row.aria, ...g.children.flatMap((c) => [c.label, c.description, c.aria])] : [];
          if (texts.some((t) => errorText.test(t))) break;
          await sleep(500);
        }
        await shot('unreachable-context');
        assert(g, `no context row for ${OFFLINE_CONTEXT}`);
        const child = g.children.find((c) => errorText.test(`${c.label} ${c.description} ${c.aria}`));
        assert(child, `no error item under ${OFFLINE_CONTEXT}; context row "${g.row.label} | ${g.row.description}", children: ${g.children.map((c) => `${c.label} | ${c.description}`).join('; ') || 'none'}`);
        assert(!g.children.some((c) => /node-\d/.test(c.label)), `${OFFLINE_CONTEXT} lists nodes although its server refuses connections`);
        return `"${child.label}${child.description ? ` | ${child.description}` : ''}"`;
      });

      await check('the other verdicts reach the tree (runtime down, no heartbeat, cordoned)', async () => {
        const rows = await readTreeRows(page);
        const want = [
          ['prod-eu-node-03', /^Runtime down\b/],
          ['prod-eu-node-11', /^No heartbeat\b/],
          ['staging-node-04', /\bcordoned\b/],
        ];
        const wrong = want.filter(([n, re]) => !re.test(rows.find((r) => r.label === n)?.description ?? '')).map(([n, re]) => `${n} "${rows.find((r) => r.label === n)?.description ?? '(absent)'}" !~ ${re}`);
        assert(wrong.length === 0, wrong.join('; '));
        return want.map(([n]) => `${n}: ${rows.find((r) => r.label === n).description}`).join('; ');
      });

      await runTreeExplainsChecks({ page, check, shot, log });
      await runAtRiskCheck({ page, check, shot, demo, demoModules, readmeClip: README_CLIP });

      await check('(5) the what-if timeline panel runs a simulation and draws it', async () => {
        await openQuickInput(page, '>PLEG Doctor: Open What-If Timeline');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Open What-If Timeline' }).first().waitFor({ timeout: 15_000 });
        await page.keyboard.press('Enter');
        const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
        await frame.locator('#run').waitFor({ timeout: 30_000 });
        await frame.locator('#run').click();
        // Defaults: 110 pods, runtime frozen at 60 s for 300 s: PLEG must go unhealthy about 3 minutes in.
        const notes = frame.locator('#notes li');
        await notes.first().waitFor({ timeout: 30_000 });
        await frame.locator('#chart canvas').first().waitFor({ timeout: 10_000 });
        const text = (await notes.allTextContents()).join(' / ');
        assert(/first unhealthy at/.test(text), `the notes do not report PLEG going unhealthy: ${text}`);
        assert(/Ready=False/.test(text), `the notes do not report the node going NotReady: ${text}`);
        // The README caption of this screenshot says 179 s; test/unit/core/pleg/sim/simulate.frozenRuntime.test.ts ties it to the recording.
        assert(/\(179\.\d s after the freeze\)/.test(text), `the notes do not say PLEG went unhealthy 179 s after the freeze: ${text}`);
        await shot('5-what-if-timeline');
        // The README shot: the panel alone (the output panel of earlier checks may share the window).
        const panel = await page.locator('iframe.webview.ready').first().boundingBox();
        await shot('what-if-timeline', panel ?? { x: 0, y: 0, width: 1400, height: 1000 });
        return text.slice(0, 200);
      });

      await runKubeletLogCheck({ page, check, shot, workspace: dirs.workspace });

      await runTimelineCheck({ page, check, shot, demo, kubeconfig, refreshAtRisk: () => refreshAtRiskNode(demo, demoModules) });

      // Before (6): its window reload would otherwise leave this check to find the tree again.
      await runDiagnoseChecks({ page, check, shot, log, demo, userDataDir: dirs.userData });

      if (access) {
        /** After a window reload: the view open again and `name`'s row shown (contexts expanded as needed). */
        const showNode = async (name) => {
          const deadline = Date.now() + TREE_TIMEOUT_MS;
          const tab = page.getByRole('tab', { name: VIEW_CONTAINER }).first();
          await tab.waitFor({ timeout: STARTUP_TIMEOUT_MS });
          while (Date.now() < deadline) {
            if ((await readTreeRows(page)).some((r) => r.label === name)) return;
            const anyRow = await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').first().isVisible().catch(() => false);
            if (!anyRow && (await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
            await expandContexts(3_000);
            await sleep(300);
          }
          throw new Error(`${name} is not in the tree ${TREE_TIMEOUT_MS} ms after the reload; rows: ${(await readTreeRows(page)).map((r) => r.label).join(', ')}`);
        };
        await runCriSnapshotChecks({ page, check, shot, log, demo, makeNode: demoModules.makeNode, access, userDataDir: dirs.userData, serverLog, showNode });
        await runNodeSideDiagnoseCheck({ page, check, shot, node: STACK_NODE });
        await runTimelineLiveCheck({ page, check, shot, log, node: STACK_NODE, containerdPid: Number(access.env.CONTAINERD_PID) });
        await runConfigureNodeAccessCheck({ page, check, shot, access, userDataDir: dirs.userData, showNode });
        await runWalkthroughCheck({ page, check, shot });
      } else {
        record(`(6) a CRI snapshot of ${STACK_NODE} over SSH`, false, `no node stack: ${accessError?.message ?? 'unknown error'}`);
      }
      await runRealClusterCheck({ page, check, shot, log, realReady, readmeClip: README_CLIP });
    }
    await runLocaleCheck({ check, log, runDir, vsix, env: { KUBECONFIG: kubeconfig, HOME: home } });
  } catch (err) {
    failedSetup = true;
    record('setup', false, err.stack ?? err.message);
    await shot('failure-setup');
  } finally {
    if (browser) await browser.context.close().catch((err) => log(`closing the browser: ${err.message}`));
    if (server) {
      const killed = await server.stop().catch((err) => [`error: ${err.message}`]);
      log(`code-server stopped${killed.length ? ` (SIGKILLed: ${killed.join(', ')})` : ''}`);
    }
    if (demo) await demo.stop().catch((err) => log(`stopping the stand-ins: ${err.message}`));
    try {
      if ((await stopStack()) === 'down') record('the node stack this run started is down (node-stack.sh check passes)', true);
    } catch (err) {
      record('the node stack this run started is down (node-stack.sh check passes)', false, err.message.split('\n').slice(0, 12).join('\n'));
    }
    await stopRealCluster({ realReady, record });
    const failed = results.some((r) => !r.ok);
    writeFileSync(join(shotsDir, 'console.log'), consoleLines.join('\n'));
    if (failed || failedSetup) {
      copyFileSync(serverLog, join(shotsDir, 'server.log'));
      log(`server log tail:\n${logTail(serverLog)}`);
    }
    // Nothing started by this run may survive it: every one of our processes mentions the run dir.
    await sleep(200);
    const leftovers = processesMentioning(runDir);
    for (const p of leftovers) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    record('no process left behind', leftovers.length === 0, leftovers.length ? `killed leftovers: ${leftovers.map((p) => `${p.pid} ${p.cmdline}`).join('; ')}` : '');
    if (KEEP) log(`kept ${runDir}`);
    else rmSync(runDir, { recursive: true, force: true });
  }
}

await main();
if (process.env.PLEG_E2E_UPDATE_SCREENSHOTS === '1' && results.every((r) => r.ok)) {
  const media = join(REPO, 'media/screenshots');
  mkdirSync(media, { recursive: true });
  for (const f of readdirSync(shotsDir)) if (f.startsWith('readme-')) copyFileSync(join(shotsDir, f), join(media, f.slice('readme-'.length)));
  log(`README screenshots updated in ${media}`);
}
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
log(`screenshots in ${shotsDir}`);
// Repeated last: CI shows only the tail of the output, and the server log printed on failure pushes the
// failed check's own line out of it.
for (const r of results.filter((x) => !x.ok)) process.stdout.write(`FAILED ${r.name}${r.detail ? `: ${r.detail}` : ''}\n`);
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
