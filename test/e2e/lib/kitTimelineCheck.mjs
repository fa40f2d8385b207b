// The PLEG Timeline of a kit's real node in code-server through its agent pod, with no SSH configured,
// checked inside the kit's one fault window (test/integration/realk8s/treeInCodeServer.ts drives it from the
// window's hooks). Opened from the node's row once the agent runs, the panel must name the way
// ("Live — via agent pod NS/NAME") and receive relists; from then on a recorder notes, with the time it saw
// each: every change of the panel's prediction sentence or feed state (with its relist count), and, while
// node-problem-detector says PLEGAtRisk=True, the tree's tooltip quoting it. The window holds both against
// the kubelet's posts (its `posts`). Every round also notes the panel's headline verdict beside the tree
// row's words: while the row says the node is NotReady for its runtime or PLEG, the panel (whose Ready now
// comes from the editor's own watch of the Node, as the row's) must not say Ready.
import { openTimeline, readTimeline, waitForTimeline } from './timelineCheck.mjs';

/** The mode line of a panel fed by the agent: "Live — " (timelineStrings.ts mode.live) and wayLabel's words. */
export const AGENT_MODE_LINE = /^Live — via agent pod (\S+)\/(\S+)$/u;
/** The tooltip's at-risk paragraph (src/core/tree/atRiskText.ts atRiskTooltip, English). */
export const AT_RISK_TOOLTIP = 'node-problem-detector: PLEGAtRisk=True';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Opens the timeline of `node` from its row; resolves once the panel names its agent pod, holds relists,
 * and a later read holds more (live ones arrived). Throws with the panel's last state otherwise.
 */
export async function openAgentTimeline(page, node, { timeoutMs = 90_000 } = {}) {
  await openTimeline(page, node, { via: 'contextMenu' });
  const first = await waitForTimeline(page, node, (s) => AGENT_MODE_LINE.test(s.label) && s.relists > 0, { timeoutMs });
  const grown = await waitForTimeline(page, node, (s) => s.relists > first.relists, { timeoutMs: 30_000 });
  return { first, grown };
}

/** Once the panel holds more than `relists` relists and its feed is answering again (no "No answer from …"). */
export function waitForAgentFeed(page, node, relists, { timeoutMs = 60_000 } = {}) {
  return waitForTimeline(page, node, (s) => s.relists > relists && !s.feed.startsWith('No answer from'), { timeoutMs });
}

/**
 * Records the panel and the tree's tooltip until stop(). `atRisk()`: the PLEGAtRisk changes a watch saw so
 * far ({ atMs, status }); while the last is True and no tooltip was read since, the row is hovered (at most
 * `hoverMs` per round) and `onTooltip(text)` runs once it quotes the condition (the tooltip is then on screen).
 * `onPrediction(state)` runs on every new sentence or feed state, with the panel's state.
 */
export function recordAgentTimeline(session, node, { atRisk, onTooltip, onPrediction, everyMs = 1_000, hoverMs = 4_000 }) {
  const predictions = [];
  const tooltips = [];
  const headlines = [];
  const errors = [];
  let running = true;
  const round = async () => {
    const state = await readTimeline(session.page, node);
    const last = predictions.at(-1);
    if (state && (last?.prediction !== state.prediction || last?.feed !== state.feed)) {
      predictions.push({ atMs: Date.now(), prediction: state.prediction, relists: state.relists, feed: state.feed });
      await onPrediction?.(state);
    }
    const row = (await session.recording()).history.at(-1)?.description ?? '';
    const seen = headlines.at(-1);
    if (state && (seen?.verdict !== state.verdict || seen?.row !== row)) headlines.push({ atMs: Date.now(), verdict: state.verdict, headline: state.headline, row });
    const risk = atRisk().at(-1);
    if (risk?.status === 'True' && !tooltips.some((t) => t.atMs > risk.atMs)) {
      const text = await session.hover((h) => h.includes(AT_RISK_TOOLTIP), hoverMs);
      if (text.includes(AT_RISK_TOOLTIP)) {
        tooltips.push({ atMs: Date.now(), text });
        await onTooltip?.(text);
      }
    }
  };
  const loop = (async () => {
    while (running) {
      // A round that fails (a frame reloading, a hover racing a redraw) is noted and the next one tried.
      await round().catch((err) => errors.push(`${new Date().toISOString()} ${err.message}`));
      await sleep(everyMs);
    }
  })();
  return {
    predictions,
    tooltips,
    headlines,
    errors,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** "… crossed at 14:39:22 UTC …" → epoch ms on the day of `nearMs` (the sentence states a UTC clock time). */
export function clockTimeNear(sentence, label, nearMs) {
  const m = new RegExp(`${label} (\\d\\d):(\\d\\d):(\\d\\d) UTC`, 'u').exec(sentence);
  if (!m) return undefined;
  const day = new Date(nearMs);
  const t = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), Number(m[1]), Number(m[2]), Number(m[3]));
  // Around midnight the stated time may belong to the day before or after.
  const candidates = [t - 86_400_000, t, t + 86_400_000];
  return candidates.reduce((best, c) => (Math.abs(c - nearMs) < Math.abs(best - nearMs) ? c : best));
}

/** The tree row's words for a NotReady the kubelet posted for its runtime or PLEG (verdictPresentation.ts verdictShortName). */
const ROW_RUNTIME_OR_PLEG = /^(Runtime down|PLEG)\b(?! at risk)/u;

/**
 * The recorder's headlines against the tree's row: each time the row said Runtime down or PLEG while the
 * panel's headline said Ready for longer than `boundMs` (the panel and the row follow two watches of the
 * same Node, each read once a round) is a problem, named with the row's and the headline's words.
 */
export function headlineAgainstRow(headlines, { boundMs = 5_000, endMs = Date.now() } = {}) {
  const problems = [];
  for (let i = 0; i < headlines.length; i++) {
    const h = headlines[i];
    if (!ROW_RUNTIME_OR_PLEG.test(h.row) || h.verdict !== 'ready') continue;
    const until = headlines[i + 1]?.atMs ?? endMs;
    if (until - h.atMs > boundMs) problems.push(`for ${((until - h.atMs) / 1000).toFixed(1)} s from ${new Date(h.atMs).toISOString()} the row said "${h.row}" while the panel's headline said "${h.headline}"`);
  }
  return problems;
}

/**
 * The panel's last NotReady prediction before the kubelet's PLEG post (the one it had when the post came,
 * after whatever the Node's posts taught it), against that post: "T+x s" words for the report.
 */
export function lastNotReadyPrediction(predictions, plegPostMs) {
  const before = predictions.filter((p) => p.atMs < plegPostMs && /post NotReady at about \d\d:\d\d:\d\d UTC/u.test(p.prediction)).at(-1);
  if (before === undefined) return undefined;
  const predictedMs = clockTimeNear(before.prediction, 'post NotReady at about', before.atMs);
  return { saidAtMs: before.atMs, predictedMs, errorMs: predictedMs === undefined ? undefined : predictedMs - plegPostMs, sentence: before.prediction };
}
