// The agent timeline recorder's judgement (test/e2e/lib/kitTimelineCheck.mjs) on the tree row of a real
// 1.26 window (test/fixtures/kit-tree-1.26, unedited): a panel whose headline stayed "Ready" while the row
// said Runtime down and PLEG (what the 1.26 window showed before the panel took the Node's posts from the
// editor's own watch) is a problem; a panel that follows the same posts within a round is not.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlineAgainstRow, lastNotReadyPrediction, type HeadlineBesideRow } from '../../../../e2e/lib/kitTimelineCheck.mjs';
import type { ReadyPost, RowChange } from '../../../../e2e/lib/kitTreeCheck.mjs';

const real = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/kit-tree-1.26/row.json'), 'utf8')) as { history: RowChange[]; posts: ReadyPost[] };
const end = real.history.at(-1)!.atMs + 1_000;

/** The verdict the panel's headline gives the last post before `atMs` (ready, runtime-down or pleg). */
function verdictAt(atMs: number): string {
  const post = real.posts.filter((p) => p.atMs <= atMs).at(-1);
  if (post === undefined || post.status === 'True') return 'ready';
  return post.message.includes('PLEG is not healthy') ? 'pleg' : 'runtime-down';
}

describe('headlineAgainstRow on the real 1.26 row', () => {
  it('a headline that stays Ready while the row says Runtime down then PLEG is named', () => {
    const frozen: HeadlineBesideRow[] = real.history.map((h) => ({ atMs: h.atMs, verdict: 'ready', headline: 'Ready — as of 17:09:24 UTC, when its source last answered', row: h.description }));
    const problems = headlineAgainstRow(frozen, { boundMs: 5_000, endMs: end });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/the row said "Runtime down · \d+s" while the panel's headline said "Ready — as of/u);
    expect(problems.join('\n')).toMatch(/the row said "PLEG · 2m"/u);
  });

  it("a headline that follows the Node's posts (read a round, 1 s, after the row) holds", () => {
    const rounds: HeadlineBesideRow[] = [];
    for (const h of real.history) {
      rounds.push({ atMs: h.atMs, verdict: verdictAt(h.atMs - 1_000), headline: '', row: h.description });
      rounds.push({ atMs: h.atMs + 1_000, verdict: verdictAt(h.atMs), headline: '', row: h.description });
    }
    expect(headlineAgainstRow(rounds, { boundMs: 5_000, endMs: end })).toEqual([]);
  });
});

describe('lastNotReadyPrediction', () => {
  it('takes the last sentence naming the NotReady post before the PLEG post, and its error against it', () => {
    const pleg = Date.parse('2026-11-28T18:58:12.700Z');
    const predictions = [
      { atMs: pleg - 190_000, prediction: 'healthy: the last relist took 3ms, budget 2m58.997s', relists: 53, feed: 'Receiving' },
      { atMs: pleg - 185_000, prediction: 'at this rate the threshold is crossed at 18:57:55 UTC (relists are failing or not finishing); the kubelet will post NotReady at about 18:58:05 UTC (its next node status update)', relists: 55, feed: 'Receiving' },
      { atMs: pleg - 150_000, prediction: 'at this rate the threshold is crossed at 18:57:55 UTC (the runtime stopped answering); the kubelet will post NotReady at about 18:58:12 UTC (its status updates wait 30s)', relists: 55, feed: 'No answer' },
      { atMs: pleg + 1_000, prediction: 'PLEG is unhealthy since 18:57:55 UTC: …; the kubelet posted NotReady at 18:58:12 UTC', relists: 55, feed: 'No answer' },
    ];
    const last = lastNotReadyPrediction(predictions, pleg);
    expect(last?.saidAtMs).toBe(pleg - 150_000);
    expect(last?.errorMs).toBe(-700);
    expect(lastNotReadyPrediction(predictions.slice(0, 1), pleg)).toBeUndefined();
  });
});
