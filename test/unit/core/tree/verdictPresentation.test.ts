import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VERDICTS } from '../../../../src/core/classify/types';
import { conditionHealth } from '../../../../src/core/tree/conditionHealth';
import { isContextExcluded } from '../../../../src/core/tree/contextFilter';
import { clusterErrorContextValue, contextContextValue, nodeContextValue } from '../../../../src/core/tree/contextValue';
import { englishText } from '../../../../src/core/tree/localize';
import { codeBlock, escapeMarkdown, inlineCode } from '../../../../src/core/tree/markdown';
import { nodeTooltipMarkdown } from '../../../../src/core/tree/nodeTooltip';
import type { UnhealthyNode } from '../../../../src/core/tree/statusSummary';
import { MAX_NAMED, summarizeStatus } from '../../../../src/core/tree/statusSummary';
import { isNotReady, isUnhealthy, verdictIcon, verdictRank, verdictShortName, verdictToken } from '../../../../src/core/tree/verdictPresentation';
import { classification, minutesAgo, NOW, PLEG_MESSAGE } from '../../../support/nodeFixtures';

const t = englishText;

describe('contextValue tokens', () => {
  it('names the node, its verdict, readiness and flags', () => {
    expect(nodeContextValue(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', cordoned: true }))).toBe('node;pleg;notReady;unhealthy;cordoned');
    expect(nodeContextValue(classification({ name: 'a', pressures: ['DiskPressure'] }))).toBe('node;healthy;ready;diskPressure');
    expect(nodeContextValue(classification({ name: 'a', verdict: 'lease-lost', readyStatus: 'Unknown' }))).toBe('node;leaseLost;readyUnknown;unhealthy');
    expect(contextContextValue({ kind: 'synced', resourceVersion: '7' }, true)).toBe('context;synced;current');
    expect(clusterErrorContextValue('forbidden')).toBe('clusterError;forbidden');
  });

  it('gives every verdict a distinct token, rank, short name and a themed icon', () => {
    expect(new Set(VERDICTS.map(verdictToken)).size).toBe(VERDICTS.length);
    expect(new Set(VERDICTS.map(verdictRank)).size).toBe(VERDICTS.length);
    expect(new Set(VERDICTS.map((v) => verdictShortName(v, t))).size).toBe(VERDICTS.length);
    expect(verdictRank('pleg')).toBe(0);
    // At risk sorts with the unhealthy: after PLEG NotReady, ahead of the other NotReady verdicts and Ready.
    expect(verdictRank('pleg-at-risk')).toBe(1);
    expect(isUnhealthy('pleg-at-risk')).toBe(true);
    expect(isNotReady('pleg-at-risk')).toBe(false);
    expect(isNotReady('runtime-down')).toBe(true);
    expect(Math.max(...VERDICTS.map(verdictRank))).toBe(verdictRank('ready'));
    for (const v of VERDICTS) expect(verdictIcon(v).color).toMatch(/^charts\./);
  });
});

describe('status bar summary', () => {
  const base = { contexts: 2, connecting: 0, failed: 0, total: 10, unhealthy: 0, pleg: 0, atRisk: 0 };
  const nodes: UnhealthyNode[] = [
    { context: 'prod', name: 'n-07', verdict: 'pleg' },
    { context: 'prod', name: 'n-09', verdict: 'pleg' },
    { context: 'stage', name: 's-03', verdict: 'runtime-down' },
  ];

  it('counts NotReady nodes and how many are PLEG, with the warning background while any is', () => {
    expect(summarizeStatus({ ...base, unhealthy: 3, pleg: 2 }, t, nodes)).toMatchObject({ visible: true, text: '$(pulse) 3 nodes NotReady, 2 PLEG', severity: 'warning' });
    expect(summarizeStatus({ ...base, unhealthy: 1, pleg: 1 }, t, nodes.slice(0, 1)).text).toBe('$(pulse) 1 node NotReady (PLEG)');
    expect(summarizeStatus({ ...base, unhealthy: 2, pleg: 2 }, t, nodes.slice(0, 2)).text).toBe('$(pulse) 2 nodes NotReady (PLEG)');
  });

  it('names the nodes in the tooltip, PLEG ones first, the others with their verdict', () => {
    const tip = summarizeStatus({ ...base, unhealthy: 3, pleg: 2 }, t, nodes).tooltip.split('\n');
    expect(tip[0]).toBe('PLEG not healthy: n-07 in prod, n-09 in prod');
    expect(tip[1]).toBe('NotReady for other reasons: s-03 in stage (Runtime down)');
    expect(tip).toContain('10 nodes in 2 contexts');
    const many = Array.from({ length: MAX_NAMED + 3 }, (_, i) => ({ context: 'c', name: `x${i}`, verdict: 'pleg' as const }));
    expect(summarizeStatus({ ...base, unhealthy: many.length, pleg: many.length }, t, many).tooltip.split('\n')[0]).toMatch(/, and 3 more$/);
  });

  it('says "none PLEG" rather than "ok" when nodes are NotReady for other reasons, and all Ready otherwise', () => {
    expect(summarizeStatus(base, t)).toMatchObject({ visible: true, text: '$(pulse) All 10 nodes Ready', severity: 'none' });
    expect(summarizeStatus({ ...base, unhealthy: 2 }, t, [nodes[2] as UnhealthyNode, { context: 'prod', name: 'n-11', verdict: 'lease-lost' }])).toMatchObject({
      text: '$(pulse) 2 nodes NotReady, none PLEG',
      severity: 'none',
    });
    expect(summarizeStatus({ ...base, unhealthy: 1 }, t).text).toBe('$(pulse) 1 node NotReady, not PLEG');
  });

  it('counts the nodes at risk apart from the NotReady ones ("n at risk"), names them, and warns', () => {
    const risky: UnhealthyNode[] = [{ context: 'prod', name: 'n-09', verdict: 'pleg-at-risk' }];
    expect(summarizeStatus({ ...base, unhealthy: 1, atRisk: 1 }, t, risky)).toMatchObject({ text: '$(pulse) 1 node at risk (PLEG)', severity: 'warning' });
    expect(summarizeStatus({ ...base, unhealthy: 2, atRisk: 2 }, t, [...risky, { context: 'prod', name: 'n-10', verdict: 'pleg-at-risk' }]).text).toBe('$(pulse) 2 nodes at risk (PLEG)');
    const mixed = summarizeStatus({ ...base, unhealthy: 3, pleg: 1, atRisk: 1 }, t, [nodes[0] as UnhealthyNode, nodes[2] as UnhealthyNode, ...risky]);
    expect(mixed.text).toBe('$(pulse) 2 nodes NotReady, 1 PLEG, 1 at risk');
    expect(mixed.tooltip.split('\n').slice(0, 3)).toEqual(['PLEG not healthy: n-07 in prod', 'PLEG at risk (NotReady predicted): n-09 in prod', 'NotReady for other reasons: s-03 in stage (Runtime down)']);
  });

  it('is hidden without contexts and shows progress or failure before any node is known', () => {
    expect(summarizeStatus({ ...base, contexts: 0, total: 0 }, t).visible).toBe(false);
    expect(summarizeStatus({ ...base, total: 0, connecting: 2 }, t).text).toBe('$(loading~spin) PLEG');
    expect(summarizeStatus({ ...base, total: 0, failed: 2 }, t).text).toBe('$(error) PLEG Doctor: no cluster reachable');
  });
});

describe('tooltip markdown', () => {
  const c = classification({
    name: 'node_*[x](http://evil)',
    verdict: 'pleg',
    readyStatus: 'False',
    readyReason: 'KubeletNotReady',
    since: minutesAgo(12),
    message: PLEG_MESSAGE,
    plegLastSeenAgoSeconds: 226.752815514,
    plegThresholdSeconds: 180,
    versions: { kubelet: 'v1.32.0', runtime: 'containerd://1.7.24' },
    pods: { capacity: 110 },
    taints: ['node.kubernetes.io/not-ready:NoSchedule'],
    cordoned: true,
  });

  it('has the kubelet message verbatim, PLEG timing, pods n/max and versions', () => {
    const md = nodeTooltipMarkdown(c, 'prod', { kind: 'count', count: 42 }, NOW, t, { clock: { locale: 'en-GB', timeZone: 'UTC' } });
    expect(md).toContain('```text\n' + PLEG_MESSAGE + '\n```');
    // Our own sentence is cut to tenths (issue 26 point 6); the kubelet's message keeps its nanoseconds as quoted.
    expect(md).toContain('PLEG last relisted 3m46.7s ago; the kubelet reports NotReady above 3m0s.');
    expect(md).toContain('Pods bound to the node (API server): 42 / 110');
    expect(md).toContain('kubelet v1\\.32\\.0');
    // Local time and a relative age, never the raw ISO timestamp.
    expect(md).toContain('since 03:48:00 \\(12 min ago\\)');
    expect(md).not.toMatch(/\d{4}-\d\d-\d\dT/);
    expect(md).toContain('Cordoned (unschedulable)');
    expect(md).toContain('`node.kubernetes.io/not-ready:NoSchedule`');
  });

  it('escapes the node name so it cannot become a link', () => {
    const md = nodeTooltipMarkdown(c, 'prod', { kind: 'unknown' }, NOW, t);
    expect(md).toContain('**node\\_\\*\\[x\\]\\(http://evil\\)**');
    expect(md).not.toContain('[x](');
  });

  it('renders pod-count failures and never-relisted PLEG', () => {
    const md = nodeTooltipMarkdown({ ...c, plegLastSeenAgoSeconds: null }, 'prod', { kind: 'error', message: 'no answer within 10s' }, NOW, t);
    expect(md).toContain('Pods bound to the node (API server): ? / 110 (could not count: no answer within 10s)');
    expect(md).toContain('PLEG has never completed a relist');
  });

  it('code blocks and inline code cannot be closed early by backticks in cluster text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', 'a', ' ', '\n') }), (text) => {
        const block = codeBlock(text);
        const fence = /^`+/.exec(block)![0];
        const runs = text.match(/`+/g) ?? [];
        expect(runs.every((r) => r.length < fence.length)).toBe(true);
        expect(block.endsWith(`\n${fence}`)).toBe(true);
        const inline = inlineCode(text);
        const ifence = /^`+/.exec(inline)![0];
        expect(runs.every((r) => r.length !== ifence.length)).toBe(true);
      }),
    );
  });

  it('escapeMarkdown leaves no unescaped markdown punctuation', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const escaped = escapeMarkdown(text);
        expect(escaped).not.toMatch(/(^|[^\\])(\\\\)*[[\]()*_`<>#|!]/);
        expect(escaped).not.toContain('\n');
      }),
    );
  });
});

describe('context exclusion and condition health', () => {
  it('matches exact names and globs', () => {
    expect(isContextExcluded('kind-dev', ['kind-*'])).toBe(true);
    expect(isContextExcluded('prod', ['kind-*', 'pro?'])).toBe(true);
    expect(isContextExcluded('production', ['pro?'])).toBe(false);
    expect(isContextExcluded('a.b', ['a?b'])).toBe(true);
    expect(isContextExcluded('axb', ['a.b'])).toBe(false);
    expect(isContextExcluded('x', ['', '  '])).toBe(false);
  });
  it('knows which status is good per condition type', () => {
    expect(conditionHealth('Ready', 'True')).toBe('good');
    expect(conditionHealth('Ready', 'False')).toBe('bad');
    expect(conditionHealth('DiskPressure', 'False')).toBe('good');
    expect(conditionHealth('NetworkUnavailable', 'True')).toBe('bad');
    expect(conditionHealth('Ready', 'Unknown')).toBe('unknown');
    expect(conditionHealth('FrequentKubeletRestart', 'True')).toBe('neutral');
  });
});
