/* global document, getComputedStyle */
// Check (8): "PLEG Doctor: Configure Node Access…" from the palette, answered with the keyboard as a user
// would (and once from the node's context menu): Escape part-way writes nothing; a bad SSH user is refused by the validator's own message; Back
// keeps the answers; Save writes the context's entry to the settings file the extension host reads
// (code-server's remote side: Machine/settings.json), keeping the per-node entry and adding the key found
// in ~/.ssh; "Test Connection" then takes a real CRI snapshot of the node stack through Take CRI Snapshot.
// Runs after (6), so the stack's host key is already trusted and the passphrase of the old key stored.
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_CONTEXT, STACK_NODE } from './criSnapshotCheck.mjs';
import { rowLocator } from './workbench.mjs';
import { clearNotifications, describePrompts, fillQuickInput, pickContextMenuItem, readQuickInput, readToasts, runPaletteCommand, waitForQuickInput, waitForToast } from './prompts.mjs';

const COMMAND = 'PLEG Doctor: Configure Node Access…';
const KEY_NAME = 'id_ed25519_pleg_e2e';
const STEP_TIMEOUT_MS = 15_000;
const SNAPSHOT_TIMEOUT_MS = 60_000;
const RESULT = new RegExp(`^CRI snapshot of ${STACK_NODE} \\(via SSH [^)]+\\): (\\d+) pod sandboxes?, (\\d+) containers? over (\\w+)`);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

function readSettings(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${err.message}`, { cause: err });
  }
}

/** The visible quick input plus its current input value and validation state. */
function readStep(page) {
  return page.evaluate(() => {
    const w = [...document.querySelectorAll('.quick-input-widget')].find((e) => e.getClientRects().length > 0 && getComputedStyle(e).display !== 'none');
    if (!w) return undefined;
    return {
      title: w.querySelector('.quick-input-title')?.textContent?.trim() ?? '',
      value: w.querySelector('.quick-input-box input')?.value ?? '',
      message: w.querySelector('.quick-input-message')?.textContent?.trim() ?? '',
      error: w.querySelector('.quick-input-box .monaco-inputbox.error, .quick-input-box .monaco-inputbox.idle.error') !== null || /error/.test(w.querySelector('.quick-input-message')?.className ?? ''),
      items: [...w.querySelectorAll('.quick-input-list .monaco-list-row')].filter((r) => r.getClientRects().length > 0).map((r) => r.getAttribute('aria-label') ?? r.textContent?.trim() ?? ''),
    };
  });
}

async function waitForStep(page, titlePattern) {
  await waitForQuickInput(page, { timeoutMs: STEP_TIMEOUT_MS, match: (q) => titlePattern.test(q.title), describeState: () => describePrompts(page) });
  return readStep(page);
}

/** Types `text` into the step titled like `titlePattern`, presses Enter, and waits until that step is gone. */
async function answer(page, titlePattern, text) {
  const before = await waitForStep(page, titlePattern);
  await fillQuickInput(page, text);
  await sleep(250); // a quick pick filters as you type
  await page.keyboard.press('Enter');
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const now = await readQuickInput(page);
    if (!now || !titlePattern.test(now.title)) return before;
    if (Date.now() > deadline) throw new Error(`the step "${now.title}" is still open ${STEP_TIMEOUT_MS} ms after Enter with "${text}": ${JSON.stringify(await readStep(page))}`);
    await sleep(100);
  }
}

const step = (n, total = 8) => new RegExp(`^Configure Node Access(: ${STACK_CONTEXT})? \\(${n}/${total}\\)`);

/**
 * Right-clicks the row and clicks the menu entry. A context menu an earlier check left open would take the
 * right-click (its backdrop covers the page), so it is closed first.
 */
async function openRowMenuItem(page, rowLabel, label) {
  if (await page.locator('.context-view-block').first().isVisible().catch(() => false)) {
    await page.keyboard.press('Escape');
    await page.locator('.context-view-block').first().waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
  }
  await page.mouse.move(5, 5);
  // The shared picker: a menu can swallow the click that comes right after it opened (seen here once).
  await pickContextMenuItem(page, rowLocator(page, rowLabel).first().locator('.label-name'), label);
}

/** sshd's count of public-key logins of the test user. */
function acceptedLogins(env) {
  return (readFileSync(join(env.NODE_STACK_DIR, 'ssh/sshd.log'), 'utf8').match(new RegExp(`Accepted publickey for ${env.SSH_USER} `, 'g')) ?? []).length;
}

export async function runConfigureNodeAccessCheck({ page, check, shot, access, userDataDir, showNode }) {
  const env = access.env;
  const machineFile = join(userDataDir, 'Machine/settings.json');
  const userFile = join(userDataDir, 'User/settings.json');
  const describe = () => describePrompts(page);

  // ~/.ssh of the extension host's HOME: the stack's key (unencrypted) under a name no default would
  // pick, its .pub, and a file that is not a key. Only the key may be offered.
  const sshDir = join(access.home, '.ssh');
  mkdirSync(sshDir, { recursive: true, mode: 0o700 });
  copyFileSync(env.SSH_KEY, join(sshDir, KEY_NAME));
  chmodSync(join(sshDir, KEY_NAME), 0o600);
  writeFileSync(join(sshDir, `${KEY_NAME}.pub`), 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE2e2e e2e@pleg\n');
  writeFileSync(join(sshDir, 'notes.txt'), 'not a key\n');

  const cancelled = await check(`(8a) Configure Node Access… from ${STACK_NODE}'s context menu starts at its context; Escape part-way writes nothing`, async () => {
    const before = [readFileSync(machineFile, 'utf8'), readFileSync(userFile, 'utf8')];
    await showNode(STACK_NODE);
    await openRowMenuItem(page, STACK_NODE, 'Configure Node Access…');
    // The context comes from the row: the flow starts at the SSH user, one step fewer.
    const first = await answer(page, step(1, 7), 'someone');
    assert(first.title.startsWith(`Configure Node Access: ${STACK_CONTEXT}`), `the first step is "${first.title}"`);
    await waitForStep(page, step(2, 7));
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 5_000 });
    await sleep(1_000);
    const after = [readFileSync(machineFile, 'utf8'), readFileSync(userFile, 'utf8')];
    assert(after[0] === before[0] && after[1] === before[1], 'a settings file changed although the flow was cancelled');
    return `"${first.title}"; user answered, Escape at the port step: Machine and User settings.json unchanged`;
  });
  if (!cancelled) await page.keyboard.press('Escape').catch(() => undefined);

  let saved;
  const wrote = await check(`(8b) Configure Node Access… for ${STACK_CONTEXT}: validation, Back, the key from ~/.ssh, saved to the remote (Machine) settings with the per-node entry kept`, async () => {
    await clearNotifications(page);
    const machineBefore = readSettings(machineFile);
    const userTextBefore = readFileSync(userFile, 'utf8');
    const oldEntry = machineBefore['plegDoctor.nodeAccess.clusters']?.[STACK_CONTEXT];
    assert(oldEntry?.nodes?.[STACK_NODE], `the run's Machine settings have no per-node entry for ${STACK_NODE} to keep: ${JSON.stringify(oldEntry)}`);
    await runPaletteCommand(page, COMMAND);
    await answer(page, step(1), STACK_CONTEXT);

    // The user step starts from the current value; a bad one is refused with the validator's message.
    const userStep = await waitForStep(page, step(2));
    assert(userStep.value === oldEntry.user, `the user box starts with "${userStep.value}", the setting says "${oldEntry.user}"`);
    await fillQuickInput(page, '-oProxyCommand=x');
    await page.keyboard.press('Enter');
    await sleep(500);
    const refused = await readStep(page);
    await shot('8b-user-refused');
    assert(refused && step(2).test(refused.title), `"-oProxyCommand=x" was accepted as SSH user (now at "${refused?.title}")`);
    assert(/user must be a user name/.test(refused.message), `no validation message for "-oProxyCommand=x": "${refused.message}"`);
    await answer(page, step(2), env.SSH_USER);

    // Back from the port step returns to the user step with the answer kept.
    await waitForStep(page, step(3));
    await page.locator('.quick-input-widget .quick-input-titlebar .codicon-quick-input-back').first().click({ timeout: 5_000 });
    const back = await waitForStep(page, step(2));
    assert(back.value === env.SSH_USER, `after Back the user box shows "${back.value}", expected "${env.SSH_USER}"`);
    await answer(page, step(2), env.SSH_USER);

    await answer(page, step(3), ''); // port: the per-node entry has it
    await answer(page, step(4), ''); // no jump host
    await answer(page, step(5), 'Yes');
    const keys = await waitForStep(page, step(6));
    await shot('8b-identity-step');
    assert(keys.items.some((i) => i.includes(`~/.ssh/${KEY_NAME}`)), `~/.ssh/${KEY_NAME} is not offered: ${JSON.stringify(keys.items)}`);
    assert(!keys.items.some((i) => /notes\.txt|\.pub\b/.test(i)), `a file that is not a private key is offered: ${JSON.stringify(keys.items)}`);
    assert(keys.items.some((i) => /ssh-agent only/.test(i)) && keys.items.some((i) => /Browse/.test(i)), `no "ssh-agent only" or "Browse…": ${JSON.stringify(keys.items)}`);
    await answer(page, step(6), KEY_NAME);
    const endpoint = await waitForStep(page, step(7));
    assert(endpoint.value === env.CRI_SOCKET, `the CRI endpoint box starts with "${endpoint.value}", the setting says "${env.CRI_SOCKET}"`);
    await answer(page, step(7), env.CRI_SOCKET);
    const confirm = await waitForStep(page, step(8));
    await shot('8b-confirm');
    assert(confirm.items.some((i) => /Save/.test(i)) && confirm.items.some((i) => /Cancel/.test(i)), `the last step offers ${JSON.stringify(confirm.items)}`);
    await answer(page, step(8), 'Save');

    const toast = await waitForToast(page, new RegExp(`^Node access for ${STACK_CONTEXT} saved`), { timeoutMs: STEP_TIMEOUT_MS, describeState: describe });
    await shot('8b-saved');
    assert(/remote user settings/.test(toast.message), `code-server runs the extension on its remote side, but the message says "${toast.message}"`);
    assert(toast.buttons.includes('Test Connection') && toast.buttons.includes('Open Settings (JSON)'), `the message offers [${toast.buttons.join(', ')}]`);

    const machine = readSettings(machineFile);
    const entry = machine['plegDoctor.nodeAccess.clusters']?.[STACK_CONTEXT];
    const expected = { ...oldEntry, user: env.SSH_USER, sudo: true };
    delete expected.port;
    delete expected.jumpHost;
    assert(JSON.stringify(entry) === JSON.stringify(expected), `Machine settings have ${STACK_CONTEXT} = ${JSON.stringify(entry)}, expected ${JSON.stringify(expected)}`);
    const files = machine['plegDoctor.nodeAccess.identityFiles'] ?? [];
    assert(files.includes(`~/.ssh/${KEY_NAME}`), `identityFiles in Machine settings: ${JSON.stringify(files)}, no ~/.ssh/${KEY_NAME}`);
    assert(files.includes(access.keyFile), `the key that was listed before (${access.keyFile}) is gone: ${JSON.stringify(files)}`);
    assert(machine['plegDoctor.nodeAccess.criEndpoint'] === env.CRI_SOCKET, `criEndpoint changed to ${machine['plegDoctor.nodeAccess.criEndpoint']}`);
    // The local User file is not where a remote extension host reads machine-scoped settings from.
    assert(readFileSync(userFile, 'utf8') === userTextBefore, 'User/settings.json changed: machine-scoped settings written where the extension host does not read them');
    saved = toast;
    return `"${toast.message}"; Machine/settings.json: ${STACK_CONTEXT} = ${JSON.stringify(entry)}, identityFiles = ${JSON.stringify(files)}`;
  });
  if (!wrote) await page.keyboard.press('Escape').catch(() => undefined);

  await check(`(8c) "Test Connection" takes a CRI snapshot of ${STACK_NODE} with the saved settings`, async () => {
    assert(saved, 'nothing was saved');
    const loginsBefore = acceptedLogins(env);
    const container = page.locator('.notifications-toasts .notification-toast-container', { hasText: `Node access for ${STACK_CONTEXT} saved` }).first();
    await container.locator('.monaco-button', { hasText: 'Test Connection' }).first().click({ timeout: 5_000 });
    const pick = await waitForQuickInput(page, { timeoutMs: STEP_TIMEOUT_MS, match: (q) => q.items.some((i) => i.includes(STACK_NODE)), describeState: describe });
    assert(/Test Connection/.test(pick.title), `the node pick is titled "${pick.title}"`);
    await fillQuickInput(page, STACK_NODE);
    await sleep(250);
    await page.keyboard.press('Enter');
    const deadline = Date.now() + SNAPSHOT_TIMEOUT_MS;
    let toasts = [];
    let result;
    while (Date.now() < deadline && !result) {
      toasts = await readToasts(page);
      result = toasts.find((t) => RESULT.test(t.message));
      if (!result && toasts.some((t) => t.severity === 'error')) break;
      await sleep(200);
    }
    await shot('8c-test-connection');
    assert(result, `no snapshot result within ${SNAPSHOT_TIMEOUT_MS} ms; toasts: ${JSON.stringify(toasts)}; ${await describe()}`);
    const logins = acceptedLogins(env) - loginsBefore;
    // The settings change closes pooled connections: the test really connected again, with the new settings.
    assert(logins >= 1, `sshd logged no new public-key login for ${env.SSH_USER}: the test connection reused an old one`);
    return `"${result.message}"; sshd: ${logins} new publickey login(s)`;
  });
}

/** (8d) The walkthrough opens from the Welcome page's command, lists its steps, and its node access button starts the flow. */
export async function runWalkthroughCheck({ page, check, shot }) {
  await check('(8d) the "Get started with PLEG Doctor" walkthrough lists its steps and its node access button starts Configure Node Access…', async () => {
    await runPaletteCommand(page, 'Welcome: Open Walkthrough...');
    await waitForQuickInput(page, { timeoutMs: STEP_TIMEOUT_MS, match: (q) => q.items.some((i) => i.includes('Get started with PLEG Doctor')), describeState: () => describePrompts(page) });
    await fillQuickInput(page, 'Get started with PLEG Doctor');
    await sleep(250);
    await page.keyboard.press('Enter');
    const titles = ['Pick your clusters', 'See the nodes and their verdicts', 'Set up node access', 'Diagnose a node', 'Ask what if'];
    const editor = page.locator('.part.editor');
    for (const title of titles) await editor.getByText(title, { exact: true }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await editor.getByText('Set up node access', { exact: true }).first().click({ timeout: 5_000 });
    const button = editor.getByRole('button', { name: 'Configure Node Access', exact: true });
    await button.first().waitFor({ timeout: 5_000 });
    await shot('8d-walkthrough');
    await button.first().click({ timeout: 5_000 });
    const first = await waitForStep(page, step(1));
    await page.keyboard.press('Escape');
    await page.locator('.quick-input-widget').first().waitFor({ state: 'hidden', timeout: 5_000 });
    await runPaletteCommand(page, 'View: Close Editor');
    return `${titles.length} steps shown; the button opened "${first.title}"`;
  });
}
