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

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { KIT_TREE_SHOTS, compareRowWithPosts, prepareKitTree, startKitTree, type KitTreeSession } from '../../e2e/lib/kitTreeCheck.mjs';
import type { KitWindowChecks, PlegWindow } from './plegWindow';

/** The tree follows the API server's watch; the page reads the row every 250 ms. */
const ROW_BOUND_MS = 5_000;
const READY_AGAIN_MS = 30_000;

const log = (line: string): void => console.log(line);

/** Runs every step, then throws the first failure (a failing step does not hide what the next one finds). */
async function allOf(steps: (() => void | Promise<void>)[]): Promise<void> {
  const results = await Promise.allSettled(steps.map(async (s) => s()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** The kit's checks, plus the tree in code-server through the same hooks (call at the test file's top level). */
export function withTreeInCodeServer(kit: KitWindowChecks): KitWindowChecks {
  let vsix = '';
  let session: KitTreeSession | undefined;
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

  async function rowFollowsPosts(s: KitTreeSession, w: PlegWindow, when: string): Promise<void> {
    const { history, ticks } = await s.recording();
    // Kept for whoever reads a failure (CI keeps test-results/), beside the window's timeline recording.
    writeFileSync(join(KIT_TREE_SHOTS, `realk8s-${w.cluster.kit}-tree-row.json`), JSON.stringify({ kit: w.cluster.kit, node: w.cluster.nodeName, history, posts: w.posts }, null, 2));
    const { problems, lines } = compareRowWithPosts(history, w.posts, { boundMs: ROW_BOUND_MS });
    log(`tree in code-server on the real kubelet ${w.cluster.kit} (${when}; ${ticks.count} reads of the row):\n  ${lines.join('\n  ')}`);
    expect(problems, JSON.stringify({ history, posts: w.posts })).toEqual([]);
  }

  return {
    ...kit,
    beforeFreeze: (w) =>
      allOf([
        () => kit.beforeFreeze?.(w),
        async () => {
          session = await startKitTree({ vsix, kubeconfig: w.cluster.kubeconfig, nodeName: w.cluster.nodeName, kit: w.cluster.kit, shotsDir: KIT_TREE_SHOTS, log });
        },
      ]),
    whilePleg: (w, found) =>
      allOf([
        () => kit.whilePleg?.(w, found),
        () =>
          onTree('pleg', async (s) => {
            await s.waitForRow(/^PLEG\b/u, ROW_BOUND_MS);
            await rowFollowsPosts(s, w, 'while PLEG is posted');
            // The tooltip quotes a message the kubelet posted (the latest, or one before it: it is read on hover).
            const posted = w.posts.filter((p) => p.message.includes('PLEG is not healthy')).map((p) => p.message);
            const hover = await s.hover((text) => posted.some((m) => text.includes(m)));
            expect(posted.some((m) => hover.includes(m)), `the tooltip quotes none of the PLEG messages the kubelet posted ${JSON.stringify(posted)}; hover: "${hover.slice(0, 800)}"`).toBe(true);
            expect(hover).toContain('PLEG is not healthy');
            expect(await s.shot('pleg')).toBeDefined();
          }),
      ]),
    afterRecovery: (w, recording, frozeAt) =>
      allOf([
        () => kit.afterRecovery?.(w, recording, frozeAt),
        () =>
          onTree('ready-again', async (s) => {
            await s.waitForRow(/^Ready\b/u, READY_AGAIN_MS);
            await rowFollowsPosts(s, w, 'after SIGCONT');
            await s.shot('ready-again');
            await s.close();
          }),
      ]),
  };
}
