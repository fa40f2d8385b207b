// Check (9f): the demo's node at risk (prod-eu-node-09: Ready, node-problem-detector's PLEGAtRisk=True while
// one slow relist hangs) in the real workbench: its row reads "PLEG at risk · NotReady in ~1m…s" and counts
// down by the second, its tooltip quotes NPD's condition, and the README's shot of the tree shows it.
// The demo is frozen (live: false), so the node is made fresh first: the script's own state 40 s after a
// new origin, the state the stand-in started with (the countdown of the first one may have run out).
import { hoverRow, readHover, readTreeRows } from './workbench.mjs';

export const AT_RISK_NODE = 'prod-eu-node-09';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const COUNTDOWN = /^PLEG at risk · NotReady in ~(?:(\d+)m)?(\d+)s$/;

function assert(cond, message) {
  if (!cond) throw new Error(message);
}

/** Seconds of "PLEG at risk · NotReady in ~1m25s" (also a headline's "(NotReady in ~1m25s)"); undefined without one. */
export function countdownSeconds(text) {
  const m = /NotReady in ~(?:(\d+)m)?(\d+)s\b/.exec(text ?? '');
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2]) : undefined;
}

/** Puts the at-risk node back to its fresh state in the stand-in (PLEGAtRisk just written by NPD). */
export function refreshAtRiskNode(demo, demoModules) {
  const found = demoModules.findDemoNode(AT_RISK_NODE);
  assert(found?.node.role === 'pleg-at-risk', `demo script: ${AT_RISK_NODE} is not the at-risk node`);
  const now = Date.now();
  demo.upsert(found.context.context, demoModules.demoNodeAt(found.node, now - 40_000, now));
}

async function rowOf(page, node) {
  return (await readTreeRows(page)).find((r) => r.label === node);
}

export async function runAtRiskCheck({ page, check, shot, demo, demoModules, readmeClip }) {
  await check(`(9f) ${AT_RISK_NODE} (Ready, PLEGAtRisk=True) reads "PLEG at risk · NotReady in ~…" and counts down; its tooltip quotes node-problem-detector's condition`, async () => {
    await page.mouse.move(5, 5);
    // The fresh condition shows once the countdown is back up (it only falls otherwise).
    const before = countdownSeconds((await rowOf(page, AT_RISK_NODE))?.description) ?? -1;
    refreshAtRiskNode(demo, demoModules);
    let first;
    for (let i = 0; i < 50 && !(COUNTDOWN.test(first?.description ?? '') && countdownSeconds(first.description) > before); i++) {
      await sleep(200);
      first = await rowOf(page, AT_RISK_NODE);
    }
    assert(first && COUNTDOWN.test(first.description), `${AT_RISK_NODE} says "${first?.description ?? '(absent)'}", expected "PLEG at risk · NotReady in ~…"`);
    const firstAt = Date.now();
    await sleep(3_000);
    const later = await rowOf(page, AT_RISK_NODE);
    const drop = countdownSeconds(first.description) - countdownSeconds(later?.description);
    const elapsed = (Date.now() - firstAt) / 1000;
    // Redrawn every second: after ~3 s the countdown is 2-5 s lower (a read may fall either side of a redraw).
    assert(drop >= elapsed - 2 && drop <= elapsed + 2, `the countdown went from "${first.description}" to "${later?.description}" in ${elapsed.toFixed(1)} s`);
    const hover = await hoverRow(page, AT_RISK_NODE, (text) => text.includes('PLEGAtRisk=True') && text.includes('NotReady predicted in'));
    assert(hover.includes('node-problem-detector: PLEGAtRisk=True (NotReadyPredicted)'), `the tooltip does not name node-problem-detector's PLEGAtRisk=True (NotReadyPredicted): "${hover.slice(0, 500)}"`);
    assert(/NotReady in ~\S+: the prediction counted from when node-problem-detector wrote it/.test(hover), `the tooltip gives no countdown: "${hover.slice(0, 500)}"`);
    await sleep(2_500); // past two countdown redraws: the hovered row is spared, so its tooltip stays open
    const still = await readHover(page);
    await shot('at-risk-tooltip');
    await shot('nodes-tree-at-risk', readmeClip);
    assert(still.includes('PLEGAtRisk=True'), `the tooltip of ${AT_RISK_NODE} closed within 2.5 s of hovering (the countdown's redraw must spare a hovered row); hover now: "${still.slice(0, 200)}"`);
    await page.mouse.move(5, 5);
    return `"${first.description}" → "${later.description}" after ${elapsed.toFixed(1)} s; tooltip: ${hover.split('\n').filter((l) => l.includes('PLEGAtRisk')).join(' / ').slice(0, 200)}`;
  });
}
