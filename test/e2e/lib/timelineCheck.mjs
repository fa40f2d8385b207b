/* global document, window */
// Check (11): the PLEG timeline panel in the real workbench. The demo's nodes have no SSH, but the demo's
// API stand-in serves their kubelets behind its node proxy: the timeline of its PLEG node runs live on
// those metrics and the Ready condition. Opened from the node's context menu it must say so, head the
// panel with the node's state now (the tree's verdict), state the prediction and what the session lacks,
// and draw both charts (every fixed lane has pixels). Opening the same node again from the palette must
// focus that panel, not make a second one. (11c) for every demo node (all 17, prod-eu and staging) the
// tree's verdict, the report's headline and the timeline's headline agree; (11d) a drag-zoom keeps the
// lanes inside the plot.
// The helpers (openTimeline, readTimeline) take any node, so the live check on the real node stack can
// reuse them: open, then poll readTimeline until the state it wants shows.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './tools.mjs';
import { fillQuickInput, pickContextMenuItem, readEditorTabs, readModal, readQuickInput, runPaletteCommand, waitForQuickInput, describePrompts } from './prompts.mjs';
import { readTreeRows, rowLocator } from './workbench.mjs';
import { AT_RISK_NODE, countdownSeconds } from './atRiskCheck.mjs';

export const TIMELINE_DEMO_NODE = 'prod-eu-node-07';
const COMMAND_TITLE = 'Open PLEG Timeline';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Opens the timeline of `node` from its row's context menu, or from the palette's node quick pick. */
export async function openTimeline(page, node, { via = 'contextMenu' } = {}) {
  if (via === 'contextMenu') {
    await page.mouse.move(5, 5);
    await pickContextMenuItem(page, rowLocator(page, node).first().locator('.label-name'), COMMAND_TITLE);
    return;
  }
  await runPaletteCommand(page, `PLEG Doctor: ${COMMAND_TITLE}`);
  const pick = await waitForQuickInput(page, { timeoutMs: 10_000, match: (q) => q.items.some((i) => i.includes(node)), describeState: () => describePrompts(page) });
  assert(pick.title === COMMAND_TITLE, `the quick pick is titled "${pick.title}", not "${COMMAND_TITLE}"`);
  await fillQuickInput(page, node);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: node }).first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
}

/**
 * What the timeline page of `node` shows, read inside its frame: title, source label, relist count, prediction, lacks,
 * legend keys, feed state, the hovered relist's heading, and per chart how many canvas pixels are drawn
 * (not transparent) overall and per lane of the lanes chart. undefined while no frame shows that node.
 */
export async function readTimeline(page, node) {
  const states = [];
  for (const frame of page.frames()) {
    const state = await frame
      .evaluate((wanted) => {
        const title = document.querySelector('#session-title')?.textContent ?? '';
        if (!title.endsWith(` ${wanted}`)) return undefined;
        const text = (sel) => document.querySelector(sel)?.textContent?.trim() ?? '';
        const drawn = (canvas, y0, h) => {
          if (!canvas) return 0;
          const data = canvas.getContext('2d').getImageData(0, y0 ?? 0, canvas.width, h ?? canvas.height).data;
          let n = 0;
          for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
          return n;
        };
        const lanesHost = document.querySelector('#lanes-chart');
        const over = lanesHost?.querySelector('.u-over');
        const lanesCanvas = lanesHost?.querySelector('canvas');
        const dpr = window.devicePixelRatio || 1;
        // The lanes: health, predicted NotReady, Ready, then pods; 22 CSS px each (sessionChart.ts).
        const lanes = [];
        if (over && lanesCanvas) {
          const rows = Math.round(over.offsetHeight / 22);
          for (let row = 0; row < rows; row++) {
            const y = Math.round((over.offsetTop + row * 22 + 7) * dpr);
            const data = lanesCanvas.getContext('2d').getImageData(Math.round(over.offsetLeft * dpr), y, Math.round(over.offsetWidth * dpr), Math.round(8 * dpr)).data;
            let n = 0;
            for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++;
            lanes.push(n);
          }
        }
        // Bar pixels (saturated colours: the lane text is the theme's grey) left and right of the plot, in the fixed lanes.
        const outside = (() => {
          if (!over || !lanesCanvas) return -1;
          const ctx = lanesCanvas.getContext('2d');
          const top = Math.round(over.offsetTop * dpr);
          const h = Math.round(3 * 22 * dpr);
          let n = 0;
          for (const [x, w] of [[0, Math.round(over.offsetLeft * dpr)], [Math.round((over.offsetLeft + over.offsetWidth) * dpr), lanesCanvas.width - Math.round((over.offsetLeft + over.offsetWidth) * dpr)]]) {
            if (w <= 0) continue;
            const data = ctx.getImageData(x, top, w, h).data;
            for (let i = 0; i < data.length; i += 4) {
              if (data[i + 3] < 128) continue;
              const hi = Math.max(data[i], data[i + 1], data[i + 2]);
              const lo = Math.min(data[i], data[i + 1], data[i + 2]);
              if (hi - lo > 60) n++;
            }
          }
          return n;
        })();
        const headline = document.querySelector('#headline');
        return {
          title,
          verdict: headline?.dataset.verdict ?? '',
          headline: headline?.textContent?.trim() ?? '',
          lanePixelsOutsidePlot: outside,
          label: text('#session-label'),
          // The relists the pane holds (sessionPane.ts countRelists): grows as a live feed delivers.
          relists: Number(document.querySelector('#session')?.dataset.relists ?? NaN),
          prediction: text('#prediction'),
          lacks: [...document.querySelectorAll('#lacks li')].map((li) => li.textContent ?? ''),
          legend: [...document.querySelectorAll('#session-legend li')].map((li) => li.dataset.key ?? ''),
          feed: text('#feed-state'),
          details: text('#relist-details h3'),
          mainPixels: drawn(document.querySelector('#session-chart canvas')),
          lanePixels: lanes,
        };
      }, node)
      .catch(() => undefined);
    if (state) states.push(state);
  }
  return states.length === 0 ? undefined : { ...states[0], frames: states.length };
}

/** Polls readTimeline until `ready(state)` holds; throws with the last state after `timeoutMs`. */
export async function waitForTimeline(page, node, ready, { timeoutMs = 30_000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let state;
  while (Date.now() < deadline) {
    state = await readTimeline(page, node);
    if (state && ready(state)) return state;
    await sleep(250);
  }
  throw new Error(`the timeline of ${node} did not show what was expected within ${timeoutMs} ms; last state: ${JSON.stringify(state)?.slice(0, 1500)}`);
}

/** Height the window is given for a README shot of a panel: the whole chart and its lanes in view. */
const README_PANEL_HEIGHT = 1_600;

/**
 * A README screenshot of the timeline panel. When the README shots are being refreshed
 * (PLEG_E2E_UPDATE_SCREENSHOTS=1), the window is made taller for the shot so the whole panel, lanes
 * included, is in it (the charts are taller than the editor of a 1000 px window), then given back its size.
 * Otherwise the window is left alone: a CI run once found the palette inert right after such a resize.
 */
export async function panelShot(page, shot, name) {
  const size = process.env.PLEG_E2E_UPDATE_SCREENSHOTS === '1' ? page.viewportSize() : null;
  try {
    if (size) {
      await page.setViewportSize({ width: size.width, height: Math.max(size.height, README_PANEL_HEIGHT) });
      await sleep(700);
    }
    const panel = await page.locator('iframe.webview.ready').first().boundingBox();
    return await shot(name, panel ?? undefined);
  } finally {
    if (size) {
      await page.setViewportSize(size);
      await sleep(1_000);
    }
  }
}

/** The verdict a tree row's description starts with (src/core/tree/verdictPresentation.ts verdictShortName). */
const TREE_WORDS = [
  [/^PLEG at risk\b/, 'pleg-at-risk'],
  [/^PLEG\b/, 'pleg'],
  [/^Runtime down\b/, 'runtime-down'],
  [/^Starting\b/, 'startup'],
  [/^Network\b/, 'network'],
  [/^No heartbeat\b/, 'lease-lost'],
  [/^NotReady\b/, 'not-ready-other'],
  [/^Ready\b/, 'ready'],
];

/**
 * The verdict of the report's headline, "<verdict label>: <cause>" (src/core/diagnose/headline.ts): read
 * from the label before the colon by its key word, not its exact prose.
 */
export function reportVerdict(headline) {
  const label = headline.split(':')[0] ?? '';
  if (/^Unknown\b|not posting|heartbeat/i.test(label)) return 'lease-lost';
  if (/^PLEG at risk\b/.test(label)) return 'pleg-at-risk';
  if (/PLEG/.test(label)) return 'pleg';
  if (/runtime/i.test(label)) return 'runtime-down';
  if (/starting/i.test(label)) return 'startup';
  if (/network/i.test(label)) return 'network';
  if (/^Ready\b/.test(label)) return 'ready';
  if (/^NotReady\b/.test(label)) return 'not-ready-other';
  return `(no verdict in "${label}")`;
}

/**
 * The report's headline for one node, as `pleg-doctor diagnose -o json` writes it (the report Diagnose
 * Node opens has the same one). Run asynchronously: the demo's API stand-in answers from this very
 * process, so a spawnSync would leave the CLI's "get nodes" unanswered until its deadline.
 */
export function reportHeadline(kubeconfig, context, node) {
  const args = [join(REPO, 'dist/cli.js'), 'diagnose', '--kubeconfig', kubeconfig, '--context', context, '--node', node, '-o', 'json', '--metrics-interval', '0'];
  return new Promise((resolve, reject) => {
    // diagnose exits 1 when a check fails: the JSON on stdout is what counts.
    execFile(process.execPath, args, { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) => {
      let json;
      try {
        json = JSON.parse(stdout);
      } catch {
        reject(new Error(`pleg-doctor diagnose of ${context}/${node} printed no JSON (${error?.message ?? 'exit 0'}): ${(stderr || stdout || '').slice(0, 400)}`));
        return;
      }
      if (typeof json.headline !== 'string' || json.headline.length === 0) reject(new Error(`the diagnosis of ${node} has no headline`));
      else resolve(json.headline);
    });
  });
}

/** `ctx`: { page, check, shot, demo (the stand-in, frozen), kubeconfig (the demo's) }. */
export async function runTimelineCheck({ page, check, shot, demo, kubeconfig, refreshAtRisk }) {
  const node = TIMELINE_DEMO_NODE;
  await check(`(11a) Open PLEG Timeline on the demo's ${node} (context menu): live through the API server, headed by the node's state, every lane drawn, prediction and lacks in words`, async () => {
    await runPaletteCommand(page, 'View: Close All Editors');
    await openTimeline(page, node, { via: 'contextMenu' });
    // The kubelet is scraped every 5 s: the health lane has its first stamp after the first scrape.
    await waitForTimeline(page, node, (s) => s.verdict !== '' && s.legend.includes('kubeletAge') && s.lanePixels.length >= 3 && s.lanePixels.slice(0, 3).every((n) => n > 100), { timeoutMs: 40_000 });
    // The first scrape is taken at once, the next 5 s later: wait for it, so the chart (and the README
    // shot) spans more than the first instant and the kubelet's age is a line, not a point.
    await sleep(6_000);
    const state = await readTimeline(page, node);
    assert(state, `the timeline of ${node} is gone`);
    assert(state.label.startsWith('Live — '), `the panel does not say it is live: "${state.label}"`);
    assert(state.label.includes('through the API server'), `the panel does not say it runs through the API server: "${state.label}"`);
    assert(state.verdict === 'pleg', `the headline's verdict is "${state.verdict}", not pleg: "${state.headline}"`);
    assert(state.headline.startsWith('PLEG is not healthy — now'), `the headline does not state the node's state now: "${state.headline}"`);
    // The way was chosen (liveSourceWay.ts): no agent pod on the demo's node, no SSH entry for its context.
    assert(
      state.lacks.some((l) => l.startsWith('No node access (') && l.includes('no agent (') && l.includes('no SSH (context "prod-eu" has no entry in plegDoctor.nodeAccess.clusters)')),
      `the lacks do not say there is neither an agent nor SSH: ${JSON.stringify(state.lacks)}`,
    );
    assert(!state.lacks.some((l) => /no kubelet/i.test(l)), `the lacks say "no kubelet" although the kubelet's metrics are read: ${JSON.stringify(state.lacks)}`);
    assert(/^PLEG is unhealthy since /.test(state.prediction), `the prediction does not say PLEG is unhealthy: "${state.prediction}"`);
    // The workbench sets plegDoctor.timeline.thresholdMs to 10 s for the live check on the node stack; that
    // is the model's threshold, and no model runs here: the kubelet's own 3-minute threshold is stated.
    assert(/threshold 3m0s/.test(state.prediction), `the prediction does not state the kubelet's threshold (3m0s): "${state.prediction}"`);
    assert(state.feed === 'Receiving', `the feed state is "${state.feed}"`);
    for (const key of ['threshold', 'kubeletAge', 'unhealthy', 'predicted', 'readyFalse']) assert(state.legend.includes(key), `the legend has no "${key}" entry: ${state.legend.join(', ')}`);
    // No relists without SSH: nothing in the legend for them, and no pod events.
    for (const key of ['health', 'duration', 'started']) assert(!state.legend.includes(key), `the legend lists "${key}", which this session does not draw: ${state.legend.join(', ')}`);
    assert(state.mainPixels > 500, `the main chart has only ${state.mainPixels} drawn pixels`);
    await sleep(300);
    await shot('11a-timeline-demo');
    await panelShot(page, shot, 'timeline-demo');
    return `${state.title}: "${state.headline.slice(0, 120)}"; ${state.label}; prediction "${state.prediction.slice(0, 100)}"; lanes ${state.lanePixels.join('/')}; legend ${state.legend.join(', ')}`;
  });

  await check(`(11b) Open PLEG Timeline on ${node} again (palette): the same panel is focused, no second one`, async () => {
    await openTimeline(page, node, { via: 'palette' });
    await sleep(1_000);
    const tabs = (await readEditorTabs(page)).map((t) => t.label);
    const mine = tabs.filter((l) => l === `PLEG Timeline: ${node}`);
    assert(mine.length === 1, `there are ${mine.length} "PLEG Timeline: ${node}" editor tabs: ${tabs.join(', ')}`);
    const state = await readTimeline(page, node);
    assert(state?.frames === 1, `${state?.frames ?? 0} webview frames show the timeline of ${node}`);
    return `tabs: ${tabs.join(', ')}`;
  });

  await check(`(11d) a drag-zoom on the timeline of ${node}: the lane bars stay inside the plot, off their labels and the right axis`, async () => {
    const frame = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    const over = frame.locator('#lanes-chart .u-over');
    const box = await over.boundingBox();
    assert(box, 'the lanes chart has no plot area');
    await page.mouse.move(box.x + box.width * 0.35, box.y + 8);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.65, box.y + 8, { steps: 8 });
    await page.mouse.up();
    const state = await waitForTimeline(page, node, (s) => s.lanePixelsOutsidePlot >= 0, { timeoutMs: 5_000 });
    assert(state.lanePixelsOutsidePlot === 0, `${state.lanePixelsOutsidePlot} lane bar pixels are drawn outside the plot after the zoom`);
    assert(state.lanePixels.slice(0, 3).every((n) => n > 100), `the zoomed lanes are not drawn inside the plot: ${state.lanePixels.join(', ')}`);
    await shot('11d-timeline-zoomed');
    await runPaletteCommand(page, 'View: Close All Editors');
    return `lanes inside the plot after the zoom: ${state.lanePixels.slice(0, 3).join('/')} px, outside: 0`;
  });

  await check(`(11c) for every demo node (prod-eu and staging), the tree's verdict, the report's headline and the timeline's headline agree; for ${AT_RISK_NODE}, at risk, they predict the same NotReady instant`, async () => {
    assert(demo && kubeconfig, 'the check needs the demo and its kubeconfig');
    let rows = await readTreeRows(page);
    const lines = [];
    const wrong = [];
    const dismissed = [];
    for (const { spec } of demo.contexts) {
      for (const { name } of spec.nodes) {
        // The node at risk afresh (PLEGAtRisk just written), so its countdown runs while the three are read.
        let treeAt = Date.now();
        if (name === AT_RISK_NODE && refreshAtRisk) {
          // The row shows the fresh condition once its countdown is back up (it only falls otherwise).
          rows = await readTreeRows(page);
          const before = countdownSeconds(rows.find((r) => r.label === name)?.description) ?? -1;
          refreshAtRisk();
          for (let i = 0; i < 50 && !((countdownSeconds(rows.find((r) => r.label === name)?.description) ?? -1) > before); i++) {
            await sleep(200);
            rows = await readTreeRows(page);
          }
          treeAt = Date.now();
        }
        const description = rows.find((r) => r.label === name)?.description ?? '';
        const tree = TREE_WORDS.find(([re]) => re.test(description))?.[1] ?? `(no verdict in "${description}")`;
        // The CLI's diagnosis runs while the timeline opens: two processes, half the wall time.
        const reportFrom = Date.now();
        let reportAt = reportFrom;
        const report = reportHeadline(kubeconfig, spec.context, name).then((h) => {
          reportAt = (reportFrom + Date.now()) / 2;
          return h;
        });
        report.catch(() => undefined);
        await runPaletteCommand(page, 'View: Close All Editors');
        await openTimeline(page, name, { via: 'palette' });
        const state = await waitForTimeline(page, name, (s) => s.verdict !== '', { timeoutMs: 20_000 });
        // staging has a node access entry here (check 6's, for the node stack): its timelines also try SSH to
        // the demo's made-up addresses. That must never stand in the headline's way; a prompt it raises (none
        // is expected: no SSH server answers there) is declined, not answered, so check (6) still meets its first.
        dismissed.push(...(await declinePrompts(page, name)));
        const headline = await report;
        const verdict = reportVerdict(headline);
        const timelineAt = Date.now();
        let line = `${spec.context}/${name}: tree ${tree} ("${description}"), report ${verdict} ("${headline.slice(0, 60)}"), timeline ${state.verdict} ("${state.headline.slice(0, 60)}")`;
        if (name === AT_RISK_NODE) {
          // One fact, three surfaces: each countdown, added to when it was read, names the same instant (within
          // half the report's run, the timeline's update period of a kubelet scrape, and a second's rounding).
          const due = [
            [treeAt, countdownSeconds(description)],
            [reportAt, countdownSeconds(headline)],
            [timelineAt, countdownSeconds(state.headline)],
          ].map(([at, left]) => (left === undefined ? Number.NaN : at + left * 1000));
          const spread = (Math.max(...due) - Math.min(...due)) / 1000;
          line += `; predicted NotReady instants within ${spread.toFixed(1)} s`;
          if (tree !== 'pleg-at-risk' || !(spread <= 10)) wrong.push(`${line} (expected pleg-at-risk on all three, each with a "NotReady in ~…" countdown naming one instant)`);
        }
        lines.push(line);
        if (tree !== verdict || tree !== state.verdict) wrong.push(line);
      }
    }
    await runPaletteCommand(page, 'View: Close All Editors');
    const total = demo.contexts.reduce((n, c) => n + c.spec.nodes.length, 0);
    assert(lines.length === total && total >= 17, `${lines.length} of ${total} demo nodes compared`);
    assert(wrong.length === 0, `the surfaces disagree:\n${wrong.join('\n')}`);
    return [`${lines.length} nodes${dismissed.length > 0 ? `; declined: ${dismissed.join('; ')}` : ''}`, ...lines].join('\n');
  });
}

/** Declines a host-key modal or passphrase box a timeline raised (named in the result); [] when none shows. */
async function declinePrompts(page, node) {
  const declined = [];
  const modal = await readModal(page);
  if (modal) {
    declined.push(`${node}: modal "${modal.message}"`);
    await page.keyboard.press('Escape');
  }
  const quick = await readQuickInput(page);
  if (quick && /passphrase/i.test(`${quick.title} ${quick.message} ${quick.placeholder}`)) {
    declined.push(`${node}: passphrase box`);
    await page.keyboard.press('Escape');
  }
  return declined;
}
