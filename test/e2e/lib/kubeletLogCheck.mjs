/* global document */
// (11) The kubelet-log language in the real workbench: the real kubelet 1.32 recording, copied into the
// workspace as kubelet-runtime-stopped.log, opens as "Kubelet Log"; the language server's PLEG stretch
// reaches the Problems view, the incident timeline the Outline, and the summary lens sits on line 1.
// Afterwards the PLEG Doctor view is shown again and the editors closed: the checks after this one start
// from the tree.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './tools.mjs';
import { openQuickInput, runPaletteCommand } from './prompts.mjs';

const FILE = 'kubelet-runtime-stopped.log';
// From test/unit/core/parse/logReader.test.ts: one stretch, lines 3227–3748, 03:03:46 → 03:05:41.
const STRETCH = 'PLEG unhealthy for 115 s (03:03:46 → 03:05:41, 24 lines)';
const LENS = 'PLEG unhealthy 03:03:46 → 03:05:41: 1 stretch, 115 s in total';
const OUTLINE_ENTRY = '03:03:46 PLEG unhealthy for 115 s';

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

async function poll(read, ok, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await read();
    if (ok(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} within ${timeoutMs} ms; last seen: ${JSON.stringify(last).slice(0, 600)}`);
}

const visibleTexts = (page, selector) =>
  page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length > 0).map((e) => (e.textContent ?? '').trim()), selector);

/** The PLEG Doctor view in the side bar again (the Outline took it), its tree rows shown, no editor open. */
export async function backToTree(page) {
  await runPaletteCommand(page, 'View: Close All Editors');
  const tab = page.getByRole('tab', { name: /PLEG Doctor/i }).first();
  if ((await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
  await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').first().waitFor({ timeout: 30_000 });
}

export async function runKubeletLogCheck({ page, check, shot, workspace }) {
  try {
    await checkKubeletLog({ page, check, shot, workspace });
  } finally {
    await backToTree(page).catch(() => undefined);
  }
}

async function checkKubeletLog({ page, check, shot, workspace }) {
  await check('(11) a real kubelet log opens as Kubelet Log: the PLEG stretch in Problems, the timeline in Outline, the summary lens', async () => {
    copyFileSync(join(REPO, 'test/fixtures/real-kubelet-1.32', FILE), join(workspace, FILE));
    await runPaletteCommand(page, 'View: Close All Editors');
    // Without the ">" the quick input searches files (quick open).
    await openQuickInput(page, FILE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: FILE }).first().waitFor({ timeout: 30_000 });
    await page.keyboard.press('Enter');

    const mode = await poll(() => visibleTexts(page, '.statusbar-item'), (items) => items.some((t) => t === 'Kubelet Log'), 30_000, 'the status bar shows no "Kubelet Log" language mode');
    const lens = await poll(() => visibleTexts(page, '.codelens-decoration'), (items) => items.some((t) => t.startsWith(LENS)), 60_000, `no code lens starting "${LENS}"`);

    await runPaletteCommand(page, 'View: Focus Problems');
    // A filter active in the Problems view hides every row (seen once in CI: "Showing 0 of 10", the
    // diagnostics there): the view's own "Clear Filters" link, shown only then, clears it.
    const rowsShown = async () => {
      const clear = page.locator('.markers-panel-container').getByText('Clear Filters', { exact: true });
      if (await clear.isVisible().catch(() => false)) await clear.click().catch(() => undefined);
      return visibleTexts(page, '.markers-panel .monaco-list-row');
    };
    const problems = await poll(rowsShown, (rows) => rows.some((r) => r.includes(STRETCH)), 30_000, `no problem "${STRETCH}"`);

    await runPaletteCommand(page, 'Explorer: Focus on Outline View');
    // The folder section above the Outline takes most of the side bar: fold it, so the timeline has room.
    const folder = page.locator('.part.sidebar .pane-header[aria-expanded="true"]', { hasText: /^\s*ws\b/ }).first();
    if (await folder.isVisible().catch(() => false)) await folder.click().catch(() => undefined);
    // The outline is a virtual list: only rows in view exist, and the incident timeline is longer than the
    // pane. Scroll it down (wheel over the pane, as a person would) until the stretch's entry shows.
    const outlineRows = '.outline-pane .monaco-list-row, .part.sidebar .monaco-list-row';
    const outline = await poll(
      async () => {
        const rows = await visibleTexts(page, outlineRows);
        if (!rows.some((r) => r.includes(OUTLINE_ENTRY))) {
          // An outline entry starts with its clock; the Explorer's rows above it (the file) do not.
          const entry = page.locator(outlineRows).filter({ hasText: /^\s*\d\d:\d\d:\d\d / }).first();
          const box = await entry.boundingBox({ timeout: 2_000 }).catch(() => null);
          if (box) {
            await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
            await page.mouse.wheel(0, 8 * box.height);
          }
        }
        return rows;
      },
      (rows) => rows.some((r) => r.includes(OUTLINE_ENTRY)),
      30_000,
      `no outline entry "${OUTLINE_ENTRY}"`,
    );
    // No click on the entry: that would scroll the editor away from the summary lens on line 1.
    await shot('11-kubelet-log');
    await shot('kubelet-log', { x: 0, y: 0, width: 1400, height: 1000 });
    assert(mode.includes('Kubelet Log'), 'language mode');
    return `mode Kubelet Log; lens "${lens.find((t) => t.startsWith(LENS))}"; problem "${problems.find((r) => r.includes(STRETCH)).slice(0, 120)}"; outline "${outline.find((r) => r.includes(OUTLINE_ENTRY)).slice(0, 80)}"`;
  });
}
