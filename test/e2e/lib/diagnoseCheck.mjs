/* global document */
// Check (7): Diagnose Node against the demo cluster's stand-in, whose node proxy serves each node's kubelet
// endpoints (src/demo/kubeletEndpoints.ts). The PLEG flapper, from its context menu, must come back with the
// stuck-container finding, a rendered Markdown preview and a warning carrying the headline; a Ready node,
// from the palette, with "No problem found." Both reports must say the node side was skipped (the demo
// contexts have no plegDoctor.nodeAccess.clusters entry, so nodeSide "auto" attempts no SSH), and the
// stand-in's request log must show that the kubelet's /metrics was read through the node proxy. Last, a
// diagnosis cancelled from its progress notification must end at once, quietly, without a report.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  clearNotifications, describePrompts, pickContextMenuItem, readActiveEditorText, readEditorTabs, readModal, readQuickInput, readToasts,
  runPaletteCommand, waitForQuickInput,
} from './prompts.mjs';
import { rowLocator } from './workbench.mjs';

export const DIAGNOSE_PLEG_NODE = 'prod-eu-node-07';
const PLEG_CONTEXT = 'prod-eu';
// A Ready node of the same context: check (6) gives the staging context a node access entry (for its
// real node stack), so with nodeSide "auto" a staging node would be read over SSH.
export const DIAGNOSE_READY_NODE = 'prod-eu-node-01';
const COMMAND_TITLE = 'Diagnose Node';
const STUCK_FINDING = "One pod's status calls time out: a stuck container or shim";
const NODE_SIDE_SKIPPED = 'has no entry in plegDoctor.nodeAccess.clusters';
// Two /metrics scrapes 5 s apart, each endpoint with a 15 s deadline: well under a minute.
const DIAGNOSIS_TIMEOUT_MS = 60_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

const CANCEL_NODE = 'prod-eu-node-05';
const CANCEL_BOUND_MS = 2_000;

const reportLabel = (node) => `${node}.pleg-report.md`;

/**
 * Waits for the diagnosis notification ("{node}: {headline}"), noting whether the progress notification
 * "Diagnosing {node}" was seen; fails at once on an error notification or any modal (nothing may ask).
 */
async function waitForDiagnosis(page, node, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let progressSeen;
  while (Date.now() < deadline) {
    const [modal, toasts] = await Promise.all([readModal(page), readToasts(page)]);
    assert(!modal, `a modal appeared while diagnosing ${node}: "${modal?.message}" ${modal?.detail ?? ''}`);
    progressSeen ??= toasts.find((t) => t.message.startsWith(`Diagnosing ${node}`) || t.source.startsWith(`Diagnosing ${node}`));
    const failed = toasts.find((t) => t.severity === 'error');
    assert(!failed, `the diagnosis of ${node} failed: "${failed?.message}"`);
    const done = toasts.find((t) => t.message.startsWith(`${node}: `) && (t.severity === 'warning' || t.severity === 'info'));
    if (done) return { toast: done, progressSeen };
    await sleep(150);
  }
  throw new Error(`no diagnosis notification for ${node} within ${timeoutMs} ms; on screen: ${await describePrompts(page)}`);
}

/** The report's text, read from its editor (group 1) once its tab is open. */
async function readReport(page, node) {
  const label = reportLabel(node);
  await page.locator('.part.editor .tabs-container .tab', { hasText: label }).first().waitFor({ timeout: 15_000 });
  await sleep(300);
  const text = await readActiveEditorText(page);
  return text.replace(/\r\n/g, '\n');
}

/**
 * The rendered preview: the Markdown preview is a webview, so find the frame whose h1 names the node and
 * return its headings (h1–h3) and whether the findings section holds `needle`.
 */
async function readPreview(page, node, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const title = `PLEG Doctor report: ${node}`;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate((wanted) => {
          const h1 = [...document.querySelectorAll('h1')].find((h) => (h.textContent ?? '').trim() === wanted);
          if (!h1) return undefined;
          const headings = [...document.querySelectorAll('h1, h2, h3')].map((h) => `${h.tagName.toLowerCase()} ${(h.textContent ?? '').trim()}`);
          return { headings, tables: document.querySelectorAll('table').length, text: (document.body.textContent ?? '').slice(0, 4000) };
        }, title)
        .catch(() => undefined);
      if (found) return found;
    }
    await sleep(250);
  }
  throw new Error(`no rendered Markdown preview with the heading "${title}" within ${timeoutMs} ms; tabs: ${JSON.stringify(await readEditorTabs(page))}`);
}

/** The section of a Markdown text under `## {name}`, up to the next `## ` heading. */
function section(text, name) {
  const start = text.indexOf(`\n## ${name}\n`);
  if (start < 0) return undefined;
  const rest = text.slice(start + name.length + 5);
  const end = rest.search(/\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** The report's Evidence table row for a source (its first cell names it). */
function evidenceRow(text, source) {
  return (section(text, 'Evidence') ?? '').split('\n').find((line) => new RegExp(`^\\|\\s*\`?${source}\`?\\s*\\|`).test(line));
}

/** The README shot: the rendered report and its notification, the side bar closed so the preview is wide. */
async function readmeReportShot(page, shot, log) {
  try {
    await runPaletteCommand(page, 'View: Close Primary Side Bar');
    await sleep(800);
    const editor = await page.locator('.part.editor').first().boundingBox();
    if (editor) await shot('diagnosis-report', { x: editor.x, y: 0, width: Math.min(1400 - editor.x, editor.width), height: 1000 });
  } catch (err) {
    log(`README diagnosis shot: ${err.message}`);
  } finally {
    // The next steps need the PLEG Doctor view back.
    await page.getByRole('tab', { name: /PLEG Doctor/i }).first().click({ timeout: 10_000 }).catch((err) => log(`reopening the side bar: ${err.message}`));
  }
}

/** The inline action buttons a tree row shows while hovered (their aria-labels or titles). */
async function inlineActions(page, label) {
  const row = rowLocator(page, label).first();
  await row.hover({ timeout: 5_000 });
  await sleep(300);
  const labels = await row.locator('.actions .action-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') || e.getAttribute('title') || ''));
  await page.mouse.move(5, 5);
  return labels;
}

/** Changes the user settings file; the workbench picks the change up from disk. Returns the previous text. */
function patchUserSettings(userDataDir, patch) {
  const file = join(userDataDir, 'User/settings.json');
  const before = readFileSync(file, 'utf8');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(before), ...patch }, null, 2));
  return () => writeFileSync(file, before);
}

/** `ctx`: { page, check, shot, log, demo, userDataDir }. */
export async function runDiagnoseChecks(ctx) {
  const { page, check, shot, log, demo } = ctx;
  const prod = demo.contexts.find((c) => c.spec.context === PLEG_CONTEXT);
  assert(prod, `the demo has no context ${PLEG_CONTEXT}`);

  await check(`(7a) Diagnose Node on ${DIAGNOSE_PLEG_NODE} from its context menu: report with the stuck-container finding, Markdown preview, warning with the headline`, async () => {
    await runPaletteCommand(page, 'View: Close All Editors');
    await clearNotifications(page);
    const inlineNotReady = await inlineActions(page, DIAGNOSE_PLEG_NODE);
    const inlineReady = await inlineActions(page, DIAGNOSE_READY_NODE);
    assert(inlineNotReady.some((a) => a.startsWith(COMMAND_TITLE)), `the NotReady row ${DIAGNOSE_PLEG_NODE} has no inline "${COMMAND_TITLE}" action (it has: ${inlineNotReady.join(', ') || 'none'})`);
    assert(!inlineReady.some((a) => a.startsWith(COMMAND_TITLE)), `the Ready row ${DIAGNOSE_READY_NODE} shows an inline "${COMMAND_TITLE}" action`);
    prod.server.clearRequestLog();
    await page.mouse.move(5, 5);
    await pickContextMenuItem(page, rowLocator(page, DIAGNOSE_PLEG_NODE).first().locator('.label-name'), COMMAND_TITLE);
    const started = Date.now();
    const { toast, progressSeen } = await waitForDiagnosis(page, DIAGNOSE_PLEG_NODE, DIAGNOSIS_TIMEOUT_MS);
    const elapsed = Date.now() - started;
    const text = await readReport(page, DIAGNOSE_PLEG_NODE);
    const preview = await readPreview(page, DIAGNOSE_PLEG_NODE, 20_000);
    await shot('7a-diagnosis-report');
    await readmeReportShot(page, shot, log);
    const headline = toast.message.slice(`${DIAGNOSE_PLEG_NODE}: `.length);
    const requests = prod.server.requestLog.filter((r) => r.includes(`/api/v1/nodes/${DIAGNOSE_PLEG_NODE}/proxy/`));
    log(`report of ${DIAGNOSE_PLEG_NODE}:\n${text.split('\n').slice(0, 40).join('\n')}`);

    assert(text.startsWith(`# PLEG Doctor report: ${DIAGNOSE_PLEG_NODE}\n`), `the report does not start with "# PLEG Doctor report: ${DIAGNOSE_PLEG_NODE}": ${JSON.stringify(text.slice(0, 120))}`);
    const findings = section(text, 'Findings');
    assert(findings !== undefined, 'the report has no "## Findings" section');
    assert(new RegExp(`^### .*${STUCK_FINDING.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm').test(findings), `the findings have no "### … ${STUCK_FINDING}" heading:\n${findings.slice(0, 800)}`);
    assert(section(text, 'Checks') !== undefined && section(text, 'Evidence') !== undefined, 'the report lacks "## Checks" or "## Evidence"');
    const nodeSide = evidenceRow(text, 'nodeSide');
    assert(nodeSide && /skipped/i.test(nodeSide) && nodeSide.includes(NODE_SIDE_SKIPPED), `the Evidence row of nodeSide does not say it was skipped because ${NODE_SIDE_SKIPPED}: ${nodeSide ?? '(no row)'}`);
    assert(preview.headings.includes('h2 Findings') && preview.headings.some((h) => h.startsWith('h3 ') && h.includes(STUCK_FINDING)), `the preview's headings lack Findings / ${STUCK_FINDING}: ${preview.headings.join(' | ')}`);
    assert(preview.tables >= 2, `the preview renders ${preview.tables} tables; the Checks and Evidence tables should render as tables`);
    assert(toast.severity === 'warning', `the notification is ${toast.severity}, not a warning: "${toast.message}"`);
    assert(headline.length > 0 && text.includes(headline), `the notification "${toast.message}" does not carry the report's headline after the node name`);
    assert(requests.includes(`GET /api/v1/nodes/${DIAGNOSE_PLEG_NODE}/proxy/metrics`), `the stand-in saw no GET of /api/v1/nodes/${DIAGNOSE_PLEG_NODE}/proxy/metrics; node proxy requests: ${requests.join(', ') || 'none'}`);
    const tabs = (await readEditorTabs(page)).map((t) => t.aria || t.label);
    return `inline action on the NotReady row only; ${toast.severity} "${toast.message}" after ${elapsed} ms (progress ${progressSeen ? `"${progressSeen.message || progressSeen.source}"` : 'not caught'}); preview headings: ${preview.headings.slice(0, 5).join(' | ')}; node proxy requests: ${requests.join(', ')}; tabs: ${tabs.join(', ')}; nodeSide row: ${nodeSide.trim()}`;
  });

  await check(`(7b) Diagnose Node on the Ready node ${DIAGNOSE_READY_NODE} from the palette: "No problem found."`, async () => {
    await clearNotifications(page);
    await runPaletteCommand(page, `PLEG Doctor: ${COMMAND_TITLE}`);
    const pick = await waitForQuickInput(page, { timeoutMs: 10_000, match: (q) => q.items.some((i) => i.includes(DIAGNOSE_READY_NODE)), describeState: () => describePrompts(page) });
    assert(pick.title === COMMAND_TITLE, `the quick pick is titled "${pick.title}", not "${COMMAND_TITLE}"`);
    await page.locator('.quick-input-widget .quick-input-box input').first().fill(DIAGNOSE_READY_NODE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: DIAGNOSE_READY_NODE }).first().waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    const { toast } = await waitForDiagnosis(page, DIAGNOSE_READY_NODE, DIAGNOSIS_TIMEOUT_MS);
    const text = await readReport(page, DIAGNOSE_READY_NODE);
    const preview = await readPreview(page, DIAGNOSE_READY_NODE, 20_000);
    await shot('7b-ready-node-report');
    assert(!(await readQuickInput(page)), 'a quick input is still open after the diagnosis');
    assert(text.startsWith(`# PLEG Doctor report: ${DIAGNOSE_READY_NODE}\n`), `the report does not start with "# PLEG Doctor report: ${DIAGNOSE_READY_NODE}": ${JSON.stringify(text.slice(0, 120))}`);
    assert(section(text, 'Findings') === 'No problem found.', `the Findings section is not exactly "No problem found.":\n${(section(text, 'Findings') ?? '(none)').slice(0, 800)}`);
    const nodeSide = evidenceRow(text, 'nodeSide');
    assert(nodeSide && /skipped/i.test(nodeSide) && nodeSide.includes(NODE_SIDE_SKIPPED), `the Evidence row of nodeSide does not say it was skipped: ${nodeSide ?? '(no row)'}`);
    assert(toast.severity === 'info', `the notification for a Ready node is ${toast.severity}: "${toast.message}"`);
    const headline = toast.message.slice(`${DIAGNOSE_READY_NODE}: `.length);
    assert(headline.length > 0 && text.includes(headline), `the notification "${toast.message}" does not carry the report's headline`);
    assert(preview.text.includes('No problem found.'), 'the preview does not show "No problem found."');
    return `${toast.severity} "${toast.message}"; quick pick "${pick.items.find((i) => i.includes(DIAGNOSE_READY_NODE))}"; Findings: "No problem found."`;
  });

  await check(`(7c) cancelling a diagnosis of ${CANCEL_NODE} mid-collection ends it within ${CANCEL_BOUND_MS} ms with "Diagnosis of ${CANCEL_NODE} cancelled" and no report`, async () => {
    // A minute between the two /metrics scrapes keeps the collection running long enough to cancel it.
    const restore = patchUserSettings(ctx.userDataDir, { 'plegDoctor.diagnostics.metricsIntervalSeconds': 60 });
    try {
      await sleep(1_500);
      await clearNotifications(page);
      const tabsBefore = (await readEditorTabs(page)).filter((t) => t.aria.startsWith(reportLabel(CANCEL_NODE))).length;
      await page.mouse.move(5, 5);
      await pickContextMenuItem(page, rowLocator(page, CANCEL_NODE).first().locator('.label-name'), COMMAND_TITLE);
      const progress = page.locator('.notifications-toasts .notification-toast-container', { hasText: `Diagnosing ${CANCEL_NODE}` }).first();
      await progress.waitFor({ timeout: 15_000 });
      await sleep(3_000); // past the first scrape, into the wait for the second
      const during = (await readToasts(page)).find((t) => t.message.includes(`Diagnosing ${CANCEL_NODE}`) || t.source.includes(`Diagnosing ${CANCEL_NODE}`));
      await progress.hover();
      const t0 = Date.now();
      await progress.locator('.monaco-button', { hasText: /^\s*Cancel\s*$/ }).first().click({ timeout: 5_000 });
      let cancelled;
      while (Date.now() - t0 < 10_000 && !cancelled) {
        cancelled = (await readToasts(page)).find((t) => t.message === `Diagnosis of ${CANCEL_NODE} cancelled`);
        if (!cancelled) await sleep(50);
      }
      const latency = Date.now() - t0;
      await shot('7c-cancelled');
      const errors = (await readToasts(page)).filter((t) => t.severity === 'error');
      await sleep(1_000);
      const tabsAfter = (await readEditorTabs(page)).filter((t) => t.aria.startsWith(reportLabel(CANCEL_NODE))).length;
      assert(cancelled, `no "Diagnosis of ${CANCEL_NODE} cancelled" notification within 10 s of Cancel; on screen: ${await describePrompts(page)}`);
      assert(latency <= CANCEL_BOUND_MS, `"Diagnosis of ${CANCEL_NODE} cancelled" came ${latency} ms after Cancel (bound ${CANCEL_BOUND_MS} ms)`);
      assert(cancelled.severity === 'info', `the cancel notification is ${cancelled.severity}, not information`);
      assert(errors.length === 0, `an error notification followed the cancel: ${errors.map((e) => e.message).join('; ')}`);
      assert(tabsAfter === tabsBefore, `a report of ${CANCEL_NODE} opened after the cancel (${tabsBefore} → ${tabsAfter} tabs)`);
      return `progress "${during?.message ?? '?'}" cancelled → "${cancelled.message}" in ${latency} ms (poll 50 ms); no report, no error`;
    } finally {
      restore();
      await sleep(1_000);
    }
  });

  // Check (6) reads its snapshot document from the first editor: leave no report or preview in its way.
  await runPaletteCommand(page, 'View: Close All Editors').catch((err) => log(`closing the reports: ${err.message}`));
  await clearNotifications(page).catch((err) => log(`clearing notifications: ${err.message}`));
}

/**
 * Check (7d), after (6): the real node stack's node, in the staging context that has a node access entry,
 * so nodeSide "auto" reads it over SSH. The host key is trusted and the passphrase stored by then, so
 * nothing may ask; the report's node side must be collected and feed the node-only checks (load).
 * `ctx`: { page, check, shot, node }.
 */
export async function runNodeSideDiagnoseCheck(ctx) {
  const { page, check, shot, node } = ctx;
  await check(`(7d) Diagnose Node on ${node} (context with node access, nodeSide auto) reads the node over SSH without asking anything`, async () => {
    await runPaletteCommand(page, 'View: Close All Editors');
    await clearNotifications(page);
    await page.mouse.move(5, 5);
    await pickContextMenuItem(page, rowLocator(page, node).first().locator('.label-name'), COMMAND_TITLE);
    const { toast } = await waitForDiagnosis(page, node, DIAGNOSIS_TIMEOUT_MS);
    assert(!(await readQuickInput(page)), 'a quick input (passphrase?) is open during the diagnosis');
    const text = await readReport(page, node);
    await shot('7d-node-side-report');
    const row = evidenceRow(text, 'nodeSide');
    assert(row && /^\|\s*`?nodeSide`?\s*\|\s*ok\s*\|/.test(row), `the Evidence row of nodeSide is not ok: ${row ?? '(no row)'}\n${(section(text, 'Evidence') ?? '').slice(0, 1200)}`);
    const gaps = section(text, 'What could not be collected') ?? '';
    assert(!/node side/i.test(gaps), `the report still lists the node side as not collected: ${gaps.slice(0, 400)}`);
    const loadRow = (section(text, 'Checks') ?? '').split('\n').find((l) => l.startsWith('| Node overloaded |'));
    assert(loadRow && !/no evidence/.test(loadRow), `the node-side check "Node overloaded" had no evidence although the node side was read: ${loadRow ?? '(no row)'}`);
    return `${toast.severity} "${toast.message}"; Evidence: ${row.trim()}; ${loadRow.trim()}`;
  });
}
