/* global document, window */
// Debian Chromium driven by playwright-core against the code-server workbench, plus readers for the
// tree view that run inside the page (so one poll is one round trip).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { CHROMIUM, REPO } from './tools.mjs';

const require = createRequire(join(REPO, 'package.json'));

export async function launchBrowser(profileDir) {
  const { chromium } = require('playwright-core');
  // Playwright rejects --user-data-dir in args: the persistent context takes the profile dir instead.
  const context = await chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // Containers often give /dev/shm 64 MB, which crashes Chromium's renderer.
      '--disable-dev-shm-usage'],
    timeout: 60_000,
    // Our own handlers stop code-server and remove the run dir first; Playwright's would exit before that.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page };
}

export async function openWorkbench(page, url) {
  await page.goto(url, { timeout: 90_000, waitUntil: 'domcontentloaded' });
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.part.activitybar').waitFor({ timeout: 60_000 });
}

/**
 * Every visible tree row in the side bar, in screen order: label, description, aria-label, level,
 * expanded ('true' | 'false' | null). Runs in the page.
 */
export function readTreeRows(page) {
  return page.evaluate(() => {
    const rows = [...document.querySelectorAll('.part.sidebar .monaco-list-row[role="treeitem"]')].filter((r) => r.getClientRects().length > 0);
    return rows
      .map((r) => ({
        top: r.getBoundingClientRect().top,
        label: r.querySelector('.label-name')?.textContent?.trim() ?? '',
        description: r.querySelector('.label-description')?.textContent?.trim() ?? '',
        aria: r.getAttribute('aria-label') ?? '',
        level: Number(r.getAttribute('aria-level') ?? '0'),
        expanded: r.getAttribute('aria-expanded'),
      }))
      .sort((a, b) => a.top - b.top)
      .map((r) => ({ label: r.label, description: r.description, aria: r.aria, level: r.level, expanded: r.expanded }));
  });
}

/** The visible row whose label is exactly `label`. */
export function rowLocator(page, label) {
  return page
    .locator('.part.sidebar .monaco-list-row[role="treeitem"]')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^\\s*${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) }) });
}

/**
 * Waits, polling every `pollMs` inside the page, until the row labelled `label` has a description
 * matching `pattern`. Resolves with the page's wall-clock time when the match was first seen and the
 * description, so the caller can measure latency from its own Date.now() without the round trip.
 */
export async function waitForDescription(page, label, pattern, { timeoutMs, pollMs = 50 }) {
  const handle = await page.waitForFunction(
    ({ label: wanted, source, flags }) => {
      const re = new RegExp(source, flags);
      for (const r of document.querySelectorAll('.part.sidebar .monaco-list-row[role="treeitem"]')) {
        if (r.querySelector('.label-name')?.textContent?.trim() !== wanted) continue;
        const d = r.querySelector('.label-description')?.textContent?.trim() ?? '';
        if (re.test(d)) return { seenAt: window.performance.timeOrigin + window.performance.now(), description: d };
      }
      return false;
    },
    { label, source: pattern.source, flags: pattern.flags },
    { polling: pollMs, timeout: timeoutMs },
  );
  return handle.jsonValue();
}

/** Text of the visible hover widget(s), '' when none is shown. */
export function readHover(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.workbench-hover, .monaco-hover')]
      .filter((h) => h.getClientRects().length > 0 && !h.classList.contains('hidden'))
      .map((h) => h.textContent ?? '')
      .join('\n')
      .trim(),
  );
}

/** Drags the side bar's sash so long node names and descriptions fit (nicer screenshots, fewer ellipses). */
export async function widenSidebar(page, width = 620) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box || box.width >= width) return;
  const x = box.x + box.width + 1;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 8 });
  await page.mouse.up();
  await page.mouse.move(5, 5);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Expands the top-level (context) rows that are collapsed, until none is left or `timeoutMs` passes. */
export async function expandContexts(page, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const collapsed = (await readTreeRows(page)).filter((r) => r.level === 1 && r.expanded === 'false');
    if (collapsed.length === 0) return;
    for (const r of collapsed) {
      const row = rowLocator(page, r.label).first();
      await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 }).catch(() => row.click({ timeout: 5_000 }));
    }
    await sleep(300);
  }
}

/**
 * The row of `name` once its description matches `pattern`, or as it is at the deadline (undefined if it
 * is absent). Opens the PLEG Doctor view when no row shows (at startup, or after an earlier step reloaded
 * the window) and expands collapsed contexts.
 */
export async function findRow(page, name, pattern, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const anyRow = await page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').first().isVisible().catch(() => false);
    // Only a tab that is not selected: clicking the selected one hides the side bar.
    const tab = page.getByRole('tab', { name: /PLEG Doctor/i }).first();
    if (!anyRow && (await tab.getAttribute('aria-selected', { timeout: 10_000 }).catch(() => undefined)) !== 'true') await tab.click({ timeout: 10_000 }).catch(() => undefined);
    await expandContexts(page, 3_000);
    const row = (await readTreeRows(page)).find((r) => r.label === name);
    if ((row && pattern.test(row.description)) || Date.now() > deadline) return row;
    await sleep(1_000);
  }
}

/**
 * Points at the row labelled `label` and reads its hover until `accept(text)` holds or `timeoutMs` passes;
 * returns the last text read. A live update can redraw the row under the pointer, and the hover is then
 * gone for good (seen under load: hover text ""): it points at the row again after 2.5 s without one.
 */
export async function hoverRow(page, label, accept, timeoutMs = 10_000) {
  const point = async () => {
    await page.mouse.move(5, 5);
    await rowLocator(page, label).first().locator('.label-name').hover({ timeout: 10_000 });
  };
  await point();
  let pointedAt = Date.now();
  const deadline = pointedAt + timeoutMs;
  let hover = '';
  while (Date.now() < deadline && !accept(hover)) {
    await sleep(200);
    hover = await readHover(page);
    if (hover === '' && Date.now() - pointedAt > 2_500) {
      await point();
      pointedAt = Date.now();
    }
  }
  return hover;
}
