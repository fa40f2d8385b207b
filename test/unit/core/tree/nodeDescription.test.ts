import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatAge, secondsSince } from '../../../../src/core/tree/humanAge';
import type { Localize } from '../../../../src/core/tree/localize';
import { englishText } from '../../../../src/core/tree/localize';
import { describeNode } from '../../../../src/core/tree/nodeDescription';
import { classification, minutesAgo, NOW } from '../../../support/nodeFixtures';

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
  it('starts with the verdict short name and keeps the rest short: the age only', () => {
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: minutesAgo(3.5) }), NOW, t)).toBe('PLEG · 3m');
    expect(describeNode(classification({ name: 'a', verdict: 'runtime-down', readyStatus: 'False', since: minutesAgo(12) }), NOW, t)).toBe('Runtime down · 12m');
    expect(describeNode(classification({ name: 'a', verdict: 'lease-lost', readyStatus: 'Unknown', since: minutesAgo(0.5) }), NOW, t)).toBe('No heartbeat · 30s');
    expect(describeNode(classification({ name: 'a', verdict: 'startup', readyStatus: 'False', since: minutesAgo(1) }), NOW, t)).toBe('Starting · 1m');
    expect(describeNode(classification({ name: 'a', verdict: 'network', readyStatus: 'False', since: minutesAgo(180) }), NOW, t)).toBe('Network · 3h');
    expect(describeNode(classification({ name: 'a', verdict: 'not-ready-other', readyStatus: 'False', since: minutesAgo(61) }), NOW, t)).toBe('NotReady · 1h');
  });

  it('fits the default side bar: at most 20 characters for every verdict without flags', () => {
    for (const verdict of ['pleg', 'runtime-down', 'lease-lost', 'startup', 'network', 'not-ready-other'] as const) {
      expect(describeNode(classification({ name: 'a', verdict, readyStatus: 'False', since: minutesAgo(59) }), NOW, t).length).toBeLessThanOrEqual(20);
    }
  });

  it('healthy nodes carry no age, but flags', () => {
    expect(describeNode(classification({ name: 'a', since: minutesAgo(9999) }), NOW, t)).toBe('Ready');
    expect(describeNode(classification({ name: 'a', cordoned: true, pressures: ['DiskPressure', 'PIDPressure'] }), NOW, t)).toBe('Ready · cordoned · DiskPressure · PIDPressure');
  });

  it('ends with the flap count once a node went NotReady twice in the window', () => {
    const flapping = { count: 3, atLeast: false, windowS: 1800 };
    expect(describeNode(classification({ name: 'a' }), NOW, t, flapping)).toBe('Ready · 3 flaps');
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: minutesAgo(1) }), NOW, t, flapping)).toBe('PLEG · 1m · 3 flaps');
    expect(describeNode(classification({ name: 'a' }), NOW, t, { ...flapping, count: 4, atLeast: true })).toBe('Ready · ≥4 flaps');
    expect(describeNode(classification({ name: 'a' }), NOW, t, { ...flapping, count: 1 })).toBe('Ready');
  });

  it('leaves the age out when the transition time is missing or garbage', () => {
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False' }), NOW, t)).toBe('PLEG');
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: 'yesterday' }), NOW, t)).toBe('PLEG');
    expect(describeNode(classification({ name: 'a', verdict: 'not-ready-other', readyStatus: 'missing' }), NOW, t)).toBe('NotReady · no Ready condition');
  });

  it('is translated through the zh-cn bundle', () => {
    const bundle = JSON.parse(readFileSync(new URL('../../../../l10n/bundle.l10n.zh-cn.json', import.meta.url), 'utf8')) as Record<string, string>;
    const zh: Localize = (message, ...args) => englishText(bundle[message] ?? `MISSING(${message})`, ...args);
    expect(describeNode(classification({ name: 'a', verdict: 'pleg', readyStatus: 'False', since: minutesAgo(3) }), NOW, zh)).toBe('PLEG · 3分钟');
    expect(describeNode(classification({ name: 'a', verdict: 'runtime-down', readyStatus: 'False', since: minutesAgo(120), cordoned: true }), NOW, zh, { count: 2, atLeast: false, windowS: 1800 })).toBe(
      '运行时宕机 · 2小时 · 已封锁 · 抖动 2 次',
    );
  });
});
