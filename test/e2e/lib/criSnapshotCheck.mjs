/* global document */
// Check (6): a CRI snapshot of a real node (the node stack's sshd + containerd) taken from the VS Code UI,
// through the two prompts a first connection needs: the unknown host key (a modal) and the passphrase of
// an encrypted identity file (an input box). Everything the UI reports is compared with facts read
// independently: ssh-keygen's fingerprint of the host key, ctr's count of the runtime's sandboxes, the
// extension's own known_hosts file on disk.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countRuntimeObjects, encryptedKeyCopy, hostKeyFingerprint } from './nodeStack.mjs';
import {
  answerQuickInput, clearNotifications, clickModalButton, describePrompts, fillQuickInput, pickContextMenuItem, readActiveEditorLines, readActiveEditorText,
  readEditorTabs, readModal, readQuickInput, readToasts, runPaletteCommand, waitForModal, waitForQuickInput, waitForToast,
} from './prompts.mjs';
import { readTreeRows, rowLocator, waitForDescription } from './workbench.mjs';

export const STACK_NODE = 'node-stack-01';
export const STACK_CONTEXT = 'staging';
const COMMAND_TITLE = 'Take CRI Snapshot';
const PASSPHRASE_TITLE = 'PLEG Doctor: SSH key passphrase';
const DOC_LABEL = `${STACK_NODE}.cri-snapshot.json`;
const PROMPT_TIMEOUT_MS = 30_000;
const SNAPSHOT_TIMEOUT_MS = 60_000;
// The summary names the way first (snapshotSummary): "CRI snapshot of N (via SSH user@host:port): …".
const RESULT = new RegExp(`^CRI snapshot of ${STACK_NODE} \\(via SSH [^)]+\\): (\\d+) pod sandboxes?, (\\d+) containers? over (\\w+) \\((\\d+(?:\\.\\d+)?) ms\\)`);

/** Tabs show the name without its extension in .label-name; the aria-label carries the whole file name. */
const isDocTab = (t) => t.aria.startsWith(DOC_LABEL);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/**
 * Everything the run needs before code-server starts: a HOME with no ~/.ssh (nothing may already trust
 * the stack's host key or offer a default key), the encrypted key copy and the node-access settings.
 * The settings go to both User and Machine settings: the extension host runs on code-server's "remote"
 * side, where machine-scoped settings are read from Machine/settings.json only.
 */
export async function prepareNodeAccess(runDir, userDataDir, stackEnv, workbenchSettings) {
  const home = join(runDir, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  // The machine-wide file is read too; if it already trusts the stack, no modal could ever appear.
  const systemKnown = (() => {
    try {
      return readFileSync('/etc/ssh/ssh_known_hosts', 'utf8');
    } catch {
      return '';
    }
  })();
  if (systemKnown.includes(`[${stackEnv.SSH_HOST}]:${stackEnv.SSH_PORT} `)) {
    throw new Error(`/etc/ssh/ssh_known_hosts already trusts [${stackEnv.SSH_HOST}]:${stackEnv.SSH_PORT}: the host-key prompt cannot be tested on this machine`);
  }
  const passphrase = `e2e-${randomBytes(9).toString('base64url')}`;
  const keyFile = await encryptedKeyCopy(stackEnv, join(runDir, 'keys'), passphrase);
  const nodeAccess = {
    'plegDoctor.nodeAccess.clusters': {
      [STACK_CONTEXT]: { user: stackEnv.SSH_USER, sudo: true, nodes: { [STACK_NODE]: { port: Number(stackEnv.SSH_PORT) } } },
    },
    'plegDoctor.nodeAccess.identityFiles': [keyFile],
    'plegDoctor.nodeAccess.useSshAgent': false,
    // The stack's containerd listens on a private socket, not one of the well-known paths a node uses.
    'plegDoctor.nodeAccess.criEndpoint': stackEnv.CRI_SOCKET,
  };
  writeFileSync(join(userDataDir, 'User/settings.json'), JSON.stringify({ ...workbenchSettings, ...nodeAccess }, null, 2));
  mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
  writeFileSync(join(userDataDir, 'Machine/settings.json'), JSON.stringify(nodeAccess, null, 2));
  return { home, passphrase, keyFile, env: stackEnv };
}

/** known_hosts files the extension wrote under the user-data dir (its globalStorage), with their text. */
function ownKnownHosts(userDataDir) {
  const found = [];
  const visit = (dir, depth) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory() && depth < 6) visit(p, depth + 1);
      else if (e.isFile() && e.name === 'known_hosts') found.push({ file: p, text: readFileSync(p, 'utf8') });
    }
  };
  visit(userDataDir, 0);
  return found;
}

/** How many extension hosts code-server has launched so far (its log says so once per launch). */
function extensionHostLaunches(serverLog) {
  return (readFileSync(serverLog, 'utf8').match(/Launched Extension Host Process/g) ?? []).length;
}

/** sshd's count of public-key logins of the test user (other tests may add to it, never subtract). */
function acceptedLogins(env) {
  const logFile = join(env.NODE_STACK_DIR, 'ssh/sshd.log');
  try {
    return (readFileSync(logFile, 'utf8').match(new RegExp(`Accepted publickey for ${env.SSH_USER} `, 'g')) ?? []).length;
  } catch (err) {
    throw new Error(`cannot read the stack's sshd log ${logFile}: ${err.message}`, { cause: err });
  }
}

/** A Ready node object for the stack, its InternalIP the stack's sshd address. */
function stackNode(makeNode, host) {
  const node = makeNode({ name: STACK_NODE, containerRuntimeVersion: 'containerd://1.6.20', imageCount: 3 });
  node.status.addresses = [
    { type: 'InternalIP', address: host },
    { type: 'Hostname', address: STACK_NODE },
  ];
  return node;
}

async function triggerFromRow(page) {
  await page.mouse.move(5, 5);
  await pickContextMenuItem(page, rowLocator(page, STACK_NODE).first().locator('.label-name'), COMMAND_TITLE);
}

function parseResult(toast) {
  const m = RESULT.exec(toast.message);
  assert(m, `result notification "${toast.message}" does not read "CRI snapshot of ${STACK_NODE} (via SSH HOST): S pod sandboxes, C containers over KIND (MS ms)"`);
  return { sandboxes: Number(m[1]), containers: Number(m[2]), transport: m[3], ms: Number(m[4]), severity: toast.severity };
}

/**
 * Waits for the result notification, failing at once on an error notification or when a host-key modal
 * or a passphrase box shows (`which` names the snapshot in the message).
 */
async function waitForResultWithoutPrompts(page, timeoutMs, which) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [modal, quick, toasts] = await Promise.all([readModal(page), readQuickInput(page), readToasts(page)]);
    assert(!modal, `a modal appeared during the ${which}: "${modal?.message}" ${modal?.detail ?? ''}`);
    assert(!(quick && /passphrase/i.test(`${quick.title} ${quick.message} ${quick.placeholder}`)), `the passphrase was asked (again) during the ${which}: ${JSON.stringify(quick)}`);
    const done = toasts.find((t) => RESULT.test(t.message));
    if (done) return done;
    const failed = toasts.find((t) => t.severity === 'error');
    assert(!failed, `the ${which} failed: "${failed?.message}"`);
    await sleep(150);
  }
  throw new Error(`no result notification within ${timeoutMs} ms; on screen: ${await describePrompts(page)}`);
}

/**
 * README shot: the snapshot document and its notification, expanded so the whole message reads, clipped to
 * the editor area (the tree is in the other README shots).
 */
async function readmeSnapshotShot(page, shot) {
  const toast = page.locator('.notifications-toasts .notification-toast-container', { hasText: `CRI snapshot of ${STACK_NODE}` }).first();
  await toast.hover({ timeout: 3_000 }).catch(() => undefined);
  await toast.locator('.codicon-notifications-expand').first().click({ timeout: 2_000 }).catch(() => undefined);
  await page.mouse.move(5, 5);
  await sleep(300);
  const editor = await page.locator('.part.editor').first().boundingBox();
  if (!editor) return;
  const x = Math.max(0, editor.x - 8);
  await shot('cri-snapshot', { x, y: 0, width: 1400 - x, height: 1000 });
}

function parseDocument(text) {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`the snapshot document is not JSON (${err.message}): ${text.slice(0, 300)}`, { cause: err });
  }
}

/** The document against the settings and ctr's view of the runtime: same target, same sandbox and container ids. */
function checkDocument(doc, env, counted) {
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  assert(doc.node === STACK_NODE && doc.context === STACK_CONTEXT, `document node/context are ${doc.node}/${doc.context}`);
  const t = doc.target ?? {};
  assert(t.host === env.SSH_HOST && t.addressSource === 'InternalIP' && t.user === env.SSH_USER && t.port === Number(env.SSH_PORT) && t.sudo === true,
    `document target ${JSON.stringify(t)} is not {host: ${env.SSH_HOST}, addressSource: InternalIP, user: ${env.SSH_USER}, port: ${env.SSH_PORT}, sudo: true}`);
  assert(typeof doc.access === 'string' && doc.access.startsWith('via SSH ') && doc.access.includes(env.SSH_HOST), `document access "${doc.access}" does not name the way (via SSH … ${env.SSH_HOST} …)`);
  assert(!Number.isNaN(Date.parse(doc.takenAt)), `document takenAt "${doc.takenAt}" is not a date`);
  assert(doc.transport?.kind === 'execRelay', `document transport.kind is ${doc.transport?.kind}`);
  const snap = doc.snapshot ?? {};
  assert(Array.isArray(snap.sandboxes) && Array.isArray(snap.containers), 'document snapshot has no sandboxes/containers arrays');
  const sandboxIds = snap.sandboxes.map((s) => s.id).sort();
  const containerIds = snap.containers.map((c) => c.id).sort();
  assert(same(sandboxIds, counted.sandboxIds), `document sandbox ids [${sandboxIds.join(', ')}] differ from ctr's [${counted.sandboxIds.join(', ')}]`);
  assert(same(containerIds, counted.containerIds), `document container ids [${containerIds.join(', ')}] differ from ctr's [${counted.containerIds.join(', ')}]`);
  assert(Array.isArray(snap.errors) && snap.errors.length === 0, `document snapshot errors: ${JSON.stringify(snap.errors)}`);
  assert(snap.runtime?.name === 'containerd', `document runtime is ${JSON.stringify(snap.runtime)}`);
}

/** After a failed step: closes a modal or quick input it left open, so the next step starts clean. */
async function dismissPrompts(page) {
  if (await readModal(page)) await clickModalButton(page, 'Cancel').catch(() => page.keyboard.press('Escape'));
  if (await readQuickInput(page)) await page.keyboard.press('Escape');
}

/**
 * The steps of check (6), each run through `check` so the report shows which one failed.
 * `ctx`: { page, check, shot, log, demo, makeNode, access (from prepareNodeAccess), userDataDir, serverLog,
 * showNode(name): opens the view and expands contexts until the row shows }.
 */
export async function runCriSnapshotChecks(ctx) {
  const { page, check, shot, log, access, userDataDir } = ctx;
  const env = access.env;
  const hostPort = `${env.SSH_HOST}:${env.SSH_PORT}`;
  const describe = () => describePrompts(page);
  let fp;

  const shown = await check(`(6) node ${STACK_NODE} (the real node stack at ${hostPort}) appears in the tree`, async () => {
    fp = await hostKeyFingerprint(env.SSH_HOST_KEY_PUB);
    ctx.demo.upsert(STACK_CONTEXT, stackNode(ctx.makeNode, env.SSH_HOST));
    try {
      await waitForDescription(page, STACK_NODE, /(?:)/, { timeoutMs: 15_000, pollMs: 100 });
    } catch {
      const rows = await readTreeRows(page);
      throw new Error(`${STACK_NODE} did not appear under ${STACK_CONTEXT} within 15 s; rows: ${rows.map((r) => r.label).join(', ')}`);
    }
    const row = (await readTreeRows(page)).find((r) => r.label === STACK_NODE);
    return `"${row?.description}"; host key ${fp.type} ${fp.fingerprint}`;
  });
  if (!shown) return;

  const refused = await check('(6a) Take CRI Snapshot asks about the unknown host key in a modal; Cancel refuses it and writes nothing', async () => {
    await triggerFromRow(page);
    const modal = await waitForModal(page, { timeoutMs: PROMPT_TIMEOUT_MS, describeState: describe });
    const progress = (await readToasts(page)).find((t) => t.message.startsWith(`CRI snapshot of ${STACK_NODE}`));
    await sleep(400); // the dialog fades in; the README shot should not catch it half-drawn
    const box = await page.locator('.monaco-dialog-box').first().boundingBox();
    if (box) {
      const pad = 48;
      const x = Math.max(0, box.x - pad);
      const y = Math.max(0, box.y - pad);
      await shot('host-key-prompt', { x, y, width: Math.min(1400 - x, box.width + 2 * pad), height: Math.min(1000 - y, box.height + 2 * pad) });
    }
    await shot('6a-host-key-modal');
    assert(modal.message.includes(`Unknown SSH host key for ${hostPort}`), `modal message "${modal.message}" lacks "Unknown SSH host key for ${hostPort}"`);
    assert(modal.detail.includes(fp.fingerprint), `modal detail does not show the host's real fingerprint ${fp.fingerprint}: "${modal.detail}"`);
    assert(/key fingerprint is SHA256:/.test(modal.detail), `modal detail lacks "… key fingerprint is SHA256:…": "${modal.detail}"`);
    assert(/ssh-keygen -lf \/etc\/ssh\/ssh_host_\w+_key\.pub/.test(modal.detail), `modal detail does not say how to check the key on the node (ssh-keygen -lf /etc/ssh/ssh_host_…_key.pub): "${modal.detail}"`);
    assert(modal.blocking, 'the host-key dialog does not block the workbench (not modal)');
    assert(modal.buttons.includes('Trust and Connect'), `modal buttons are [${modal.buttons.join(', ')}], no "Trust and Connect"`);
    assert(modal.buttons.includes('Cancel'), `modal buttons are [${modal.buttons.join(', ')}], no Cancel`);
    assert(progress, `no progress notification "CRI snapshot of ${STACK_NODE}" while the modal asks; toasts: ${JSON.stringify(await readToasts(page))}`);
    await clickModalButton(page, 'Cancel');
    const error = await waitForToast(page, /not accepted|not trusted|refused|rejected/i, { timeoutMs: PROMPT_TIMEOUT_MS, severity: 'error', describeState: describe });
    await shot('6a-refused');
    assert(error.message.includes(env.SSH_HOST), `the refusal "${error.message}" does not name the host ${env.SSH_HOST}`);
    const written = ownKnownHosts(userDataDir).filter((k) => k.text.includes(`[${env.SSH_HOST}]:${env.SSH_PORT}`));
    assert(written.length === 0, `the refused key was written to ${written.map((k) => k.file).join(', ')}`);
    return `modal "${modal.message}" / "${modal.detail.replace(/\s+/g, ' ').slice(0, 220)}"; progress "${progress.message}"; Cancel → "${error.message}"`;
  });

  if (!refused) await dismissPrompts(page);

  let first;
  const trusted = await check('(6b) Trust and Connect, then the passphrase box, then the snapshot document and its notification', async () => {
    await clearNotifications(page);
    await triggerFromRow(page);
    const modal = await waitForModal(page, { timeoutMs: PROMPT_TIMEOUT_MS, describeState: describe });
    assert(modal.detail.includes(fp.fingerprint), `second modal detail lacks ${fp.fingerprint}: "${modal.detail}"`);
    await clickModalButton(page, 'Trust and Connect');
    const box = await waitForQuickInput(page, { timeoutMs: PROMPT_TIMEOUT_MS, match: (q) => /passphrase/i.test(`${q.title} ${q.message} ${q.placeholder}`), describeState: describe });
    await shot('6b-passphrase-box');
    assert(box.title === PASSPHRASE_TITLE, `input box title is "${box.title}", expected "${PASSPHRASE_TITLE}"`);
    assert(`${box.message} ${box.placeholder}`.includes(access.keyFile), `input box prompt "${box.message}" does not name the key ${access.keyFile}`);
    assert(box.inputType === 'password', `the passphrase input is type="${box.inputType}", not a password field`);
    await answerQuickInput(page, access.passphrase);
    const toast = await waitForResultWithoutPrompts(page, SNAPSHOT_TIMEOUT_MS, 'first snapshot (after the passphrase)');
    first = parseResult(toast);
    const counted = await countRuntimeObjects(env);
    await page.locator('.part.editor .tabs-container .tab', { hasText: DOC_LABEL }).first().waitFor({ timeout: 15_000 });
    await sleep(500);
    const tabs = await readEditorTabs(page);
    const lines = await readActiveEditorLines(page);
    const mode = ((await page.locator('#status\\.editor\\.mode').first().textContent({ timeout: 5_000 }).catch(() => '')) ?? '').trim();
    await shot('6b-snapshot-document');
    await readmeSnapshotShot(page, shot);
    const text = lines.join('\n');
    assert(tabs.some((t) => t.active && isDocTab(t)), `the active tab is not ${DOC_LABEL}: ${JSON.stringify(tabs)}`);
    assert(text.includes(`"node": "${STACK_NODE}"`) && text.includes(`"context": "${STACK_CONTEXT}"`), `the document does not start with node and context:\n${lines.slice(0, 12).join('\n')}`);
    assert(/^JSON$/i.test(mode), `the document's language is "${mode}", not JSON`);
    assert(first.transport === 'execRelay', `transport is ${first.transport}; ${env.SSH_USER} reaches containerd only through sudo socat (execRelay)`);
    assert(first.sandboxes === counted.sandboxes, `the notification says ${first.sandboxes} pod sandboxes, ctr counts ${counted.sandboxes} in the runtime`);
    assert(first.containers === counted.containers, `the notification says ${first.containers} containers, ctr counts ${counted.containers} in the runtime`);
    const known = ownKnownHosts(userDataDir).filter((k) => k.text.includes(`[${env.SSH_HOST}]:${env.SSH_PORT}`));
    const pubKey = readFileSync(env.SSH_HOST_KEY_PUB, 'utf8').trim().split(/\s+/).slice(0, 2).join(' ');
    assert(known.some((k) => k.text.includes(pubKey)), `the trusted key was not recorded in the extension's own known_hosts (found: ${ownKnownHosts(userDataDir).map((k) => k.file).join(', ') || 'none'})`);
    const doc = parseDocument(await readActiveEditorText(page));
    checkDocument(doc, env, counted);
    log(`snapshot document: ${lines.slice(0, 6).map((l) => l.trim()).join(' ')}`);
    return `${first.severity} "${toast.message}"; ctr counts ${counted.sandboxes} sandboxes / ${counted.containers} containers, the document lists the same ids; tab ${DOC_LABEL} (${mode}); key recorded in ${known[0].file.slice(userDataDir.length + 1)}`;
  });

  if (!trusted) await dismissPrompts(page);
  // A snapshot in the same extension host could ride on the pooled SSH connection and never need the key
  // or the host key again. Reloading the window starts a new extension host (so a new pool and a new
  // connection): only what was stored (SecretStorage, the own known_hosts) can spare the prompts.
  await check('(6c) after a window reload (new extension host, new SSH connection), a snapshot from the palette asks nothing', async () => {
    assert(first, 'the first snapshot did not complete');
    const hostsBefore = extensionHostLaunches(ctx.serverLog);
    await runPaletteCommand(page, 'Developer: Reload Window');
    await page.waitForLoadState('domcontentloaded', { timeout: 60_000 });
    await page.locator('.monaco-workbench .part.activitybar').first().waitFor({ timeout: 60_000 });
    const deadline = Date.now() + 60_000;
    while (extensionHostLaunches(ctx.serverLog) <= hostsBefore && Date.now() < deadline) await sleep(200);
    const hostsAfter = extensionHostLaunches(ctx.serverLog);
    assert(hostsAfter > hostsBefore, `no new extension host within 60 s of the reload (launches logged: ${hostsBefore} → ${hostsAfter})`);
    await ctx.showNode(STACK_NODE);
    const acceptedBefore = acceptedLogins(env);
    const tabsBefore = (await readEditorTabs(page)).filter(isDocTab).length;
    const t = Date.now();
    const openPick = async () => {
      await runPaletteCommand(page, `PLEG Doctor: ${COMMAND_TITLE}`);
      return waitForQuickInput(page, { timeoutMs: 10_000, match: (q) => q.items.some((i) => i.includes(STACK_NODE)), describeState: describe });
    };
    let pick = await openPick();
    // Just after a reload the workbench may still restore its layout (CI once: the Problems panel came back
    // and the node pick, which closes when it loses focus, was gone before the typing). Nothing was chosen
    // then, so the command is run again, once; what this check holds (no prompt, a new login) is unchanged.
    let reopened = '';
    await fillQuickInput(page, STACK_NODE).catch(async (err) => {
      if ((await readQuickInput(page)) !== undefined) throw err;
      reopened = ' (the node pick closed before the typing, as the workbench restored its layout after the reload: opened again)';
      log(`(6c)${reopened}`);
      pick = await openPick();
      await fillQuickInput(page, STACK_NODE);
    });
    const item = pick.items.find((i) => i.includes(STACK_NODE));
    assert(item.includes(STACK_CONTEXT), `the quick pick item "${item}" does not name the context ${STACK_CONTEXT}`);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: STACK_NODE }).first().waitFor({ timeout: 5_000 });
    await page.keyboard.press('Enter');
    const toast = await waitForResultWithoutPrompts(page, SNAPSHOT_TIMEOUT_MS, 'snapshot after the reload');
    const elapsed = Date.now() - t;
    const second = parseResult(toast);
    await page.waitForFunction(
      ({ label, n }) => [...document.querySelectorAll('.part.editor .tabs-container .tab')].filter((x) => (x.getAttribute('aria-label') ?? '').startsWith(label)).length > n,
      { label: DOC_LABEL, n: tabsBefore },
      { timeout: 15_000 },
    ).catch(() => undefined);
    const tabsAfter = (await readEditorTabs(page)).filter(isDocTab).length;
    await shot('6c-after-reload');
    const counted = await countRuntimeObjects(env);
    const logins = acceptedLogins(env) - acceptedBefore;
    assert(tabsAfter === tabsBefore + 1, `expected a new ${DOC_LABEL} tab (had ${tabsBefore}, now ${tabsAfter})`);
    assert(second.transport === 'execRelay', `transport is ${second.transport}, not execRelay`);
    assert(second.sandboxes === counted.sandboxes, `the notification says ${second.sandboxes} pod sandboxes, ctr counts ${counted.sandboxes}`);
    assert(logins >= 1, `sshd logged no new public-key login for ${env.SSH_USER} during the snapshot: it did not reconnect`);
    return `extension host relaunched (${hostsBefore} → ${hostsAfter}); quick pick "${item}"${reopened}; "${toast.message}" ${elapsed} ms after the command; sshd: ${logins} new publickey login(s) for ${env.SSH_USER}; no modal, no passphrase box`;
  });
}

