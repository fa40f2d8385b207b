// The tree against a REAL kube-apiserver + kubelet 1.26 (test/support/real-cluster.sh): its kubeconfig is
// one more file in the workbench's KUBECONFIG, so the real cluster is one more context. The check sees the
// real node's row Ready, freezes the cluster's containerd (SIGSTOP), waits the ≈ 3.3 minutes the real
// kubelet takes to report "PLEG is not healthy" until the row says PLEG with the real kubelet's message in
// its tooltip, takes the README screenshot, thaws the runtime (SIGCONT, also on every failure path) and
// sees the row turn Ready again without a refresh. The freeze starts only here: earlier, the NotReady real
// node would change what the other checks count (the status bar's NotReady total).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './tools.mjs';
import { run } from './processes.mjs';
import { findRow, hoverRow, readTreeRows, rowLocator, waitForDescription } from './workbench.mjs';

const SCRIPT = join(REPO, 'test/support/real-cluster.sh');
const PLEG_TIMEOUT_MS = 330_000;
const READY_AGAIN_TIMEOUT_MS = 90_000;
const REAL_MESSAGE = /PLEG is not healthy: pleg was last seen active (\S+) ago; threshold is 3m0s/;

function env(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

function thaw() {
  return spawnSync('bash', [SCRIPT, 'thaw'], { encoding: 'utf8', timeout: 30_000 });
}

/**
 * Brings the real cluster up (or reuses a running one). Never rejects: resolves with
 * { kubeconfig, nodeName, startedHere } or { error }.
 */
export async function startRealCluster({ log }) {
  try {
    const { stdout, stderr } = await run('bash', [SCRIPT, 'up'], { timeoutMs: 300_000 });
    const e = env(stdout);
    if (!e.KUBECONFIG || !e.NODE_NAME) throw new Error(`real-cluster.sh up printed no KUBECONFIG/NODE_NAME:\n${stdout}`);
    const real = { kubeconfig: e.KUBECONFIG, nodeName: e.NODE_NAME, startedHere: !/reusing it/.test(stderr) };
    log(`real cluster ${real.startedHere ? 'started' : 'reused'}: node ${real.nodeName}`);
    return real;
  } catch (error) {
    return { error };
  }
}

/** The workbench's KUBECONFIG: the stand-ins' file, then the real cluster's when it came up. */
export async function withRealKubeconfig(kubeconfig, realReady) {
  const real = await realReady;
  return real.error ? kubeconfig : `${kubeconfig}:${real.kubeconfig}`;
}

/** Collapses every context row but the one `nodeName` is listed under. */
async function collapseOtherContexts(page, nodeName) {
  const rows = await readTreeRows(page);
  let own;
  for (let i = rows.findIndex((r) => r.label === nodeName); i >= 0; i--) {
    if (rows[i].level === 1) {
      own = rows[i].label;
      break;
    }
  }
  for (const r of rows) {
    if (r.level !== 1 || r.label === own || r.expanded !== 'true') continue;
    const row = rowLocator(page, r.label).first();
    await row.locator('.monaco-tl-twistie').click({ timeout: 5_000 }).catch(() => row.click({ timeout: 5_000 }));
  }
  await new Promise((r) => setTimeout(r, 300));
}

/** `ctx`: { page, check, shot, log, realReady, readmeClip }. */
export async function runRealClusterCheck({ page, check, shot, log, realReady, readmeClip }) {
  const real = await realReady;
  await check('(R) a real kubelet 1.26 goes "PLEG is not healthy": its row turns PLEG with the real message, and Ready after SIGCONT', async () => {
    if (real.error) throw new Error(`no real cluster: ${real.error.message}`);
    try {
      await page.mouse.move(5, 5);
      const before = await findRow(page, real.nodeName, /^Ready\b/, 30_000);
      if (!before || !/^Ready\b/.test(before.description)) throw new Error(`${real.nodeName} is ${before ? `"${before.description}"` : 'not in the tree'} before the freeze, expected Ready`);
      const frozen = spawnSync('bash', [SCRIPT, 'freeze'], { encoding: 'utf8', timeout: 30_000 });
      if (frozen.status !== 0) throw new Error(`real-cluster.sh freeze: ${frozen.stderr}`);
      const frozenAt = Date.now();
      log(`real cluster: containerd frozen; waiting for the kubelet to report PLEG (≈ 3.3 min)`);
      const row = await findRow(page, real.nodeName, /^PLEG\b/, PLEG_TIMEOUT_MS);
      const waited = ((Date.now() - frozenAt) / 1000).toFixed(0);
      if (!row) throw new Error(`${real.nodeName} is not in the tree ${waited} s after the freeze; rows: ${(await readTreeRows(page)).map((r) => r.label).join(', ')}`);
      if (!/^PLEG\b/.test(row.description)) throw new Error(`${real.nodeName} shows "${row.description}" ${waited} s after the runtime was frozen, expected PLEG`);
      log(`real node row: "${row.description}" ${waited} s after the freeze`);

      // The real context is the last one: fold the others so its row is inside the README's clip.
      await collapseOtherContexts(page, real.nodeName);
      const hover = await hoverRow(page, real.nodeName, (text) => REAL_MESSAGE.test(text));
      if (!REAL_MESSAGE.test(hover)) throw new Error(`the tooltip of ${real.nodeName} does not quote the kubelet's PLEG message; hover: "${hover.slice(0, 600)}"`);
      // What the real API server holds now; the kubelet rewrites it every 10 s, so the tooltip may quote the
      // previous value: same sentence, an older "last seen active" duration.
      const live = spawnSync('kubectl', ['--kubeconfig', real.kubeconfig, 'get', 'node', real.nodeName, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].message}'], { encoding: 'utf8', timeout: 20_000 });
      if (!REAL_MESSAGE.test(live.stdout)) throw new Error(`the API server's Ready message is "${live.stdout}"`);
      const quoted = REAL_MESSAGE.exec(hover)[0];
      await new Promise((r) => setTimeout(r, 800));
      await shot('real-node-pleg', readmeClip);
      await page.mouse.move(5, 5);

      const thawed = thaw();
      if (thawed.status !== 0) throw new Error(`real-cluster.sh thaw: ${thawed.stderr}`);
      const thawedAt = Date.now();
      let back;
      try {
        back = await waitForDescription(page, real.nodeName, /^Ready\b/, { timeoutMs: READY_AGAIN_TIMEOUT_MS, pollMs: 250 });
      } catch {
        const now = (await readTreeRows(page)).find((r) => r.label === real.nodeName);
        throw new Error(`${real.nodeName} still shows "${now?.description}" ${READY_AGAIN_TIMEOUT_MS / 1000} s after SIGCONT`);
      }
      await shot('real-node-ready-again');
      return `"${before.description}" before; "${row.description}" after ${waited} s frozen; tooltip quotes "${quoted}" (API now: "${REAL_MESSAGE.exec(live.stdout)[0]}"); "${back.description}" ${((Date.now() - thawedAt) / 1000).toFixed(1)} s after SIGCONT`;
    } finally {
      thaw();
    }
  });
}

/** Thaws the runtime, and takes down (and checks) a cluster this run started; records the outcome. */
export async function stopRealCluster({ realReady, record }) {
  const real = await realReady;
  if (real.error) return;
  thaw();
  if (!real.startedHere) return;
  const name = 'the real cluster this run started is down (real-cluster.sh check passes)';
  try {
    await run('bash', [SCRIPT, 'down'], { timeoutMs: 180_000 });
    await run('bash', [SCRIPT, 'check'], { timeoutMs: 60_000 });
    record(name, true);
  } catch (err) {
    record(name, false, err.message.split('\n').slice(0, 12).join('\n'));
  }
}
