// The node tree in a real VS Code, checked inside a kit's one fault window (../../e2e/lib/kitTreeCheck.mjs
// does the driving): wraps a kit's window checks so that, beside them,
//  - before the window: the extension is packaged as the e2e installs it (dist/pleg-doctor.vsix, reused when
//    newer than its sources), so nothing rebuilds dist/ while the window's own CLI runs;
//  - beforeFreeze (at the same time as the kit's own, while the window waits for a periodic status post):
//    code-server + Chromium with the kit's kubeconfig, the PLEG Doctor view showing the real node Ready;
//  - whilePleg: the row says PLEG, and earlier said each form the Node posted (1.22 + dockershim: "container
//    runtime is down, container runtime not ready: …" → Runtime down), each within ROW_BOUND_MS of the post
//    as the window's watch saw it; its tooltip quotes the kubelet's PLEG message verbatim; a screenshot;
//  - afterRecovery: the row is Ready again, without a refresh, within ROW_BOUND_MS of the Ready post;
//  - always (afterAll, also on failure): code-server and Chromium stopped.
// With `agentTimeline` (a kit whose own checks install the agent and node-problem-detector before the freeze:
// the 1.26 kit's alertLeadTimes.ts), and still no SSH configured in the workbench:
//  - beforeFreeze, first: Take CRI Snapshot and Diagnose Node through the agent pod, Open Kubelet Log from
//    Node through a debug pod (its modal cancelled once, then accepted), no pod left (./nodeAccessInCodeServer.ts);
//  - beforeFreeze, once the kit's checks and the workbench are both up (the agent must run before the panel
//    looks for it): the node's PLEG Timeline, opened from its row, says "Live — via agent pod NS/NAME" and
//    its relist count grows; a recorder then notes the panel's prediction and the tree's tooltip
//    (../../e2e/lib/kitTimelineCheck.mjs);
//  - whilePleg: the panel said "at this rate the threshold is crossed at …" (the crossing within
//    CROSSING_BOUND_MS of the one the kubelet's message gives) before the kubelet's PLEG post, and the
//    tree's tooltip quoted PLEGAtRisk=True before it; the row said "PLEG at risk" before the kubelet's FIRST
//    NotReady post (on a containerd node "container runtime is down", some 35-40 s into the freeze: the
//    agent predicts that post from its own hung call, and the plugin reports the nearer of it and PLEG's),
//    which the row check holds with the PLEGAtRisk changes among the posts; screenshots of both;
//  - afterRecovery: the panel receives relists again and no longer says the agent is silent.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { KIT_TREE_SHOTS, compareRowWithPosts, prepareKitTree, startKitTree, type AtRiskChange, type KitTreeSession } from '../../e2e/lib/kitTreeCheck.mjs';
import { AGENT_MODE_LINE, clockTimeNear, headlineAgainstRow, lastNotReadyPrediction, openAgentTimeline, recordAgentTimeline, waitForAgentFeed, type AgentTimelineRecording } from '../../e2e/lib/kitTimelineCheck.mjs';
import { parseGoDurationSeconds } from '../../../src/core/util/goDuration';
import { nodeAccessInCodeServer } from './nodeAccessInCodeServer';
import type { KitWindowChecks, PlegWindow } from './plegWindow';

/** The tree follows the API server's watch; the page reads the row every 250 ms. */
const ROW_BOUND_MS = 5_000;
const READY_AGAIN_MS = 30_000;
/**
 * The panel's crossing against the kubelet's: both are the last successful relist's start plus 3 minutes,
 * the agent's relist and the kubelet's each at most a period (1 s) before the freeze, and the sentence
 * states whole seconds.
 */
const CROSSING_BOUND_MS = 5_000;
const CROSSING_SENTENCE = /^at this rate the threshold is crossed at /u;

/** A PLEGAtRisk change as the window's watch saw it, with NPD's message. */
type AtRiskSample = AtRiskChange & { message?: string };

export interface TreeOptions {
  /** Also the node's PLEG Timeline through its agent pod (see the header); `atRisk`: the PLEGAtRisk changes a watch saw. */
  agentTimeline?: { atRisk: () => readonly AtRiskSample[] };
}

const log = (line: string): void => console.log(line);

/** Runs every step, then throws the first failure (a failing step does not hide what the next one finds). */
async function allOf(steps: (() => void | Promise<void>)[]): Promise<void> {
  const results = await Promise.allSettled(steps.map(async (s) => s()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The kit's checks, plus the tree in code-server through the same hooks (call at the test file's top level). */
export function withTreeInCodeServer(kit: KitWindowChecks, options: TreeOptions = {}): KitWindowChecks {
  let vsix = '';
  let session: KitTreeSession | undefined;
  let panel: AgentTimelineRecording | undefined;
  const atRisk = (): AtRiskSample[] => [...(options.agentTimeline?.atRisk() ?? [])];
  beforeAll(async () => {
    vsix = await prepareKitTree({ log });
  }, 360_000);
  afterAll(async () => {
    await session?.close();
  });

  /** One step on the running session; a failure leaves a screenshot and the code-server log tail. */
  async function onTree(name: string, fn: (s: KitTreeSession) => Promise<void>): Promise<void> {
    const s = session;
    if (s === undefined) throw new Error('the tree in code-server did not start (see the beforeFreeze failure)');
    try {
      await fn(s);
    } catch (err) {
      await s.shot(`failure-${name}`);
      throw new Error(`${err instanceof Error ? err.message : String(err)}\ncode-server log:\n${s.serverLogTail()}`, { cause: err });
    }
  }

  async function rowFollowsPosts(s: KitTreeSession, w: PlegWindow, when: string): Promise<readonly { atMs: number; description: string }[]> {
    const { history, ticks } = await s.recording();
    // Kept for whoever reads a failure (CI keeps test-results/), beside the window's timeline recording.
    writeFileSync(join(KIT_TREE_SHOTS, `realk8s-${w.cluster.kit}-tree-row.json`), JSON.stringify({ kit: w.cluster.kit, node: w.cluster.nodeName, history, posts: w.posts, atRisk: atRisk() }, null, 2));
    const { problems, lines } = compareRowWithPosts(history, w.posts, { boundMs: ROW_BOUND_MS, atRisk: atRisk() });
    log(`tree in code-server on the real kubelet ${w.cluster.kit} (${when}; ${ticks.count} reads of the row):\n  ${lines.join('\n  ')}`);
    expect(problems, JSON.stringify({ history, posts: w.posts, atRisk: atRisk() })).toEqual([]);
    return history;
  }

  /**
   * Issue #29's point: the row says "PLEG at risk" (its own verdict, with the countdown) before the kubelet
   * posts NotReady at all, from node-problem-detector's PLEGAtRisk=True (the agent's prediction).
   */
  function atRiskBeforeNotReady(history: readonly { atMs: number; description: string }[], w: PlegWindow, frozeAt: number): void {
    const at = (ms: number | undefined): string => (ms === undefined ? 'never' : `T+${((ms - frozeAt) / 1000).toFixed(1)}s`);
    const notReady = w.posts.find((p) => p.atMs > frozeAt && p.status === 'False');
    const risk = atRisk().find((c) => c.atMs > frozeAt && c.status === 'True');
    const row = history.find((h) => h.atMs > frozeAt && /^PLEG at risk · NotReady in ~/u.test(h.description));
    const report = `first NotReady post ${at(notReady?.atMs)} ("${notReady?.message ?? ''}"), PLEGAtRisk=True ${at(risk?.atMs)} ("${risk?.message ?? ''}"), the row "${row?.description ?? '(never at risk)'}" ${at(row?.atMs)}`;
    log(`tree in code-server, at risk before NotReady: ${report}`);
    expect(notReady, report).toBeDefined();
    expect(risk?.atMs ?? Infinity, report).toBeLessThan(notReady!.atMs);
    expect(row?.atMs ?? Infinity, report).toBeLessThan(notReady!.atMs);
  }

  /** The webview's frame on the workbench, for a screenshot of the panel alone. */
  async function panelClip(s: KitTreeSession): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
    return (await s.page.locator('iframe.webview.ready').first().boundingBox()) ?? undefined;
  }

  /** Opens the panel through the agent and starts the recorder (after the kit's checks: the agent runs). */
  async function openPanel(s: KitTreeSession, w: PlegWindow): Promise<void> {
    const node = w.cluster.nodeName;
    const { first, grown } = await openAgentTimeline(s.page, node);
    log(`timeline in code-server on the real kubelet ${w.cluster.kit}, no SSH configured: "${grown.label}"; ${first.relists} → ${grown.relists} relists; "${grown.prediction}"`);
    await s.shot('timeline-agent-healthy', await panelClip(s));
    let shotPredicted = false;
    panel = recordAgentTimeline(s, node, {
      atRisk,
      onTooltip: async () => {
        await s.shot('at-risk');
      },
      onPrediction: async (state) => {
        if (shotPredicted || !CROSSING_SENTENCE.test(state.prediction)) return;
        shotPredicted = true;
        await s.shot('timeline-agent-predicted', await panelClip(s));
      },
    });
  }

  /** The panel's prediction and the tree's PLEGAtRisk against the kubelet's posts (the window's watch). */
  function panelBeforePosts(w: PlegWindow, recording: AgentTimelineRecording, frozeAt: number): void {
    const at = (ms: number | undefined): string => (ms === undefined ? 'never' : `T+${((ms - frozeAt) / 1000).toFixed(1)}s`);
    const after = w.posts.filter((p) => p.atMs > frozeAt);
    const notReady = after.find((p) => p.status === 'False');
    const pleg = after.find((p) => p.message.includes('PLEG is not healthy'));
    if (pleg === undefined) throw new Error(`no PLEG post after the freeze: ${JSON.stringify(w.posts)}`);
    const seen = /pleg was last seen active (\S+) ago/u.exec(pleg.message);
    const crossing = pleg.atMs - parseGoDurationSeconds(seen?.[1] ?? 'NaN') * 1000 + 180_000;
    const said = recording.predictions.find((p) => p.atMs > frozeAt && CROSSING_SENTENCE.test(p.prediction));
    const predictedCrossing = said === undefined ? undefined : clockTimeNear(said.prediction, 'crossed at', said.atMs);
    const predictedPost = said === undefined ? undefined : clockTimeNear(said.prediction, 'post NotReady at about', said.atMs);
    const risk = atRisk().find((c) => c.atMs > frozeAt && c.status === 'True');
    const tooltip = recording.tooltips.find((t) => t.atMs > frozeAt);
    const silent = recording.predictions.find((p) => p.atMs > frozeAt && p.feed.startsWith('No answer from'));
    const report = {
      kit: w.cluster.kit,
      frozeAt: new Date(frozeAt).toISOString(),
      posts: { firstNotReady: at(notReady?.atMs), pleg: at(pleg.atMs), crossingFromMessage: at(crossing) },
      panel: { crossingSaidAt: at(said?.atMs), sentence: said?.prediction, predictedCrossing: at(predictedCrossing), predictedNotReadyPost: at(predictedPost), agentSilentSeenAt: at(silent?.atMs) },
      tree: { plegAtRiskTrueAt: at(risk?.atMs), tooltipQuotedAt: at(tooltip?.atMs) },
      predictions: recording.predictions.map((p) => ({ at: at(p.atMs), prediction: p.prediction, relists: p.relists, feed: p.feed })),
      recorderErrors: recording.errors,
    };
    writeFileSync(join(KIT_TREE_SHOTS, `realk8s-${w.cluster.kit}-timeline-agent.json`), `${JSON.stringify(report, null, 2)}\n`);
    log(
      [
        `timeline through the agent and the tree on the real kubelet ${w.cluster.kit} (froze at T+0; first NotReady post ${at(notReady?.atMs)}, PLEG post ${at(pleg.atMs)}, crossing by the kubelet's message ${at(crossing)}):`,
        `  panel: "${said?.prediction ?? '(no crossing sentence)'}" from ${at(said?.atMs)}: crossing ${at(predictedCrossing)}, NotReady post ${at(predictedPost)}${silent ? `; the agent silent from ${at(silent.atMs)} ("${silent.feed}")` : ''}`,
        `  tree: PLEGAtRisk=True (node-problem-detector) ${at(risk?.atMs)}, quoted in the row's tooltip ${at(tooltip?.atMs)}`,
      ].join('\n'),
    );
    expect(said, JSON.stringify(report)).toBeDefined();
    expect(said!.atMs, 'the panel predicted the crossing before the kubelet posted PLEG').toBeLessThan(pleg.atMs);
    expect(Math.abs((predictedCrossing ?? NaN) - crossing), `predicted crossing ${at(predictedCrossing)} vs ${at(crossing)}`).toBeLessThan(CROSSING_BOUND_MS);
    expect(predictedPost, 'the sentence names the NotReady post').toBeGreaterThanOrEqual(predictedCrossing ?? Infinity);
    expect(tooltip, JSON.stringify(report)).toBeDefined();
    expect(tooltip!.atMs, 'the tree showed PLEGAtRisk=True before the kubelet posted PLEG').toBeLessThan(pleg.atMs);
    expect(tooltip!.text).toContain('NotReadyPredicted');
  }

  /** One story: while the row says Runtime down or PLEG, the panel's headline (the same Node's posts) does not say Ready. */
  function headlineFollowsRow(w: PlegWindow, recording: AgentTimelineRecording, frozeAt: number): void {
    const pleg = w.posts.find((p) => p.atMs > frozeAt && p.message.includes('PLEG is not healthy'));
    const last = pleg === undefined ? undefined : lastNotReadyPrediction(recording.predictions, pleg.atMs);
    const at = (ms: number | undefined): string => (ms === undefined ? 'never' : `T+${((ms - frozeAt) / 1000).toFixed(1)}s`);
    log(`  panel's last NotReady prediction before the PLEG post (${at(pleg?.atMs)}): ${at(last?.predictedMs)}, said ${at(last?.saidAtMs)}; headline beside the row: ${recording.headlines.map((h) => `${at(h.atMs)} ${h.verdict} | ${h.row}`).join('; ')}`);
    expect(headlineAgainstRow(recording.headlines, { boundMs: ROW_BOUND_MS }), JSON.stringify(recording.headlines)).toEqual([]);
    expect(recording.headlines.some((h) => /^(Runtime down|PLEG)\b/u.test(h.row) && h.verdict !== 'ready'), 'the recorder saw the row NotReady beside the panel').toBe(true);
  }

  return {
    ...kit,
    beforeFreeze: async (w) => {
      await allOf([
        () => kit.beforeFreeze?.(w),
        async () => {
          session = await startKitTree({ vsix, kubeconfig: w.cluster.kubeconfig, nodeName: w.cluster.nodeName, kit: w.cluster.kit, shotsDir: KIT_TREE_SHOTS, log });
        },
      ]);
      if (options.agentTimeline !== undefined) {
        // Before the panel opens (the commands' editors would hide it): snapshot, diagnosis, kubelet log.
        await onTree('node-access', (s) => nodeAccessInCodeServer(s, w.cluster, log));
        await onTree('timeline-open', (s) => openPanel(s, w));
      }
    },
    whilePleg: async (w, found) => {
      // The recorder hovers the row too: stopped before the row's own hover below.
      await panel?.stop();
      await allOf([
        () =>
          panel === undefined
            ? undefined
            : onTree('timeline-pleg', async (s) => {
                await s.shot('timeline-agent-pleg', await panelClip(s));
                await allOf([() => panelBeforePosts(w, panel!, found.frozeAt), () => headlineFollowsRow(w, panel!, found.frozeAt)]);
              }),
        () => kit.whilePleg?.(w, found),
        () =>
          onTree('pleg', async (s) => {
            await s.waitForRow(/^PLEG\b/u, ROW_BOUND_MS);
            const history = await rowFollowsPosts(s, w, 'while PLEG is posted');
            if (options.agentTimeline !== undefined) atRiskBeforeNotReady(history, w, found.frozeAt);
            // The tooltip quotes a message the kubelet posted (the latest, or one before it: it is read on hover).
            const posted = w.posts.filter((p) => p.message.includes('PLEG is not healthy')).map((p) => p.message);
            const hover = await s.hover((text) => posted.some((m) => text.includes(m)));
            expect(posted.some((m) => hover.includes(m)), `the tooltip quotes none of the PLEG messages the kubelet posted ${JSON.stringify(posted)}; hover: "${hover.slice(0, 800)}"`).toBe(true);
            expect(hover).toContain('PLEG is not healthy');
            expect(await s.shot('pleg')).toBeDefined();
          }),
      ]);
    },
    afterRecovery: async (w, recording, frozeAt) => {
      // Before the kit's own checks, which remove the agent once its alerts cleared.
      if (panel !== undefined) {
        const last = panel.predictions.at(-1)?.relists ?? 0;
        await onTree('timeline-resumed', async (s) => {
          const state = await waitForAgentFeed(s.page, w.cluster.nodeName, last);
          expect(state.label).toMatch(AGENT_MODE_LINE);
          log(`timeline after SIGCONT: ${last} → ${state.relists} relists; feed "${state.feed}"; "${state.prediction}"`);
        });
      }
      await allOf([
        () => kit.afterRecovery?.(w, recording, frozeAt),
        () =>
          onTree('ready-again', async (s) => {
            await s.waitForRow(/^Ready\b/u, READY_AGAIN_MS);
            await rowFollowsPosts(s, w, 'after SIGCONT');
            await s.shot('ready-again');
            await s.close();
          }),
      ]);
    },
  };
}
