// The kit tree check's judgement (test/e2e/lib/kitTreeCheck.mjs compareRowWithPosts) on what a real window
// gave it: the row of the real kubelet 1.22 node in code-server and the Node's Ready posts
// (test/fixtures/kit-tree-1.22, unedited), and the same recording with the row made to say something else.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareRowWithPosts, expectedRowWord, type ReadyPost, type RowChange } from '../../../../e2e/lib/kitTreeCheck.mjs';

const real = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/kit-tree-1.22/row.json'), 'utf8')) as { history: RowChange[]; posts: ReadyPost[] };
const BOUND = { boundMs: 5_000 };

/** The real history with every description starting with `from` rewritten to start with `to`. */
function relabel(from: string, to: string): RowChange[] {
  return real.history.map((h) => (h.description.startsWith(from) ? { ...h, description: to + h.description.slice(from.length) } : h));
}

describe('compareRowWithPosts on the real 1.22 window', () => {
  it('holds: Ready → Runtime down → PLEG → Ready, each within 5 s of its post', () => {
    const { problems, lines } = compareRowWithPosts(real.history, real.posts, BOUND);
    expect(problems).toEqual([]);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^False "container runtime is down" → "Runtime down" after 0\.\d s$/u);
  });

  it('fails when the row said NotReady while the Node said "container runtime is down" (a classifier that misses the form)', () => {
    const { problems } = compareRowWithPosts(relabel('Runtime down', 'NotReady'), real.posts, BOUND);
    expect(problems.join('\n')).toContain('did not say "Runtime down"');
    expect(problems.join('\n')).toContain('the row said "Ready" → "NotReady" → "PLEG" → "Ready"');
  });

  it('fails when the row turned PLEG later than the bound after the post', () => {
    const pleg = real.posts.find((p) => p.message.includes('PLEG is not healthy'));
    const late = real.history.map((h) => (h.description.startsWith('PLEG') ? { ...h, atMs: (pleg?.atMs ?? 0) + 6_000 } : h));
    expect(compareRowWithPosts(late, real.posts, BOUND).problems.join('\n')).toMatch(/did not say "PLEG" within 5 s \(6\.0 s\)/u);
  });

  it('fails when the row never came back to Ready', () => {
    const stuck = real.history.slice(0, -1);
    expect(compareRowWithPosts(stuck, real.posts, BOUND).problems.join('\n')).toContain('did not say "Ready" within 5 s (never)');
  });

  it('fails on a post form it has no expectation for, and when the row was never shown', () => {
    const odd = [...real.posts, { atMs: (real.posts.at(-1)?.atMs ?? 0) + 1_000, status: 'Unknown', message: 'Kubelet stopped posting node status.' }];
    expect(compareRowWithPosts(real.history, odd, BOUND).problems.join('\n')).toContain('a form this check has no expectation for');
    expect(compareRowWithPosts([{ atMs: 1, description: '' }], real.posts, BOUND).problems).toEqual(['the row was never shown']);
  });
});

describe('expectedRowWord', () => {
  it("names the tree's verdict for each Ready message form the 1.22 kubelet posted (test/fixtures/k8s-1.22-fault/run1-ready.log)", () => {
    const post = (status: string, message: string): ReadyPost => ({ atMs: 0, status, message });
    expect(expectedRowWord(post('True', 'kubelet is posting ready status'))).toBe('Ready');
    expect(expectedRowWord(post('False', '[container runtime is down, container runtime not ready: RuntimeReady=false reason:DockerDaemonNotReady message:docker: failed to get docker version: operation timeout: context deadline exceeded]'))).toBe('Runtime down');
    expect(expectedRowWord(post('False', '[container runtime is down, PLEG is not healthy: pleg was last seen active 3m53.056047513s ago; threshold is 3m0s, container runtime not ready: RuntimeReady=false reason:DockerDaemonNotReady message:docker: failed to get docker version: operation timeout: context deadline exceeded]'))).toBe('PLEG');
    expect(expectedRowWord(post('Unknown', 'Kubelet stopped posting node status.'))).toBeUndefined();
  });
});

describe('compareRowWithPosts with node-problem-detector\u2019s PLEGAtRisk among the changes', () => {
  // Derived from the real 1.22 window: PLEGAtRisk=True put 60 s after the freeze's first post (the Node then
  // NotReady: the kubelet's verdict wins) and False 8 s after the Ready post, so the row says "PLEG at risk"
  // for those 8 s (classifyNode: Ready=True with PLEGAtRisk=True), as the 1.26 window's NPD makes it.
  const runtimeDown = real.posts.find((p) => p.message.includes('container runtime is down'))!;
  const readyAgain = real.posts.at(-1)!;
  const atRisk = [
    { atMs: real.posts[0]!.atMs - 30_000, status: 'False' },
    { atMs: runtimeDown.atMs + 60_000, status: 'True' },
    { atMs: readyAgain.atMs + 8_000, status: 'False' },
  ];
  const withAtRisk = (history: RowChange[]): RowChange[] => {
    const last = history.at(-1)!;
    return [...history.slice(0, -1), { atMs: last.atMs, description: 'PLEG at risk · NotReady due' }, { atMs: readyAgain.atMs + 8_400, description: last.description }];
  };

  it('holds: at risk while NotReady changes nothing in the row; after the Ready post the row says "PLEG at risk" until PLEGAtRisk=False', () => {
    const { problems, lines } = compareRowWithPosts(withAtRisk(real.history), real.posts, { ...BOUND, atRisk });
    expect(problems).toEqual([]);
    expect(lines.some((l) => /^PLEGAtRisk=True → "Runtime down"|^PLEGAtRisk=True → "PLEG"/u.test(l))).toBe(true);
    expect(lines.at(-2)).toMatch(/^True "kubelet is posting ready status" → "PLEG at risk" after \d+\.\d s$/u);
    expect(lines.at(-1)).toMatch(/^PLEGAtRisk=False → "Ready" after 0\.\d s$/u);
  });

  it('fails when the row said Ready while NPD still said PLEGAtRisk=True (a tree that drops the condition)', () => {
    const { problems } = compareRowWithPosts(real.history, real.posts, { ...BOUND, atRisk });
    expect(problems.join('\n')).toContain('did not say "PLEG at risk"');
  });

  it('a word held for less than the bound may be skipped, not said out of turn', () => {
    const brief = [atRisk[0]!, atRisk[1]!, { atMs: readyAgain.atMs + 2_000, status: 'False' }];
    // The row went straight from PLEG to Ready: allowed, PLEG at risk held 2 s.
    const { problems, lines } = compareRowWithPosts(real.history, real.posts, { ...BOUND, atRisk: brief });
    expect(problems).toEqual([]);
    expect(lines.at(-2)).toMatch(/"PLEG at risk" never \(held 2\.0 s: may be skipped\)$/u);
    // Saying it after Ready came back is out of turn.
    const late = [...real.history, { atMs: readyAgain.atMs + 20_000, description: 'PLEG at risk · NotReady due' }];
    expect(compareRowWithPosts(late, real.posts, { ...BOUND, atRisk: brief }).problems.join('\n')).toContain('the row said');
  });
});

describe('compareRowWithPosts on the real 1.26 window with node-problem-detector (test/fixtures/kit-tree-1.26)', () => {
  const real126 = JSON.parse(readFileSync(join(__dirname, '../../../../fixtures/kit-tree-1.26/row.json'), 'utf8')) as { history: RowChange[]; posts: ReadyPost[]; atRisk: { atMs: number; status: string }[] };

  it('holds: PLEGAtRisk=True came while the Node was already NotReady, and the row kept the kubelet\u2019s "Runtime down"', () => {
    const { problems, lines } = compareRowWithPosts(real126.history, real126.posts, { ...BOUND, atRisk: real126.atRisk });
    expect(problems).toEqual([]);
    expect(lines).toEqual([
      expect.stringMatching(/^PLEGAtRisk=False → "Ready"/u),
      expect.stringMatching(/^False "container runtime is down" → "Runtime down" after 0\.\d s$/u),
      expect.stringMatching(/^PLEGAtRisk=True → "Runtime down" after 0\.0 s$/u),
      expect.stringMatching(/^False "\[container runtime is down, PLEG is not healthy: .* → "PLEG" after 0\.\d s$/u),
    ]);
  });

  it('fails when the row let PLEGAtRisk take the place of the kubelet\u2019s NotReady verdict', () => {
    const risk = real126.atRisk.find((c) => c.status === 'True')!;
    const wrong = real126.history.map((h) => (h.atMs >= risk.atMs && h.description.startsWith('Runtime down') ? { ...h, description: 'PLEG at risk · NotReady in ~1m50s' } : h));
    expect(compareRowWithPosts(wrong, real126.posts, { ...BOUND, atRisk: real126.atRisk }).problems.join('\n')).toContain('the row said "Ready" → "Runtime down" → "PLEG at risk" → "PLEG"');
  });
});
