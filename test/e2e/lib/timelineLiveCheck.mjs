/* global document, MouseEvent */
// Check (12): the PLEG timeline live on the real node stack. The stand-in node node-stack-01 is the real
// sshd + containerd (host key trusted and passphrase stored by check (6)). The panel must show relists
// whose CRI calls carry the real runtime's latencies; then containerd is SIGSTOPped with a short threshold
// and runtime request timeout configured for the test, and the panel must (a) say the threshold will be
// crossed before it is, (b) turn unhealthy and draw the predicted NotReady band, and (c) recover after
// SIGCONT. The runtime is continued whatever happens.
import { runPaletteCommand } from './prompts.mjs';
import { openTimeline, panelShot, readTimeline, waitForTimeline } from './timelineCheck.mjs';

const THRESHOLD_MS = 10_000;
const RUNTIME_REQUEST_TIMEOUT_MS = 2_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Hovers the right end of the session chart (the newest relist) and reads the details table. */
async function newestRelistDetails(page, node) {
  for (const frame of page.frames()) {
    const details = await frame
      .evaluate((wanted) => {
        const title = document.querySelector('#session-title')?.textContent ?? '';
        if (!title.endsWith(` ${wanted}`)) return undefined;
        const over = document.querySelector('#session-chart .u-over');
        if (!over) return undefined;
        const box = over.getBoundingClientRect();
        for (const type of ['mouseenter', 'mousemove']) {
          over.dispatchEvent(new MouseEvent(type, { clientX: box.right - 2, clientY: box.top + box.height / 2, bubbles: true }));
        }
        const root = document.querySelector('#relist-details');
        const rows = [...(root?.querySelectorAll('table.rpcs tr') ?? [])].slice(1).map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
        return { heading: root?.querySelector('h3')?.textContent ?? '', rows };
      }, node)
      .catch(() => undefined);
    if (details) return details;
  }
  return undefined;
}

/**
 * Written with the node-access settings before code-server starts (a settings file edited while it runs
 * is not always read again before the panel opens). Only the live timeline reads them.
 */
export const TIMELINE_LIVE_SETTINGS = {
  'plegDoctor.timeline.thresholdMs': THRESHOLD_MS,
  'plegDoctor.timeline.runtimeRequestTimeoutMs': RUNTIME_REQUEST_TIMEOUT_MS,
  'plegDoctor.timeline.periodMs': 1_000,
};

export async function runTimelineLiveCheck({ page, check, shot, log, node, containerdPid }) {
  let frozen = false;
  const thaw = () => {
    if (!frozen) return;
    process.kill(containerdPid, 'SIGCONT');
    frozen = false;
  };
  try {
    await check(`(12a) Open PLEG Timeline on ${node} (the real node stack): live relists with the real runtime's CRI latencies`, async () => {
      await runPaletteCommand(page, 'View: Close All Editors');
      await openTimeline(page, node, { via: 'contextMenu' });
      // Until the first relist over SSH ends, the prediction can come from the kubelet's metrics alone
      // ("healthy: the kubelet last relisted 1.7s ago, threshold 10s"): wait for the model's own, with its budget.
      const state = await waitForTimeline(page, node, (s) => s.label.startsWith('Live') && /^healthy: .*\bbudget /.test(s.prediction) && s.mainPixels > 0, { timeoutMs: 45_000 });
      // "budget 8.98s": threshold − period − GetPods; proves the test's threshold reached the live feed.
      const budget = /budget (\d+(?:\.\d+)?)s\b/.exec(state.prediction);
      assert(budget && Number(budget[1]) < THRESHOLD_MS / 1000, `the live feed does not use the ${THRESHOLD_MS / 1000} s threshold configured for the test: "${state.prediction}"`);
      let details;
      for (let i = 0; i < 20 && !(details?.rows.length > 0); i++) {
        details = await newestRelistDetails(page, node);
        if (!(details?.rows.length > 0)) await sleep(500);
      }
      assert(details && details.rows.length > 0, `hovering the chart shows no relist's CRI calls: ${JSON.stringify(details)}`);
      const lists = details.rows.filter((r) => r[0] === 'ListPodSandbox' || r[0] === 'ListContainers');
      assert(lists.length >= 2, `the newest relist lists no sandboxes and containers: ${JSON.stringify(details.rows)}`);
      const latencies = lists.map((r) => Number(r[3]));
      // Real calls over SSH to a real containerd: measured, not zero, not a placeholder, and well under the deadline.
      assert(latencies.every((ms) => Number.isFinite(ms) && ms > 0 && ms < RUNTIME_REQUEST_TIMEOUT_MS), `ListPodSandbox/ListContainers latencies are not real measurements: ${latencies.join(', ')}`);
      assert(new Set(latencies.map((ms) => ms.toFixed(2))).size > 1 || latencies.length === 1, `every call has the same latency (${latencies[0]} ms): not measured`);
      await shot('12a-timeline-live');
      await panelShot(page, shot, 'timeline-live-healthy');
      return `${state.label}; ${state.prediction}; ${details.heading}; ${lists.map((r) => `${r[0]} ${r[3]} ms`).join(', ')}`;
    });

    await check(`(12b) containerd SIGSTOPped (threshold ${THRESHOLD_MS / 1000} s, runtime request timeout ${RUNTIME_REQUEST_TIMEOUT_MS / 1000} s): the panel predicts the crossing, then turns unhealthy with the predicted NotReady band`, async () => {
      const before = await readTimeline(page, node);
      // Healthy so far: the predicted NotReady lane is empty (opening the panel is not a kubelet start).
      assert(before && before.lanePixels.length >= 3 && before.lanePixels[1] < 50, `the predicted NotReady lane is drawn while the node is healthy: ${JSON.stringify(before?.lanePixels)}`);
      process.kill(containerdPid, 'SIGSTOP');
      frozen = true;
      const frozenAt = Date.now();
      log(`containerd ${containerdPid} SIGSTOPped`);
      const crossing = await waitForTimeline(page, node, (s) => s.prediction.startsWith('at this rate the threshold is crossed') || s.prediction.startsWith('PLEG is unhealthy'), { timeoutMs: 20_000 });
      const predictedAfterS = (Date.now() - frozenAt) / 1000;
      assert(crossing.prediction.startsWith('at this rate the threshold is crossed'), `the panel did not predict the crossing before PLEG turned unhealthy: "${crossing.prediction}"`);
      // The predicted NotReady band starts at the predicted post: the kubelet's first status sync after the
      // crossing, which the hung runtime delays by up to a sync (10.4 s) plus the runtime request timeout.
      const unhealthy = await waitForTimeline(page, node, (s) => s.prediction.startsWith('PLEG is unhealthy') && s.lanePixels[1] > (before?.lanePixels[1] ?? 0) + 100, { timeoutMs: THRESHOLD_MS + 45_000 });
      const unhealthyAfterS = (Date.now() - frozenAt) / 1000;
      assert(predictedAfterS < unhealthyAfterS, 'the prediction did not come first');
      const details = await newestRelistDetails(page, node);
      assert(details?.rows.some((r) => r[4].length > 0), `the newest relist shows no failed CRI call: ${JSON.stringify(details)}`);
      await shot('12b-timeline-live-frozen');
      await panelShot(page, shot, 'timeline-live-unhealthy');
      return `predicted after ${predictedAfterS.toFixed(1)} s ("${crossing.prediction}"); unhealthy after ${unhealthyAfterS.toFixed(1)} s ("${unhealthy.prediction}"); predicted-NotReady lane ${before?.lanePixels[1] ?? 0} → ${unhealthy.lanePixels[1]} px`;
    });

    await check('(12c) SIGCONT: relists succeed again and the panel says healthy', async () => {
      thaw();
      const state = await waitForTimeline(page, node, (s) => s.prediction.startsWith('healthy'), { timeoutMs: 30_000 });
      return state.prediction;
    });
  } finally {
    thaw();
    await runPaletteCommand(page, 'View: Close All Editors').catch(() => undefined);
  }
}
