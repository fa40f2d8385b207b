/* global document */
// Check (7): Diagnose Node against the demo cluster's stand-in, whose node proxy serves each node's kubelet
// endpoints (src/demo/kubeletEndpoints.ts). The PLEG flapper, from its context menu, must come back with the
// stuck-container finding, a rendered Markdown preview and a warning carrying the headline; a Ready node,
// from the palette, with "No problem found." Both reports must say the node side was skipped (the demo
// contexts have no plegDoctor.nodeAccess.clusters entry, so nodeSide "auto" attempts no SSH), and the
// stand-in's request log must show that the kubelet's /metrics was read through the node proxy. Last, a
// diagnosis cancelled from its progress notification must end at once, quietly, without a report.
// Then (7e) Diagnose All NotReady Nodes from the palette: its progress notification, the summary, and the
// verdict rows it puts under NotReady nodes (and not under a Ready one); (7f) Export Evidence Bundle of the
// PLEG node into a folder, whose files are read back from disk and judged again by the CLI
// (`pleg-doctor diagnose --evidence`), which must agree with the verdicts the tree shows.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import {
  clearNotifications, describePrompts, fillQuickInput, pickContextMenuItem, readActiveEditorText, readEditorTabs, readModal, readQuickInput, readToasts,
  runPaletteCommand, waitForQuickInput, waitForToast,
} from './prompts.mjs';
import { REPO } from './tools.mjs';
import { readTreeRows, rowLocator } from './workbench.mjs';

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
export async function waitForDiagnosis(page, node, timeoutMs) {
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

/**
 * The report's Markdown. The report opens rendered only (its preview tab); its source is on demand, from the
 * preview's Open Source File, which is what this does. Throws when a source editor was open before that:
 * the report must not open as source and preview side by side.
 */
export async function readReport(page, node) {
  const label = reportLabel(node);
  await page.locator('.part.editor .tabs-container .tab', { hasText: label }).first().waitFor({ timeout: 15_000 });
  const sourceTabs = async () => (await readEditorTabs(page)).filter((t) => (t.label || '').trim() === label || (t.aria || '').startsWith(label));
  const before = await sourceTabs();
  assert(before.length === 0, `the report of ${node} opened as Markdown source too (tabs: ${JSON.stringify(await readEditorTabs(page))}); it should open rendered only`);
  await runPaletteCommand(page, 'Markdown: Open Source File');
  const deadline = Date.now() + 10_000;
  while ((await sourceTabs()).length === 0 && Date.now() < deadline) await sleep(200);
  await sleep(300);
  const text = await readActiveEditorText(page);
  return text.replace(/\r\n/g, '\n');
}

/**
 * The rendered preview: the Markdown preview is a webview, so find the frame whose h1 names the node and
 * return its headings (h1–h3) and whether the findings section holds `needle`.
 */
async function readPreview(page, node, timeoutMs, title = `PLEG Doctor report: ${node}`) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const found = await frame
        .evaluate((wanted) => {
          const h1 = [...document.querySelectorAll('h1')].find((h) => (h.textContent ?? '').trim() === wanted);
          if (!h1) return undefined;
          const headings = [...document.querySelectorAll('h1, h2, h3')].map((h) => `${h.tagName.toLowerCase()} ${(h.textContent ?? '').trim()}`);
          const rows = [...document.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('td, th')].map((c) => (c.textContent ?? '').trim()));
          const links = [...document.querySelectorAll('a')].map((a) => ({ text: (a.textContent ?? '').trim(), href: a.getAttribute('href') ?? a.getAttribute('data-href') ?? '' }));
          return { headings, tables: document.querySelectorAll('table').length, rows, links, text: (document.body.textContent ?? '').slice(0, 4000) };
        }, title)
        .catch(() => undefined);
      if (found) return found;
    }
    await sleep(250);
  }
  throw new Error(`no rendered Markdown preview with the heading "${title}" within ${timeoutMs} ms; tabs: ${JSON.stringify(await readEditorTabs(page))}`);
}

/** The section of a Markdown text under `## {name}`, up to the next `## ` heading. */
export function section(text, name) {
  const start = text.indexOf(`\n## ${name}\n`);
  if (start < 0) return undefined;
  const rest = text.slice(start + name.length + 5);
  const end = rest.search(/\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).trim();
}

/** The report's Evidence table row for a source (its first cell names it). */
export function evidenceRow(text, source) {
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
    const preview = await readPreview(page, DIAGNOSE_PLEG_NODE, 20_000);
    await shot('7a-diagnosis-report');
    await readmeReportShot(page, shot, log);
    const text = await readReport(page, DIAGNOSE_PLEG_NODE);
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
    await fillQuickInput(page, DIAGNOSE_READY_NODE);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: DIAGNOSE_READY_NODE }).first().waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    const { toast } = await waitForDiagnosis(page, DIAGNOSE_READY_NODE, DIAGNOSIS_TIMEOUT_MS);
    const preview = await readPreview(page, DIAGNOSE_READY_NODE, 20_000);
    await shot('7b-ready-node-report');
    const text = await readReport(page, DIAGNOSE_READY_NODE);
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
      const tabsBefore = (await readEditorTabs(page)).filter((t) => t.aria.includes(reportLabel(CANCEL_NODE))).length;
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
      const tabsAfter = (await readEditorTabs(page)).filter((t) => t.aria.includes(reportLabel(CANCEL_NODE))).length;
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

  await runDiagnoseAllCheck(ctx);
  await runExportBundleCheck(ctx);

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

// ---- (7e) Diagnose All NotReady Nodes, (7f) Export Evidence Bundle ----

const DIAGNOSE_ALL_TITLE = 'Diagnose All NotReady Nodes';
// NotReady nodes that no earlier check diagnosed: their Diagnosis rows can only come from Diagnose All.
const ALL_FRESH_NOT_READY = ['prod-eu-node-03', 'prod-eu-node-11'];
// A Ready node no earlier check diagnosed: Diagnose All must leave it alone.
const ALL_READY_UNTOUCHED = 'prod-eu-node-02';
const VERDICT_WORDS = new Set(['ok', 'warning', 'fails', 'unknown', 'not applicable']);
const EXPORT_NODE = DIAGNOSE_PLEG_NODE;

/** The node rows of the two demo contexts (level 2), as the tree shows them now (contexts expanded). */
async function nodeRows(page) {
  return (await readTreeRows(page)).filter((r) => r.level === 2 && /^(prod-eu|staging)-node-\d+$/.test(r.label));
}

async function setExpanded(page, label, expanded) {
  const row = rowLocator(page, label).first();
  await row.scrollIntoViewIfNeeded({ timeout: 5_000 });
  if ((await row.getAttribute('aria-expanded')) === String(expanded)) return;
  await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 });
  await sleep(400);
}

/** The rows directly below `label` and deeper than it, until the next row at its level or above. */
function rowsUnder(rows, label, nth = 0) {
  const at = rows.map((r, i) => (r.label === label ? i : -1)).filter((i) => i >= 0)[nth];
  if (at === undefined) return [];
  const out = [];
  for (let i = at + 1; i < rows.length && rows[i].level > rows[at].level; i++) out.push(rows[i]);
  return out;
}

/**
 * The Diagnosis row under `node` and its check rows: the node is expanded, scrolled to the top of the
 * list so its children are rendered, the Diagnosis row expanded; everything is collapsed again after.
 */
async function diagnosisUnder(page, node) {
  await setExpanded(page, node, true);
  try {
    const nodeRow = rowLocator(page, node).first();
    const box = await nodeRow.boundingBox();
    const list = await page.locator('.part.sidebar .monaco-list').first().boundingBox();
    if (box && list) {
      await page.mouse.move(list.x + list.width / 2, list.y + list.height / 2);
      await page.mouse.wheel(0, box.y - list.y - 30);
      await sleep(400);
    }
    const children = rowsUnder(await readTreeRows(page), node);
    const group = children.find((r) => r.label === 'Diagnosis' && r.level === children[0]?.level);
    if (!group) return { children, group: undefined, checks: [] };
    const groupRow = page.locator('.part.sidebar .monaco-list-row[role="treeitem"]').filter({ has: page.locator('.label-name', { hasText: /^\s*Diagnosis\s*$/ }) });
    // The Diagnosis row under this node: the first one after the node row on screen.
    const nodeTop = (await nodeRow.boundingBox())?.y ?? 0;
    let target;
    for (const candidate of await groupRow.all()) {
      const y = (await candidate.boundingBox())?.y ?? -1;
      if (y > nodeTop) {
        target = candidate;
        break;
      }
    }
    if (target && (await target.getAttribute('aria-expanded')) !== 'true') {
      await target.locator('.monaco-tl-twistie').click({ timeout: 5_000 });
      await sleep(500);
    }
    const after = rowsUnder(await readTreeRows(page), node);
    const groupIndex = after.findIndex((r) => r.label === 'Diagnosis');
    const checks = [];
    for (let i = groupIndex + 1; groupIndex >= 0 && i < after.length && after[i].level > after[groupIndex].level; i++) checks.push(after[i]);
    if (target && (await target.getAttribute('aria-expanded')) === 'true') await target.locator('.monaco-tl-twistie').click({ timeout: 5_000 }).catch(() => undefined);
    return { children, group: after[groupIndex] ?? group, checks };
  } finally {
    await setExpanded(page, node, false).catch(() => undefined);
  }
}

async function runDiagnoseAllCheck(ctx) {
  const { page, check, shot } = ctx;
  await check(`(7e) ${DIAGNOSE_ALL_TITLE} from the palette: progress notification, summary, a fleet report listing every node NotReady in the window, and verdict rows under the NotReady nodes (${ALL_FRESH_NOT_READY.join(', ')}) but not under the Ready ${ALL_READY_UNTOUCHED}`, async () => {
    await runPaletteCommand(page, 'View: Close All Editors');
    await clearNotifications(page);
    const rows = await nodeRows(page);
    // NotReady now, or Ready for a moment between flaps ("Ready · 30s · 8 flaps"): both are diagnosed.
    // A node at risk ("PLEG at risk · …") is Ready: Diagnose All leaves it to Diagnose Node.
    const notReady = rows.filter((r) => (!/^Ready\b/.test(r.description) && !/^PLEG at risk\b/.test(r.description)) || /\bflaps$/.test(r.description)).map((r) => r.label);
    for (const n of [...ALL_FRESH_NOT_READY, ALL_READY_UNTOUCHED]) assert(rows.some((r) => r.label === n), `${n} is not in the tree; node rows: ${rows.map((r) => r.label).join(', ')}`);
    for (const n of ALL_FRESH_NOT_READY) assert(notReady.includes(n), `${n} is not NotReady in the tree before the run (NotReady: ${notReady.join(', ')})`);
    assert(!notReady.includes(ALL_READY_UNTOUCHED), `${ALL_READY_UNTOUCHED} is not Ready in the tree`);
    for (const n of [...ALL_FRESH_NOT_READY, ALL_READY_UNTOUCHED]) {
      const before = await diagnosisUnder(page, n);
      assert(!before.group, `${n} already has a Diagnosis row before ${DIAGNOSE_ALL_TITLE}`);
    }

    await runPaletteCommand(page, `PLEG Doctor: ${DIAGNOSE_ALL_TITLE}`);
    const started = Date.now();
    const progressTitle = `Diagnosing ${notReady.length} NotReady nodes`;
    let progress;
    let summary;
    while (Date.now() - started < DIAGNOSIS_TIMEOUT_MS && !summary) {
      const [modal, toasts] = await Promise.all([readModal(page), readToasts(page)]);
      assert(!modal, `a modal appeared during ${DIAGNOSE_ALL_TITLE}: "${modal?.message}"`);
      const error = toasts.find((t) => t.severity === 'error');
      assert(!error, `an error notification during ${DIAGNOSE_ALL_TITLE}: "${error?.message}"`);
      progress ??= toasts.find((t) => t.message.startsWith(progressTitle) || t.source.startsWith(progressTitle));
      summary = toasts.find((t) => /NotReady nodes have a failing check|NotReady nodes diagnosed: no check fails/.test(t.message));
      if (!summary) await sleep(100);
    }
    const elapsed = Date.now() - started;
    await shot('7e-diagnose-all');
    assert(progress, `no progress notification "${progressTitle}" was seen (the tree shows ${notReady.length} NotReady nodes: ${notReady.join(', ')}); on screen: ${await describePrompts(page)}`);
    assert(summary, `no summary notification within ${DIAGNOSIS_TIMEOUT_MS} ms; on screen: ${await describePrompts(page)}`);
    // The PLEG node's runtime is stuck: its checks fail, so the summary is a warning that names it.
    assert(summary.severity === 'warning', `the summary is ${summary.severity}, not a warning: "${summary.message}"`);
    const failingSummary = new RegExp(`^(\\d+) of ${notReady.length} NotReady nodes have a failing check: (.+)$`).exec(summary.message);
    assert(failingSummary, `the summary does not read "N of ${notReady.length} NotReady nodes have a failing check: …": "${summary.message}"`);
    assert(failingSummary[2].includes(DIAGNOSE_PLEG_NODE), `the summary does not name ${DIAGNOSE_PLEG_NODE} among the failing nodes: "${summary.message}"`);

    const seen = [];
    for (const n of ALL_FRESH_NOT_READY) {
      const { group, checks, children } = await diagnosisUnder(page, n);
      assert(group, `no Diagnosis row under ${n} after ${DIAGNOSE_ALL_TITLE}; its rows: ${children.map((r) => `${r.label} | ${r.description}`).join('; ') || 'none'}`);
      assert(group.description.length > 0, `the Diagnosis row under ${n} has no headline`);
      assert(checks.length >= 10, `the Diagnosis row under ${n} has ${checks.length} check rows: ${checks.map((c) => c.label).join(', ')}`);
      const odd = checks.filter((c) => !VERDICT_WORDS.has(c.description));
      assert(odd.length === 0, `check rows under ${n} without a verdict word (ok/warning/fails/unknown): ${odd.map((c) => `${c.label} | ${c.description}`).join('; ')}`);
      seen.push(`${n}: "${group.description}", ${checks.length} checks (${[...VERDICT_WORDS].map((w) => `${checks.filter((c) => c.description === w).length} ${w}`).join(', ')})`);
    }
    const untouched = await diagnosisUnder(page, ALL_READY_UNTOUCHED);
    assert(!untouched.group, `${DIAGNOSE_ALL_TITLE} put a Diagnosis row under the Ready node ${ALL_READY_UNTOUCHED}`);

    // The fleet report: rendered, one table row per node of the run, each node linked to its report.
    const fleet = await readPreview(page, '', 20_000, 'PLEG Doctor fleet report');
    await shot('7e-fleet-report');
    const fleetNodes = fleet.rows.map((r) => (r[0] ?? '').split(' · ')[0]).filter((n) => /^(prod-eu|staging)-node-\d+$/.test(n));
    const missing = notReady.filter((n) => !fleetNodes.includes(n));
    assert(missing.length === 0, `the fleet report lacks ${missing.join(', ')}; its rows: ${fleetNodes.join(', ')}`);
    assert(!fleetNodes.includes(ALL_READY_UNTOUCHED), `the fleet report lists the Ready node ${ALL_READY_UNTOUCHED}`);
    assert(fleetNodes.length === new Set(fleetNodes).size, `a node is listed twice in the fleet report: ${fleetNodes.join(', ')}`);
    const unlinked = fleetNodes.filter((n) => !fleet.links.some((l) => l.text === n && l.href.includes(`${n}.pleg-report.md`)));
    assert(unlinked.length === 0, `fleet report rows without a link to their report: ${unlinked.join(', ')}; links: ${JSON.stringify(fleet.links.slice(0, 6))}`);
    assert(fleet.headings.some((h) => h.startsWith('h2 ') && /\(\d+ nodes?\)$/.test(h)), `the fleet report has no cause groups: ${fleet.headings.join(' | ')}`);
    await runPaletteCommand(page, 'View: Close All Editors');
    return `"${progress.message || progress.source}" → ${summary.severity} "${summary.message}" after ${elapsed} ms; ${seen.join('; ')}; none under ${ALL_READY_UNTOUCHED}; fleet report: ${fleet.headings.filter((h) => h.startsWith('h2 ')).join(' | ')}`;
  });
}

const execFileAsync = promisify(execFile);

/** The simple file dialog of the web workbench: type the folder, then its OK button (`okLabel`). */
async function chooseFolder(page, folder, okLabel) {
  const quick = await waitForQuickInput(page, { timeoutMs: 15_000, describeState: () => describePrompts(page) });
  const wanted = folder.endsWith('/') ? folder : `${folder}/`;
  // The dialog opens on its default folder and reads it asynchronously: when that read ends after the
  // path was typed, it puts the default back (seen once in CI: the bundle went to the workspace folder).
  // So the path is typed until the dialog holds it and lists that folder's own entries.
  const entries = new Set(['..', ...readdirSync(folder).flatMap((f) => [f, `${f}/`])]);
  const input = page.locator('.quick-input-widget .quick-input-box input:visible').first();
  const settled = (s) => s.value === wanted && s.items.length > 0 && s.items.every((i) => entries.has(i));
  let shown;
  for (let typed = 1; ; typed++) {
    await fillQuickInput(page, wanted);
    const until = Date.now() + 4_000;
    do {
      await sleep(200);
      shown = { value: await input.inputValue().catch(() => ''), items: (await readQuickInput(page))?.items ?? [] };
    } while (!settled(shown) && Date.now() < until);
    if (settled(shown)) break;
    if (typed === 3) throw new Error(`the folder dialog does not settle on ${wanted} (typed three times; it shows "${shown.value}" listing ${JSON.stringify(shown.items)})`);
  }
  const ok = page.locator('.quick-input-widget .monaco-button', { hasText: new RegExp(`^\\s*${okLabel}\\s*$`) }).first();
  const widget = page.locator('.quick-input-widget').first();
  // The dialog sometimes ignores an OK that comes while it is still reading the folder it was given (it
  // then lists only ".."): the same choice is made again, up to three times, before that is an error.
  for (let attempt = 1; attempt <= 3; attempt++) {
    if (await ok.isVisible().catch(() => false)) await ok.click({ timeout: 5_000 });
    else await page.keyboard.press('Enter');
    const closed = await widget.waitFor({ state: 'hidden', timeout: attempt === 3 ? 10_000 : 4_000 }).then(
      () => true,
      () => false,
    );
    if (closed) return quick;
  }
  throw new Error(`the folder dialog is still open after choosing ${folder} three times: ${JSON.stringify(await readQuickInput(page))}`);
}

async function runExportBundleCheck(ctx) {
  const { page, check, shot, userDataDir } = ctx;
  await check(`(7f) Export Evidence Bundle of ${EXPORT_NODE} writes a folder of evidence files that pleg-doctor diagnose --evidence judges as the tree does`, async () => {
    const parent = join(dirname(userDataDir), 'bundles');
    mkdirSync(parent, { recursive: true });
    await clearNotifications(page);
    await page.mouse.move(5, 5);
    await pickContextMenuItem(page, rowLocator(page, EXPORT_NODE).first().locator('.label-name'), 'Export Evidence Bundle');
    const dialog = await chooseFolder(page, parent, 'Export Here');
    const written = await waitForToast(page, new RegExp(`^Evidence bundle of ${EXPORT_NODE} written to `), { timeoutMs: DIAGNOSIS_TIMEOUT_MS, describeState: () => describePrompts(page) });
    await shot('7f-evidence-bundle');
    const folders = readdirSync(parent).filter((f) => f.startsWith(`${EXPORT_NODE}-evidence-`));
    assert(folders.length === 1, `expected one ${EXPORT_NODE}-evidence-* folder in ${parent}, found: ${readdirSync(parent).join(', ') || 'nothing'}`);
    const dir = join(parent, folders[0]);
    assert(written.message.includes(dir), `the notification "${written.message}" does not name the folder ${dir}`);
    const files = readdirSync(dir).sort();
    const count = /\((\d+) files\)$/.exec(written.message);
    assert(count && Number(count[1]) === files.length, `the notification says "${written.message}" but the folder holds ${files.length} files: ${files.join(', ')}`);
    // The demo's kubelet answers every endpoint; the node side is skipped (no node access for prod-eu).
    const expected = ['bundle.json', 'configz.json', 'events.json', 'goroutines.txt', 'healthz.txt', 'metrics-later.txt', 'metrics.txt', 'node.json', 'report.md'];
    const missing = expected.filter((f) => !files.includes(f));
    assert(missing.length === 0, `the bundle lacks ${missing.join(', ')} (it has ${files.join(', ')})`);
    assert(!files.includes('snapshot.json') && !files.includes('probes.json'), `the bundle has node-side files although the node side was skipped: ${files.join(', ')}`);
    const read = (f) => readFileSync(join(dir, f), 'utf8');
    const json = (f) => JSON.parse(read(f));
    assert(json('node.json').metadata?.name === EXPORT_NODE, `node.json is not the Node ${EXPORT_NODE}`);
    const manifest = json('bundle.json');
    assert(manifest.nodeName === EXPORT_NODE && manifest.context === PLEG_CONTEXT, `bundle.json names ${manifest.context}/${manifest.nodeName}, not ${PLEG_CONTEXT}/${EXPORT_NODE}`);
    assert(manifest.sources?.metrics?.status === 'ok' && manifest.sources?.nodeSide?.status === 'skipped', `bundle.json sources: ${JSON.stringify(manifest.sources)}`);
    assert(typeof json('configz.json').kubeletconfig?.runtimeRequestTimeout === 'string', 'configz.json has no kubeletconfig.runtimeRequestTimeout');
    assert(Array.isArray(json('events.json').items), 'events.json is not an EventList');
    assert(/^# (HELP|TYPE) /m.test(read('metrics.txt')) && read('metrics.txt').includes('kubelet_pleg_'), 'metrics.txt is not the kubelet /metrics (no kubelet_pleg_ series)');
    assert(read('goroutines.txt').startsWith('goroutine '), 'goroutines.txt is not a goroutine dump');
    assert(read('report.md').startsWith(`# PLEG Doctor report: ${EXPORT_NODE}\n`), 'report.md is not the rendered report of the node');

    // The same folder judged again, outside VS Code: the verdicts must be those the tree shows for the node.
    const cli = join(REPO, 'dist/cli.js');
    assert(existsSync(cli), `${cli} is missing: run npm run build before the e2e`);
    const { stdout } = await execFileAsync(process.execPath, [cli, 'diagnose', '--evidence', dir, '--format', 'json'], { timeout: 60_000 }).catch((err) => {
      // Exit 1 means a check fails, which is expected for this node: its output is still the answer.
      if (err.code === 1 && err.stdout) return { stdout: err.stdout };
      throw new Error(`pleg-doctor diagnose --evidence ${dir} failed: ${err.message}\n${err.stderr ?? ''}`);
    });
    const judged = JSON.parse(stdout);
    assert(judged.node === EXPORT_NODE, `the CLI judged node "${judged.node}", not ${EXPORT_NODE}`);
    const word = { ok: 'ok', warn: 'warning', fail: 'fails', unknown: 'unknown' };
    const cliVerdicts = judged.checks.map((c) => word[c.verdict]).sort();
    const { checks } = await diagnosisUnder(page, EXPORT_NODE);
    // The JSON keeps its fixed four verdicts, where a check that does not apply is "ok"; the tree says "not applicable".
    const treeVerdicts = checks.map((c) => (c.description === 'not applicable' ? 'ok' : c.description)).sort();
    assert(judged.checks.some((c) => c.verdict === 'fail'), `the CLI finds no failing check in the bundle of ${EXPORT_NODE}: ${judged.checks.map((c) => `${c.id}=${c.verdict}`).join(', ')}`);
    assert(JSON.stringify(cliVerdicts) === JSON.stringify(treeVerdicts), `the CLI's verdicts on the bundle differ from the tree's for ${EXPORT_NODE}:\n CLI  ${cliVerdicts.join(', ')}\n tree ${treeVerdicts.join(', ')}`);
    const tally = (list) => [...VERDICT_WORDS].map((w) => `${list.filter((v) => v === w).length} ${w}`).join(', ');
    return `dialog "${dialog.title}"; "${written.message}"; files: ${files.join(', ')}; CLI on the folder: ${tally(cliVerdicts)} = tree`;
  });
}
