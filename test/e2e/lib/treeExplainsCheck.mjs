/* global document */
// "The tree explains" (issue 9, item 3) in the real workbench: the status bar item is there before the
// view is opened and names the nodes in its tooltip; the PLEG node's expanded Ready row carries the
// kubelet's message; its event rows carry message, count and age; the flapping demo node counts its flaps
// from its events; and the flip of staging-node-02 (check 3) is a "verdict …" line in the PLEG Doctor log.
import { readHover, readTreeRows, rowLocator } from './workbench.mjs';
import { runPaletteCommand } from './prompts.mjs';

export const EXPLAIN_NODE = 'prod-eu-node-07';
export const FLAPPING_NODE = 'prod-eu-node-05';
const FLIPPED = { context: 'staging', node: 'staging-node-02' };
/** The side bar and the tooltip, without the empty editor: what the README shows. */
const README_CLIP = { x: 0, y: 0, width: 900, height: 560 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** The PLEG Doctor status bar item (its text is the only one saying "NotReady" or "nodes Ready"). */
function statusItem(page) {
  return page.locator('.part.statusbar .statusbar-item').filter({ hasText: /NotReady|nodes? .*Ready|PLEG/ }).first();
}

async function readStatusText(page) {
  return ((await statusItem(page).textContent({ timeout: 5_000 })) ?? '').replace(/\s+/g, ' ').trim();
}

/** Polls until `fn` returns a truthy value or `timeoutMs` passes; returns the last value. */
async function poll(fn, timeoutMs, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let value;
  while (Date.now() < deadline) {
    value = await fn();
    if (value) return value;
    await sleep(everyMs);
  }
  return value;
}

/** Clicks the twistie of the row labelled `label` (the `nth` such row) when it is collapsed. */
async function expand(page, label, nth = 0) {
  const row = rowLocator(page, label).nth(nth);
  if ((await row.getAttribute('aria-expanded')) === 'true') return;
  await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 });
}

async function collapse(page, label) {
  const row = rowLocator(page, label).first();
  if ((await row.getAttribute('aria-expanded')) === 'true') await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 }).catch(() => undefined);
}

/** The rows below `label` (deeper than it), until the next row at its level or above. */
function childrenOf(rows, label) {
  const i = rows.findIndex((r) => r.label === label);
  if (i < 0) return [];
  const out = [];
  for (const r of rows.slice(i + 1)) {
    if (r.level <= rows[i].level) break;
    out.push(r);
  }
  return out;
}

/**
 * Before the view is first opened: the item must already be in the status bar (the extension activates
 * on startup, not on the view). Call right after the workbench is visible.
 */
export async function runStatusBarAtStartupCheck({ page, check, startupTimeoutMs }) {
  await check('(9a) the status bar item is there at startup, before the PLEG Doctor view is opened', async () => {
    const viewOpen = await page.locator('.part.sidebar .monaco-list-row[role="treeitem"] .label-name', { hasText: EXPLAIN_NODE }).count();
    assert(viewOpen === 0, 'the PLEG Doctor view is already showing nodes; this check must run before it is opened');
    await statusItem(page).waitFor({ timeout: startupTimeoutMs });
    const text = await poll(async () => {
      const t = await readStatusText(page);
      return /NotReady/.test(t) ? t : '';
    }, 30_000);
    assert(/\bNotReady\b/.test(text ?? ''), `the status bar item says "${text}" before the view was opened; expected the NotReady count of the demo`);
    return `"${text}" with the view never opened`;
  });
}

/** `ctx`: { page, check, shot, log }. Run after check (3) (the flip of staging-node-02). */
export async function runTreeExplainsChecks({ page, check, shot, log }) {
  await check(`(9b) the expanded Ready row of ${EXPLAIN_NODE} shows the kubelet's PLEG message`, async () => {
    await page.mouse.move(5, 5);
    await expand(page, EXPLAIN_NODE);
    const ready = await poll(async () => childrenOf(await readTreeRows(page), EXPLAIN_NODE).find((r) => r.label === 'Ready'), 10_000);
    assert(ready, `no "Ready" row under ${EXPLAIN_NODE} after expanding it; rows: ${(await readTreeRows(page)).map((r) => `${r.label} | ${r.description}`).join('; ')}`);
    assert(
      /^False · PLEG is not healthy: pleg was last seen active \S+ ago; threshold is 3m0s$/.test(ready.description),
      `the Ready row of ${EXPLAIN_NODE} says "${ready.description}", expected "False · PLEG is not healthy: pleg was last seen active … ago; threshold is 3m0s"`,
    );
    return `Ready | ${ready.description}`;
  });

  await check(`(9c) the events of ${EXPLAIN_NODE} show message, count and age; ${FLAPPING_NODE} counts its flaps`, async () => {
    await expand(page, 'Recent events');
    const event = await poll(async () => childrenOf(await readTreeRows(page), 'Recent events').find((r) => r.label === 'NodeNotReady'), 15_000);
    assert(event, `no NodeNotReady row under "Recent events" of ${EXPLAIN_NODE}; rows: ${childrenOf(await readTreeRows(page), 'Recent events').map((r) => `${r.label} | ${r.description}`).join('; ') || 'none'}`);
    const wanted = new RegExp(`^\\d+[smhd] ago · (×\\d+ · )?Node ${EXPLAIN_NODE} status is now: NodeNotReady$`);
    assert(wanted.test(event.description), `the NodeNotReady row says "${event.description}", expected "<age> ago · Node ${EXPLAIN_NODE} status is now: NodeNotReady"`);
    const flapper = await poll(async () => {
      const row = (await readTreeRows(page)).find((r) => r.label === FLAPPING_NODE);
      return row && /\b\d+ flaps$/.test(row.description) ? row : undefined;
    }, 15_000);
    const flapRow = flapper ?? (await readTreeRows(page)).find((r) => r.label === FLAPPING_NODE);
    await sleep(300);
    await shot('tree-explains');
    await shot('nodes-tree-expanded', README_CLIP);
    assert(flapper, `${FLAPPING_NODE} says "${flapRow?.description ?? '(absent)'}", expected "… N flaps" from its NodeNotReady events`);
    const count = Number(/(\d+) flaps$/.exec(flapper.description)[1]);
    assert(count >= 3, `${FLAPPING_NODE} flapped ${count}× in 30 min by its description; the demo script has it go NotReady every ~6 min`);
    return `event "${event.label} | ${event.description}"; ${FLAPPING_NODE}: "${flapper.description}"`;
  });
  await collapse(page, EXPLAIN_NODE);

  await check('(9d) the status bar counts the NotReady nodes of the tree, says how many are PLEG and how many Ready nodes are at risk, and names them in its tooltip', async () => {
    const rows = await readTreeRows(page);
    const nodeRows = rows.filter((r) => r.level === 2 && /-node-\d+$/.test(r.label));
    // "PLEG at risk · …" rows are Ready nodes (node-problem-detector's PLEGAtRisk): counted apart, "n at risk".
    const atRisk = nodeRows.filter((r) => /^PLEG at risk\b/.test(r.description));
    const notReady = nodeRows.filter((r) => !/^Ready\b/.test(r.description) && !atRisk.includes(r));
    const pleg = notReady.filter((r) => /^PLEG\b/.test(r.description));
    const text = await poll(async () => {
      const t = await readStatusText(page);
      const m = /(\d+) nodes? NotReady(?:, (\d+|none) PLEG| \(PLEG\))/.exec(t);
      return m && Number(m[1]) === notReady.length ? t : '';
    }, 10_000);
    assert(text, `the status bar says "${await readStatusText(page)}"; the tree has ${notReady.length} NotReady nodes (${notReady.map((r) => r.label).join(', ')}), ${pleg.length} of them PLEG`);
    const expected = `${pleg.length === notReady.length ? `${notReady.length} nodes NotReady (PLEG)` : `${notReady.length} nodes NotReady, ${pleg.length === 0 ? 'none' : pleg.length} PLEG`}${atRisk.length > 0 ? `, ${atRisk.length} at risk` : ''}`;
    assert(text.endsWith(expected), `the status bar says "${text}", expected "${expected}"`);
    await page.mouse.move(5, 5);
    await statusItem(page).hover();
    const hover = await poll(async () => {
      const h = await readHover(page);
      return h.includes('PLEG not healthy') ? h : '';
    }, 10_000);
    await shot('status-bar-tooltip');
    assert(hover, `no tooltip naming the PLEG nodes over the status bar item (hover text: "${(await readHover(page)).slice(0, 300)}")`);
    const missing = [`${EXPLAIN_NODE} in prod-eu`, `${FLIPPED.node} in ${FLIPPED.context}`, 'prod-eu-node-11 in prod-eu (No heartbeat)', ...atRisk.map((r) => `PLEG at risk (NotReady predicted): ${r.label} in prod-eu`)].filter((n) => !hover.includes(n));
    assert(missing.length === 0, `the status bar tooltip does not name ${missing.join(', ')}: "${hover.slice(0, 600)}"`);
    await page.mouse.move(5, 5);
    return `"${text}"; tooltip: ${hover.split('\n').slice(0, 2).join(' / ').slice(0, 300)}`;
  });

  await check(`(9e) the flip of ${FLIPPED.node} is a verdict line in the PLEG Doctor log`, async () => {
    await runPaletteCommand(page, 'PLEG Doctor: Show Log');
    const editor = page.locator('.part.panel .monaco-editor .view-lines').first();
    await editor.waitFor({ timeout: 15_000 });
    const wanted = new RegExp(`verdict ${FLIPPED.context}/${FLIPPED.node}: Ready → PLEG \\(Ready=False\\) PLEG is not healthy: pleg was last seen active \\S+ ago; threshold is 3m0s`);
    const firstSeen = `verdict prod-eu/${EXPLAIN_NODE}: (first seen) → PLEG`;
    // The Output view's own filter keeps only the verdict lines, so they are on screen whatever else was logged.
    const filter = page.locator('.part.panel input[placeholder^="Filter"]').first();
    await filter.fill('verdict ', { timeout: 5_000 }).catch((err) => log(`output filter: ${err.message}`));
    const visibleText = () =>
      page.evaluate(() => {
        const ed = [...document.querySelectorAll('.part.panel .monaco-editor')].find((e) => e.getClientRects().length > 0);
        if (!ed) return '';
        // Wrapped lines are separate view lines: join them, then compare without line breaks.
        return [...ed.querySelectorAll('.view-lines .view-line')]
          .map((l) => ({ top: l.getBoundingClientRect().top, text: (l.textContent ?? '').replaceAll('\u00a0', ' ') }))
          .sort((a, b) => a.top - b.top)
          .map((l) => l.text)
          .join('');
      });
    const flat = (text) => text.replace(/\s+/g, '');
    const has = (text, pattern) => new RegExp(flat(pattern.source)).test(flat(text));
    const text = await poll(async () => {
      const shown = await visibleText();
      return has(shown, wanted) && flat(shown).includes(flat(firstSeen)) ? shown : '';
    }, 10_000, 500);
    await shot('pleg-doctor-log');
    const shown = text || (await visibleText());
    await filter.fill('', { timeout: 5_000 }).catch(() => undefined);
    await runPaletteCommand(page, 'View: Hide Panel').catch((err) => log(`hiding the panel: ${err.message}`));
    // The later checks want the editor area as they left it: make sure the panel is gone.
    if (await page.locator('.part.panel').isVisible().catch(() => false)) {
      await page.keyboard.press('Escape');
      await page.locator('.part.panel .action-label[aria-label^="Hide Panel"], .part.panel .action-label[aria-label^="Close Panel"]').first().click({ timeout: 3_000 }).catch((err) => log(`hiding the panel: ${err.message}`));
    }
    assert(has(shown, wanted), `no line matching ${wanted} in the PLEG Doctor log (filtered on "verdict"); shown: "${shown.slice(0, 800)}"`);
    assert(flat(shown).includes(flat(firstSeen)), `no "${firstSeen}" line in the PLEG Doctor log (filtered on "verdict"); shown: "${shown.slice(0, 800)}"`);
    const line = wanted.exec(shown.replace(/\s+/g, ' '))?.[0] ?? wanted.source;
    return line.slice(0, 240);
  });
  await page.evaluate(() => document.activeElement?.blur?.()).catch(() => undefined);
}
