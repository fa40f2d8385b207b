/* global document, getComputedStyle */
// Readers and drivers for the workbench's own prompts, as the DOM of VS Code 1.139 (code-server) renders
// them: modal dialogs, the quick input (palette, quick picks, input boxes), notification toasts, editor
// tabs and context menus. The readers run inside the page and return plain data, so a poll is one round
// trip and a failure message can quote exactly what was on screen.

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The visible dialog, or undefined: { message, detail, buttons: string[], text, blocking (behind a modal block) }. */
export function readModal(page) {
  return page.evaluate(() => {
    const box = [...document.querySelectorAll('.monaco-dialog-box')].find((b) => b.getClientRects().length > 0);
    if (!box) return undefined;
    const text = (sel) => box.querySelector(sel)?.textContent?.trim() ?? '';
    return {
      message: text('.dialog-message-text'),
      detail: text('.dialog-message-detail'),
      buttons: [...box.querySelectorAll('.dialog-buttons .monaco-button')].map((b) => b.textContent?.trim() ?? ''),
      text: box.textContent?.trim() ?? '',
      blocking: box.closest('.monaco-dialog-modal-block') !== null,
    };
  });
}

/** Polls until a modal dialog is shown; rejects after `timeoutMs` naming what `describeState` reports. */
export async function waitForModal(page, { timeoutMs, describeState }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const modal = await readModal(page);
    if (modal) return modal;
    await sleep(150);
  }
  throw new Error(`no modal dialog within ${timeoutMs} ms${describeState ? `; on screen: ${await describeState()}` : ''}`);
}

/** Clicks the modal's button labelled exactly `label` and waits for the dialog to close. */
export async function clickModalButton(page, label) {
  const button = page.locator('.monaco-dialog-box .dialog-buttons .monaco-button').filter({ hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
  await button.first().click({ timeout: 5_000 });
  await page.locator('.monaco-dialog-box').first().waitFor({ state: 'hidden', timeout: 10_000 });
}

/** The visible quick input (palette, quick pick or input box), or undefined. */
export function readQuickInput(page) {
  return page.evaluate(() => {
    const w = [...document.querySelectorAll('.quick-input-widget')].find((e) => e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none');
    if (!w) return undefined;
    const input = w.querySelector('.quick-input-box input');
    return {
      title: w.querySelector('.quick-input-title')?.textContent?.trim() ?? '',
      message: w.querySelector('.quick-input-message')?.textContent?.trim() ?? '',
      placeholder: input?.getAttribute('placeholder') ?? '',
      ariaLabel: input?.getAttribute('aria-label') ?? '',
      inputType: input?.getAttribute('type') ?? '',
      items: [...w.querySelectorAll('.quick-input-list .monaco-list-row')].filter((r) => r.getClientRects().length > 0).map((r) => r.getAttribute('aria-label') ?? r.textContent?.trim() ?? ''),
    };
  });
}

export async function waitForQuickInput(page, { timeoutMs, match = () => true, describeState }) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await readQuickInput(page);
    if (last && match(last)) return last;
    await sleep(150);
  }
  throw new Error(`no matching quick input within ${timeoutMs} ms (last: ${JSON.stringify(last)})${describeState ? `; on screen: ${await describeState()}` : ''}`);
}

/**
 * Sets the text of the visible quick input. The workbench can keep more than one quick-input widget in
 * the DOM (a hidden one stays after another prompt), so the input is located inside the shown widget;
 * a fill that finds it busy (re-rendering between two pickers) is tried once more before it fails.
 */
export async function fillQuickInput(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input:visible').first();
  try {
    await input.fill(text, { timeout: 5_000 });
  } catch (first) {
    await sleep(500);
    await input.fill(text, { timeout: 5_000 }).catch(async (err) => {
      throw new Error(`could not type "${text}" into the quick input (${first.message.split('\n')[0]}; again: ${err.message.split('\n')[0]}); on screen: ${JSON.stringify(await readQuickInput(page))}`);
    });
  }
}

/** Types into the visible quick input, accepts it with Enter and waits until the widget has closed. */
export async function answerQuickInput(page, text) {
  await fillQuickInput(page, text);
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(async () => {
    throw new Error(`the input box is still open 5 s after Enter: ${JSON.stringify(await readQuickInput(page))}`);
  });
}

/**
 * Notification toasts on screen, newest first: { severity: 'error'|'warning'|'info'|'progress'|'?',
 * message, source, buttons }.
 */
export function readToasts(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.notifications-toasts .notification-toast-container')]
      .filter((t) => t.getClientRects().length > 0)
      .map((t) => {
        const icon = t.querySelector('.notification-list-item-icon');
        const cls = icon?.className ?? '';
        const progress = t.querySelector('.monaco-progress-container');
        const busy = progress && progress.getClientRects().length > 0 && !progress.classList.contains('done') && getComputedStyle(progress).display !== 'none';
        const severity = /codicon-error/.test(cls) ? 'error' : /codicon-warning/.test(cls) ? 'warning' : /codicon-info/.test(cls) ? (busy ? 'progress' : 'info') : busy ? 'progress' : '?';
        return {
          severity,
          message: t.querySelector('.notification-list-item-message')?.textContent?.trim() ?? '',
          source: t.querySelector('.notification-list-item-source')?.textContent?.trim() ?? '',
          buttons: [...t.querySelectorAll('.notification-list-item-buttons-container .monaco-button')].map((b) => b.textContent?.trim() ?? ''),
        };
      }),
  );
}

/** Polls until a toast whose message matches `pattern` (and `severity`, when given) shows. */
export async function waitForToast(page, pattern, { timeoutMs, severity, describeState }) {
  const deadline = Date.now() + timeoutMs;
  let toasts = [];
  while (Date.now() < deadline) {
    toasts = await readToasts(page);
    const hit = toasts.find((t) => pattern.test(t.message) && (!severity || t.severity === severity));
    if (hit) return hit;
    await sleep(150);
  }
  throw new Error(`no ${severity ?? ''} notification matching ${pattern} within ${timeoutMs} ms; toasts: ${JSON.stringify(toasts)}${describeState ? `; on screen: ${await describeState()}` : ''}`);
}

/**
 * Opens the quick input with F1 and types `text` into it: ">Title" runs commands, a bare file name
 * searches files (quick open). Typed through fillQuickInput, so a hidden widget left by an earlier
 * prompt is never the one filled.
 */
export async function openQuickInput(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input:visible').first();
  await page.keyboard.press('F1');
  await input.waitFor({ timeout: 15_000 });
  // A webview taking focus right after it opened can close the palette between its showing and the
  // typing (CI once: "could not type … on screen: undefined", just after a timeline panel opened): open
  // it again when it is gone before the typing, and once more if the typing failed with it gone.
  if (!(await input.isVisible())) {
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 15_000 });
  }
  await fillQuickInput(page, text).catch(async (err) => {
    if (await input.isVisible()) throw err;
    await page.keyboard.press('F1');
    await input.waitFor({ timeout: 15_000 });
    await fillQuickInput(page, text);
  });
}

/** Runs a palette command by its full title ("Category: Title"). */
export async function runPaletteCommand(page, title) {
  await openQuickInput(page, `>${title}`);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: title.split(': ').pop() }).first().waitFor({ timeout: 15_000 });
  // Fuzzy matching also lists longer commands ("Diagnose All NotReady Nodes" for "Diagnose Node"), and the
  // first row is not always the one asked for: move to the row labelled exactly with the title, by
  // keyboard as a person would, when there is one (VS Code's own commands may sit under another category).
  const index = await page.evaluate((wanted) => {
    for (const row of document.querySelectorAll('.quick-input-list .monaco-list-row')) {
      if (row.querySelector('.label-name')?.textContent?.trim() === wanted) return Number(row.getAttribute('data-index') ?? '0');
    }
    return 0;
  }, title);
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
}

/** Dismisses every notification (the built-in command), so the next toast read is about the next action. */
export async function clearNotifications(page) {
  await runPaletteCommand(page, 'Notifications: Clear All Notifications');
  await page.locator('.notifications-toasts .notification-toast-container').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
}

/** Labels of the open editor tabs, with which one is active. */
export function readEditorTabs(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.part.editor .tabs-container .tab')].map((t) => ({
      label: t.querySelector('.label-name')?.textContent?.trim() ?? t.getAttribute('aria-label') ?? '',
      title: t.getAttribute('title') ?? '',
      aria: t.getAttribute('aria-label') ?? '',
      active: t.classList.contains('active'),
    })),
  );
}

/** The text of the visible lines of the active editor, top to bottom (Monaco renders only those). */
export function readActiveEditorLines(page) {
  return page.evaluate(() => {
    const editor = [...document.querySelectorAll('.part.editor .editor-instance .monaco-editor')].find((e) => e.getClientRects().length > 0);
    if (!editor) return [];
    return [...editor.querySelectorAll('.view-lines .view-line')]
      .map((l) => ({ top: l.getBoundingClientRect().top, text: (l.textContent ?? '').replaceAll('\u00a0', ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text);
  });
}

/**
 * The whole text of the active editor: Monaco renders only the visible lines, so select all and copy, then
 * read the clipboard (the page is http://127.0.0.1, a secure context; the permission is granted here).
 */
export async function readActiveEditorText(page) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  const editor = page.locator('.part.editor .editor-instance .monaco-editor .view-lines').first();
  await editor.click({ timeout: 5_000 });
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  await sleep(200);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  await page.keyboard.press('Control+Home');
  return text;
}

/** Right-clicks `target` and picks the context-menu entry labelled `label`. */
export async function pickContextMenuItem(page, target, label) {
  await target.click({ button: 'right', timeout: 5_000 });
  const item = page.locator('.context-view .monaco-menu .action-item .action-label', { hasText: new RegExp(`^\\s*${escapeRegExp(label)}\\s*$`) });
  try {
    await item.first().waitFor({ timeout: 5_000 });
  } catch {
    const seen = await page.locator('.context-view .monaco-menu .action-label').allTextContents().catch(() => []);
    await page.keyboard.press('Escape');
    throw new Error(`the context menu has no "${label}" (it shows: ${seen.map((s) => s.trim()).filter(Boolean).join(' | ') || 'nothing'})`);
  }
  await item.first().click({ timeout: 5_000 });
  // A menu can swallow a click that comes right after it opened (it guards against the right-click's own
  // release); a click that was taken closes the menu. If it is still open, choose the item by keyboard.
  const menu = page.locator('.context-view .monaco-menu').first();
  if (!(await menu.waitFor({ state: 'hidden', timeout: 1_500 }).then(() => true, () => false))) {
    await item.first().hover({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    await menu.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => {
      throw new Error(`the context menu stayed open after choosing "${label}"`);
    });
  }
  // The menu closes with the pointer over the row: move it away before the row's hover opens, or the hover
  // can lie over a modal the command shows next and take its clicks.
  await page.mouse.move(5, 5);
}

/** One line naming the prompts on screen, for failure messages. */
export async function describePrompts(page) {
  const [modal, quick, toasts] = await Promise.all([readModal(page), readQuickInput(page), readToasts(page)]);
  const parts = [];
  if (modal) parts.push(`modal "${modal.message}" [${modal.buttons.join(', ')}]`);
  if (quick) parts.push(`quick input "${quick.title || quick.placeholder}" ${quick.message}`);
  for (const t of toasts) parts.push(`${t.severity} toast "${t.message}"`);
  return parts.join('; ') || 'no modal, quick input or notification';
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
