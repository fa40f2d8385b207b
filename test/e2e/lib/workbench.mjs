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
