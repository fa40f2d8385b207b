import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatAge, secondsSince } from '../../../src/core/tree/humanAge';
import type { Localize } from '../../../src/core/tree/localize';
import { englishText } from '../../../src/core/tree/localize';
import { describeNode } from '../../../src/core/tree/nodeDescription';
import { classification, minutesAgo, NOW } from './nodeFixtures';

const t = englishText;

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [59.9, '59s'],
    [60, '1m'],
    [12 * 60 + 59, '12m'],
    [3599, '59m'],
    [3600, '1h'],
    [86_399, '23h'],
    [86_400, '1d'],
    [10 * 86_400 + 5, '10d'],
    [-5, '0s'],
    [Number.NaN, '0s'],
  ])('%s s → %s', (seconds, text) => {
    expect(formatAge(seconds, t)).toBe(text);
  });

  it('secondsSince parses ISO and Date, rejects garbage, clamps the future to 0', () => {
    expect(secondsSince('2026-11-22T03:48:00Z', NOW)).toBe(720);
    expect(secondsSince(new Date('2026-11-22T03:59:00Z'), NOW)).toBe(60);
    expect(secondsSince('not a time', NOW)).toBeUndefined();
    expect(secondsSince(undefined, NOW)).toBeUndefined();
    expect(secondsSince('2026-11-22T05:00:00Z', NOW)).toBe(0);
  });
});

describe('describeNode', () => {
  it('starts with the verdict short name and says for how long', () => {
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: minutesAgo(3.5) }), NOW, t)).toBe('PLEG · NotReady for 3m');
    expect(describeNode(classification({ name: 'a', verdict: 'runtime-down', readyStatus: 'False', since: minutesAgo(12) }), NOW, t)).toBe('Runtime down · NotReady for 12m');
    expect(describeNode(classification({ name: 'a', verdict: 'lease-lost', readyStatus: 'Unknown', since: minutesAgo(0.5) }), NOW, t)).toBe('No heartbeat · Unknown for 30s');
    expect(describeNode(classification({ name: 'a', verdict: 'startup', readyStatus: 'False', since: minutesAgo(1) }), NOW, t)).toBe('Starting · NotReady for 1m');
    expect(describeNode(classification({ name: 'a', verdict: 'network', readyStatus: 'False', since: minutesAgo(180) }), NOW, t)).toBe('Network · NotReady for 3h');
  });

  it('does not repeat NotReady for the catch-all verdict', () => {
    expect(describeNode(classification({ name: 'a', verdict: 'not-ready-other', readyStatus: 'False', since: minutesAgo(61) }), NOW, t)).toBe('NotReady for 1h');
  });

  it('healthy nodes carry no age, but flags', () => {
    expect(describeNode(classification({ name: 'a', since: minutesAgo(9999) }), NOW, t)).toBe('Ready');
    expect(describeNode(classification({ name: 'a', cordoned: true, pressures: ['DiskPressure', 'PIDPressure'] }), NOW, t)).toBe('Ready · cordoned · DiskPressure · PIDPressure');
  });

  it('leaves the age out when the transition time is missing or garbage', () => {
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False' }), NOW, t)).toBe('PLEG · NotReady');
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: 'yesterday' }), NOW, t)).toBe('PLEG · NotReady');
    expect(describeNode(classification({ name: 'a', verdict: 'not-ready-other', readyStatus: 'missing' }), NOW, t)).toBe('NotReady · no Ready condition');
  });

  it('is translated through the zh-cn bundle', () => {
    const bundle = JSON.parse(readFileSync(new URL('../../../l10n/bundle.l10n.zh-cn.json', import.meta.url), 'utf8')) as Record<string, string>;
    const zh: Localize = (message, ...args) => englishText(bundle[message] ?? `MISSING(${message})`, ...args);
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: minutesAgo(3) }), NOW, zh)).toBe('PLEG · NotReady 已持续 3分钟');
    expect(describeNode(classification({ name: 'a', verdict: 'runtime-down', readyStatus: 'False', since: minutesAgo(120), cordoned: true }), NOW, zh)).toBe(
      '运行时宕机 · NotReady 已持续 2小时 · 已封锁',
    );
  });
});
