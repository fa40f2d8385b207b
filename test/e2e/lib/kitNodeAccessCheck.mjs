// Issue #29's node-side commands in a real VS Code on a kit's real node, with no SSH configured, inside the
// kit's one fault window before the freeze (test/integration/realk8s/nodeAccessInCodeServer.ts gathers the
// facts and calls this from treeInCodeServer.ts, once the agent DaemonSet runs):
//  - Take CRI Snapshot from the node's row: the document and its notification say "via agent pod NS/NAME,
//    taken … ago" (the agent's last snapshot, src/infra/nodeAccess/agent/agentSnapshot.ts) and the snapshot
//    holds the agent's own pod sandbox and the container id the API server reports for it;
//  - Diagnose Node from the row: no modal; the report's Evidence row for the node side is ok and names the
//    agent pod; no check and no "What could not be collected" line says the node side is missing;
//  - Open Kubelet Log from Node…: no SSH and the kubelet's NodeLogQuery gives nothing, so the debug pod is
//    offered in a modal naming its namespace/pod, image and privileges. Cancelled once: nothing is created.
//    Accepted: the pod shows on the API server, the log document opens as "Kubelet Log" and holds what
//    journalctl prints for the node's journal directory (`nodeJournal`; on the 1.26 kit "-- No entries --",
//    the directory holding no journal file, and the note that says so), and afterwards no debug pod is left
//    and no task the pod started still runs in containerd (a pod torn down during the freeze would hang).
// The judging is in plain functions (judge*), so a unit test can show each one refuse a wrong answer.
import {
  clearNotifications, clickModalButton, describePrompts, fillQuickInput, pickContextMenuItem, readActiveEditorText, readEditorTabs, readModal, readToasts,
  runPaletteCommand, waitForModal, waitForQuickInput,
} from './prompts.mjs';
import { evidenceRow, readReport, section, waitForDiagnosis } from './diagnoseCheck.mjs';
import { backToTree } from './kubeletLogCheck.mjs';
import { rowLocator } from './workbench.mjs';

const SNAPSHOT_TIMEOUT_MS = 60_000;
const DIAGNOSIS_TIMEOUT_MS = 90_000;
/** The NodeLogQuery's own deadline is 60 s (openNodeLogCommand.ts QUERY_TIMEOUT_MS); the modal follows it. */
const MODAL_TIMEOUT_MS = 90_000;
/** The pod's activeDeadlineSeconds is 120 (kubeletLogDebugPod.ts), plus its deletion. */
const LOG_TIMEOUT_MS = 180_000;
const GONE_TIMEOUT_MS = 60_000;
/** The shortest window the command offers (core/parse/logReaderNodeQuery.ts LOG_WINDOWS_MINUTES[0]). */
const LOG_WINDOW = { label: 'Last 15 minutes', minutes: 15 };
const CANCELLED = 'a debug pod was offered and not confirmed; nothing was created';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const flat = (s) => s.replace(/\s+/gu, ' ').trim();
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** "CRI snapshot of N (via agent pod NS/NAME, taken 5s ago): S pod sandboxes, C containers over KIND (MS ms)" (snapshotSummary). */
export function judgeSnapshotSummary(message, { node, agentPod }) {
  const m = new RegExp(`^CRI snapshot of ${escape(node)} \\((via agent pod ${escape(agentPod)}, taken [^)]+ ago)\\): (\\d+) pod sandboxes?, (\\d+) containers? over (\\w+)`, 'u').exec(message);
  assert(m, `the snapshot notification "${message}" does not read "CRI snapshot of ${node} (via agent pod ${agentPod}, taken … ago): S pod sandboxes, C containers over …"`);
  return { access: m[1], sandboxes: Number(m[2]), containers: Number(m[3]), transport: m[4] };
}

/**
 * The snapshot document against the facts: its way is the agent pod's (never SSH, never a debug pod, never
 * "taken now"), and it holds the agent's own sandbox and the container id the API server reports for it.
 */
export function judgeSnapshotDocument(doc, summary, { node, agentPod, agentContainerId }) {
  const [namespace, name] = agentPod.split('/');
  assert(doc.node === node, `the document is about node ${doc.node}, not ${node}`);
  assert(typeof doc.access === 'string' && doc.access.startsWith(`via agent pod ${agentPod}, taken `), `the document's access "${doc.access}" is not "via agent pod ${agentPod}, taken … ago"`);
  assert(doc.access === summary.access, `the document says "${doc.access}", its notification "${summary.access}"`);
  assert(doc.target === undefined, `the document names an SSH target ${JSON.stringify(doc.target)}`);
  assert(Number.isInteger(doc.ageSeconds) && doc.ageSeconds >= 0, `the document's ageSeconds is ${doc.ageSeconds}: an agent's snapshot says how old it is`);
  const snap = doc.snapshot ?? {};
  assert(Array.isArray(snap.sandboxes) && Array.isArray(snap.containers), 'the document has no snapshot.sandboxes/containers');
  assert(snap.sandboxes.length === summary.sandboxes && snap.containers.length === summary.containers, `the notification counts ${summary.sandboxes} sandboxes / ${summary.containers} containers, the document holds ${snap.sandboxes.length} / ${snap.containers.length}`);
  const sandbox = snap.sandboxes.find((s) => s.metadata?.name === name && s.metadata?.namespace === namespace);
  assert(sandbox, `no sandbox of the agent pod ${agentPod} among ${snap.sandboxes.map((s) => `${s.metadata?.namespace}/${s.metadata?.name}`).join(', ') || 'none'}`);
  const container = snap.containers.find((c) => c.id === agentContainerId);
  assert(container, `the agent's container ${agentContainerId} (as the API server reports it) is not among the document's containers ${snap.containers.map((c) => c.id.slice(0, 13)).join(', ') || 'none'}`);
  assert(container.podSandboxId === sandbox.id, `the agent's container runs in sandbox ${container.podSandboxId}, not the agent pod's ${sandbox.id}`);
  assert(snap.runtime?.name === 'containerd', `the snapshot's runtime is ${JSON.stringify(snap.runtime)}, not containerd`);
  return { sandbox, container };
}

/**
 * The report's node side: its Evidence row ok and naming the agent pod, and nothing saying it is missing
 * (a skipped or failed node side reads "nodeSide: skipped — …" / "nodeSide: failed — …" in the checks,
 * sourceNotes.ts missingNote, and is listed under "What could not be collected").
 */
export function judgeDiagnosisReport(text, { agentPod }) {
  const row = evidenceRow(text, 'nodeSide');
  assert(row && /^\|\s*`?nodeSide`?\s*\|\s*ok\s*\|/u.test(row), `the Evidence row of nodeSide is not ok: ${row ?? '(no row)'}\n${(section(text, 'Evidence') ?? '').slice(0, 1200)}`);
  assert(row.includes(`via agent pod ${agentPod}, taken `), `the Evidence row of nodeSide does not name the agent pod ${agentPod}: ${row}`);
  // gaps.ts collectGaps: a node side that is not ok is listed as "The node side …" or "node side (SSH + CRI) …".
  const gaps = (section(text, 'What could not be collected') ?? '').split('\n').filter((l) => /^- (The node side|node side \(SSH \+ CRI\))/u.test(l));
  assert(gaps.length === 0, `the report lists the node side as not collected: ${gaps.join(' / ')}`);
  const checks = (section(text, 'Checks') ?? '').split('\n');
  const missing = checks.filter((l) => /nodeSide: (skipped|failed|not collected|no answer|unexpected)/u.test(l));
  assert(missing.length === 0, `checks say the node side is missing: ${missing.join(' / ')}`);
  // And checks judged it: density counts exited containers "in the CRI snapshot", cni reads "CRI Status"
  // (checks/density.ts, checks/cni.ts); neither is said without the node side.
  const judged = checks.filter((l) => /\bCRI (snapshot|Status)\b/u.test(l));
  assert(judged.length > 0, `no check cites the CRI snapshot or CRI Status: ${checks.join(' / ').slice(0, 1200)}`);
  return `${row.trim()}; ${judged.length} checks cite the CRI snapshot`;
}

/**
 * The debug pod's modal (editorAccessPresentation.ts debugPodModal, debugPodSpec.ts debugPodConfirmation):
 * it names the pod, the image the agent DaemonSet runs and where it came from, the journal mount and the
 * user it runs as, and why neither the agent nor SSH could be used. Returns the pod (NS/NAME).
 */
export function judgeDebugPodModal(modal, { node, namespace, agentImage }) {
  const detail = flat(modal.detail);
  assert(modal.message === `Reach node ${node} through a debug pod?`, `the modal asks "${modal.message}"`);
  assert(modal.blocking, 'the debug pod dialog does not block the workbench (not modal)');
  assert(modal.buttons.includes('Create Debug Pod') && modal.buttons.includes('Cancel'), `the modal's buttons are [${modal.buttons.join(', ')}]`);
  const pod = new RegExp(`Create pod (${escape(namespace)}/pleg-doctor-debug-[a-z0-9]{5}) on node ${escape(node)}\\?`, 'u').exec(detail)?.[1];
  assert(pod, `the modal does not name the pod it creates in ${namespace} on ${node}: "${detail}"`);
  const wanted = [
    `image: ${agentImage}`,
    "privileges: the node's network namespace (hostNetwork); /var/log/journal from the node, read-only; root (user 0) without any capability",
    'priority class system-node-critical; tolerates every taint',
    'no service-account token, no capabilities, read-only root filesystem',
    `image from: DaemonSet ${namespace}/pleg-doctor-agent`,
    "the agent does not serve the kubelet's log; no SSH is configured for the node; the NodeLogQuery failed (",
  ];
  const absent = wanted.filter((w) => !detail.includes(w));
  assert(absent.length === 0, `the modal's detail lacks ${absent.map((w) => `"${w}"`).join(', ')}: "${detail}"`);
  return pod;
}

/**
 * The log document against journalctl on the node's journal directory (`dir`) for a window around the
 * command's. Where journalctl finds no entry ("-- No entries --"; the 1.26 kit's kubelet logs to a file, and
 * the node's /var/log/journal holds no journal file), the document must say exactly that, and, when
 * journalctl also says "No journal files were found.", end with the note naming the directory
 * (kubeletLogDebugPod.ts debugPodLogNote); otherwise it must hold kubelet entries, each one a line journalctl
 * printed.
 */
export function judgeNodeLog(text, journal, dir) {
  const lines = (s) => s.replace(/\r\n/gu, '\n').split('\n').filter((l) => l !== '');
  const doc = lines(text);
  const expected = lines(journal.stdout);
  if (expected.length === 1 && expected[0] === '-- No entries --') {
    const noFiles = journal.stderr.includes('No journal files were found.');
    const note = `-- PLEG Doctor (debug pod): no journal file in ${dir} on the node: `;
    const shown = `${doc.length} lines: ${doc.slice(0, 3).join(' / ')}`;
    assert(doc[0] === '-- No entries --', `journalctl finds no kubelet entry on the node (${journal.stderr.trim() || 'no message'}), the document holds ${shown}`);
    if (noFiles) assert(doc.length === 2 && doc[1].startsWith(note), `journalctl finds no journal file in ${dir}, the document does not end with "${note}…": ${shown}`);
    else assert(doc.length === 1, `journalctl finds journal files but no entry, the document holds ${shown}`);
    return `"-- No entries --" as journalctl -D ${dir} prints it (its stderr: ${journal.stderr.trim() || 'nothing'})${noFiles ? ', and the note that the directory holds no journal file' : ''}`;
  }
  const entries = doc.filter((l) => /^\w{3} \d\d \d\d:\d\d:\d\d\.\d{6} \S+ kubelet\[\d+\]: /u.test(l));
  assert(entries.length > 0, `journalctl prints ${expected.length} lines for the node, the document no kubelet entry: ${doc.slice(0, 3).join(' / ')}`);
  const known = new Set(expected);
  const foreign = entries.filter((l) => !known.has(l));
  assert(foreign.length === 0, `${foreign.length} of the document's entries are not journalctl's, first: ${foreign[0]}`);
  return `${entries.length} kubelet entries, each as journalctl prints it`;
}

/** After the pod: none of ours on the API server, and no task started since `before` still running. */
export function judgeNothingLeft(pods, tasksBefore, tasksNow) {
  const started = tasksNow.filter((t) => !tasksBefore.includes(t));
  const problems = [];
  if (pods.length > 0) problems.push(`debug pods left on the API server: ${pods.join(', ')}`);
  if (started.length > 0) problems.push(`containerd still runs ${started.length} task(s) started during the check: ${started.join(', ')}`);
  return problems;
}

async function fromRow(page, node, label) {
  await page.mouse.move(5, 5);
  await pickContextMenuItem(page, rowLocator(page, node).first().locator('.label-name'), label);
}

/** Polls `read` until `done` holds of its answer; throws with the last answer at the deadline. */
async function poll(what, read, done, timeoutMs, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  let last;
  do {
    last = await read();
    if (done(last)) return last;
    await sleep(everyMs);
  } while (Date.now() < deadline);
  throw new Error(`${what} within ${timeoutMs / 1000} s; last: ${JSON.stringify(last).slice(0, 600)}`);
}

/** A toast matching `pattern`; fails at once on an error toast or on a modal (`allowModal` false). */
async function waitForResult(page, pattern, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const [modal, toasts] = await Promise.all([readModal(page), readToasts(page)]);
    assert(!modal, `a modal appeared during the ${what}: "${modal?.message}" ${flat(modal?.detail ?? '')}`);
    const failed = toasts.find((t) => t.severity === 'error');
    assert(!failed, `the ${what} failed: "${failed?.message}"`);
    const done = toasts.find((t) => pattern.test(t.message) && t.severity !== 'progress');
    if (done) return done;
    await sleep(150);
  }
  throw new Error(`no notification matching ${pattern} within ${timeoutMs / 1000} s; on screen: ${await describePrompts(page)}`);
}

async function snapshotStep({ page, node, facts, shot, log, keep }) {
  await runPaletteCommand(page, 'View: Close All Editors');
  await clearNotifications(page);
  await fromRow(page, node, 'Take CRI Snapshot');
  const toast = await waitForResult(page, new RegExp(`^CRI snapshot of ${escape(node)} \\(`, 'u'), SNAPSHOT_TIMEOUT_MS, 'CRI snapshot');
  const summary = judgeSnapshotSummary(toast.message, facts);
  await page.locator('.part.editor .tabs-container .tab', { hasText: `${node}.cri-snapshot.json` }).first().waitFor({ timeout: 15_000 });
  await sleep(300);
  const text = await readActiveEditorText(page);
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`the snapshot document is not JSON (${err.message}): ${text.slice(0, 300)}`, { cause: err });
  }
  await shot('node-access-snapshot');
  keep('snapshot', { message: toast.message, document: doc });
  const { sandbox } = judgeSnapshotDocument(doc, summary, facts);
  log(`Take CRI Snapshot in code-server, no SSH: ${toast.severity} "${toast.message}"; the agent's sandbox ${sandbox.id.slice(0, 13)} and container ${facts.agentContainerId.slice(0, 13)} in the document`);
}

async function diagnoseStep({ page, node, facts, shot, log, keep }) {
  await runPaletteCommand(page, 'View: Close All Editors');
  await clearNotifications(page);
  await fromRow(page, node, 'Diagnose Node');
  const { toast } = await waitForDiagnosis(page, node, DIAGNOSIS_TIMEOUT_MS);
  const text = await readReport(page, node);
  await shot('node-access-diagnosis');
  keep('report', text);
  const row = judgeDiagnosisReport(text, facts);
  log(`Diagnose Node in code-server, no SSH: ${toast.severity} "${toast.message}"; Evidence ${row}`);
}

/** Open Kubelet Log from Node… up to its modal (the window's quick pick answered); the modal as read. */
async function logUpToModal(page, node) {
  await fromRow(page, node, 'Open Kubelet Log from Node…');
  await waitForQuickInput(page, { timeoutMs: 15_000, match: (q) => q.items.some((i) => i.includes(LOG_WINDOW.label)), describeState: () => describePrompts(page) });
  await fillQuickInput(page, LOG_WINDOW.label);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: LOG_WINDOW.label }).first().waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
  return waitForModal(page, { timeoutMs: MODAL_TIMEOUT_MS, describeState: () => describePrompts(page) });
}

async function kubeletLogStep({ page, node, facts, shot, log, keep }) {
  await runPaletteCommand(page, 'View: Close All Editors');
  await clearNotifications(page);
  assert(facts.debugPods().length === 0, `debug pods exist before the check: ${facts.debugPods().join(', ')}`);
  const tasksBefore = facts.runningTasks();

  // Cancelled: the error says nothing was created, and the API server never had a pod of ours.
  const offered = await logUpToModal(page, node);
  await sleep(400); // the dialog fades in
  await shot('node-access-debug-pod-modal');
  keep('modal', offered);
  const offeredPod = judgeDebugPodModal(offered, facts);
  await clickModalButton(page, 'Cancel');
  const refused = await poll('no error naming the declined debug pod', () => readToasts(page), (ts) => ts.some((t) => t.severity === 'error' && t.message.includes(CANCELLED)), 15_000, 200);
  await sleep(2_000);
  const afterCancel = facts.debugPods();
  assert(afterCancel.length === 0, `Cancel on the modal, yet the API server has ${afterCancel.join(', ')}`);
  log(`Open Kubelet Log from Node, modal cancelled: "${refused.find((t) => t.message.includes(CANCELLED)).message.slice(0, 300)}"; no pod (${offeredPod} was never created)`);

  // Accepted: the pod runs on the API server, the document opens, the pod is gone.
  await clearNotifications(page);
  const sinceS = Math.floor(Date.now() / 1000) - LOG_WINDOW.minutes * 60 - 5;
  const modal = await logUpToModal(page, node);
  const pod = judgeDebugPodModal(modal, facts);
  await clickModalButton(page, 'Create Debug Pod');
  let seen = false;
  const tabLabel = `${node}-kubelet-debug-pod-`;
  await poll(
    `no ${tabLabel}… document`,
    async () => {
      if (!seen && facts.debugPods().includes(pod)) seen = true;
      const failed = (await readToasts(page)).find((t) => t.severity === 'error');
      assert(!failed, `the kubelet log through the debug pod failed: "${failed?.message}"`);
      return readEditorTabs(page);
    },
    (tabs) => tabs.some((t) => t.active && (t.aria.startsWith(tabLabel) || t.label.startsWith(tabLabel))),
    LOG_TIMEOUT_MS,
  );
  const untilS = Math.ceil(Date.now() / 1000) + 5;
  await sleep(500);
  const mode = ((await page.locator('#status\\.editor\\.mode').first().textContent({ timeout: 5_000 }).catch(() => '')) ?? '').trim();
  const text = await readActiveEditorText(page);
  await shot('node-access-kubelet-log');
  const left = await poll('the debug pod and its tasks not gone', () => judgeNothingLeft(facts.debugPods(), tasksBefore, facts.runningTasks()), (p) => p.length === 0, GONE_TIMEOUT_MS, 1_000).catch((err) => {
    throw new Error(`${err.message}: ${judgeNothingLeft(facts.debugPods(), tasksBefore, facts.runningTasks()).join('; ')}`, { cause: err });
  });
  assert(left.length === 0, left.join('; '));
  assert(seen, `the API server never showed ${pod} while the log was fetched: was it created?`);
  assert(mode === 'Kubelet Log', `the log document's language is "${mode}", not Kubelet Log`);
  const journal = facts.nodeJournal(sinceS, untilS);
  keep('kubeletLog', { text, journal, window: { sinceS, untilS } });
  const judged = judgeNodeLog(text, journal, facts.journalDir);
  log(`Open Kubelet Log from Node, modal accepted: ${pod} ran on the node and is gone; the document (${mode}) holds ${judged}`);
}

/**
 * The three commands, one after the other, on `node`; then the editors are closed and the PLEG Doctor view
 * shown again, so the timeline opens from the row next. `facts`: { node, agentPod (NS/NAME),
 * agentContainerId, agentImage, namespace (the debug pod's), debugPods(), runningTasks(), journalDir (the
 * one the pod mounts), nodeJournal(sinceS, untilS) → { stdout, stderr } }. `shot(name)`: the session's screenshot; `keep(name, value)`:
 * what the editor showed (document, report, modal, log), kept for whoever reads a failure.
 */
export async function runKitNodeAccessChecks({ page, facts, shot, log, keep }) {
  const ctx = { page, node: facts.node, facts, shot, log, keep };
  try {
    await snapshotStep(ctx);
    await diagnoseStep(ctx);
    await kubeletLogStep(ctx);
  } finally {
    // A modal left open would block the timeline's steps after this one.
    if (await readModal(page).catch(() => undefined)) await clickModalButton(page, 'Cancel').catch(() => page.keyboard.press('Escape'));
    await backToTree(page).catch((err) => log(`back to the tree: ${err.message}`));
  }
}
