/* global document, window */
// Check (11): the PLEG timeline panel in the real workbench. The demo's PLEG node has no SSH and no
// kubelet, so its timeline is a replay of a simulated session: opened from the node's context menu it
// must say so ("Replay, not live"), state the prediction and what the session lacks in words, and draw
// both charts (every lane has pixels). Opening the same node again from the palette must focus that
// panel, not make a second one. The helpers (openTimeline, readTimeline) take any node, so the live check
// on the real node stack can reuse them: open, then poll readTimeline until the state it wants shows.
import { fillQuickInput, pickContextMenuItem, readEditorTabs, runPaletteCommand, waitForQuickInput, describePrompts } from './prompts.mjs';
import { rowLocator } from './workbench.mjs';

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
 * What the timeline page of `node` shows, read inside its frame: title, source label, prediction, lacks,
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
        return {
          title,
          label: text('#session-label'),
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

export async function runTimelineCheck({ page, check, shot }) {
  const node = TIMELINE_DEMO_NODE;
  await check(`(11a) Open PLEG Timeline on the demo's ${node} (context menu): a replay, labelled so, every lane drawn, prediction and lacks in words`, async () => {
    await runPaletteCommand(page, 'View: Close All Editors');
    await openTimeline(page, node, { via: 'contextMenu' });
    const state = await waitForTimeline(page, node, (s) => s.mainPixels > 0 && s.lanePixels.length > 0 && s.legend.length > 0, { timeoutMs: 30_000 });
    assert(state.label.startsWith('Replay, not live'), `the panel does not say it is a replay: "${state.label}"`);
    assert(state.lacks.some((l) => l.includes('built-in demo')), `the lacks do not say this is the demo's simulated session: ${JSON.stringify(state.lacks)}`);
    assert(state.prediction.length > 0, 'the panel states no prediction');
    assert(state.feed === 'Recording: complete', `the feed state is "${state.feed}"`);
    for (const key of ['health', 'threshold', 'duration', 'unhealthy', 'predicted', 'readyFalse']) assert(state.legend.includes(key), `the legend has no "${key}" entry: ${state.legend.join(', ')}`);
    // The health, predicted NotReady and Ready lanes are drawn; the simulator names no pods, so no pod lanes.
    assert(state.lanePixels.length >= 3 && state.lanePixels.slice(0, 3).every((n) => n > 100), `the health / predicted / Ready lanes are not all drawn: ${state.lanePixels.join(', ')}`);
    assert(state.mainPixels > 2_000, `the main chart has only ${state.mainPixels} drawn pixels`);
    await sleep(300);
    await shot('11a-timeline-demo');
    await panelShot(page, shot, 'timeline-demo');
    return `${state.title}: ${state.label}; prediction "${state.prediction}"; lanes ${state.lanePixels.join('/')}; legend ${state.legend.join(', ')}`;
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
}
