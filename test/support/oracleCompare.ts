// The oracle README's comparison rules, as a function from (expected, actual) step to a list of mismatches.

import type { PlegEvent } from '../../src/core/pleg/types';

type Step = Record<string, unknown>;

function byPod(events: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of (events as PlegEvent[] | undefined) ?? []) {
    const list = out.get(e.pod) ?? [];
    list.push(`${e.type}:${e.data}`);
    out.set(e.pod, list);
  }
  return out;
}

/** JSON with object keys sorted: key order carries no meaning (the 1.36 harness prints keys sorted). */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_key, value: unknown) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const o = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
  });
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function sortedMap(m: Map<string, string[]>): [string, string[]][] {
  return [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function generatedByPod(step: Step): Map<string, string[]> {
  const g = (step.generatedByPod as Record<string, PlegEvent[]> | undefined) ?? {};
  const out = new Map<string, string[]>();
  for (const [pod, events] of Object.entries(g)) out.set(pod, events.map((e) => `${e.type}:${e.data}`));
  return out;
}

function len(v: unknown): number {
  return Array.isArray(v) ? v.length : 0;
}

function sortBy<T>(list: T[], key: (t: T) => string): T[] {
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const ON_DEMAND_FIELDS = [
  'relistQueue',
  'relistRequestsAccepted',
  'relistRequestsDropped',
  'droppedRequests',
  'relistRequestsIgnored',
  'queueHandled',
  'getPodCalls',
  'cacheObserved',
  'hangAtMs',
  'hangHealthy',
  'hangHealthyError',
  'hangGlobalRelistBlocked',
] as const;

/** Keys whose presence may legitimately differ on order-sensitive steps. */
const ORDER_KEYS = new Set(['delivered', 'discarded', 'consumed', 'generatedByPod', 'orderSensitive']);

export function compareStep(expected: Step, actual: Step): string[] {
  const problems: string[] = [];
  const check = (field: string, e: unknown, a: unknown): void => {
    if (!same(e, a)) problems.push(`${field}: expected ${JSON.stringify(e)}, got ${JSON.stringify(a)}`);
  };
  const orderSensitive = expected.orderSensitive === true;
  if (orderSensitive) {
    check('discardCount', expected.discardCount, actual.discardCount);
    check('delivered count', len(expected.delivered), len(actual.delivered));
    check('consumed count', len(expected.consumed), len(actual.consumed));
    check('generatedByPod', sortedMap(generatedByPod(expected)), sortedMap(generatedByPod(actual)));
    const gen = generatedByPod(expected);
    for (const [pod, events] of byPod(actual.delivered)) {
      const block = gen.get(pod) ?? [];
      if (!same(block.slice(0, events.length), events)) problems.push(`delivered for ${pod} ${JSON.stringify(events)} is not a prefix of ${JSON.stringify(block)}`);
    }
  } else {
    for (const field of ['delivered', 'discarded', 'consumed']) {
      check(`${field} (per pod)`, sortedMap(byPod(expected[field])), sortedMap(byPod(actual[field])));
    }
    check('generatedByPod', sortedMap(generatedByPod(expected)), sortedMap(generatedByPod(actual)));
    check('discardCount', expected.discardCount, actual.discardCount);
  }
  check('channelLenAfter', expected.channelLenAfter, actual.channelLenAfter);
  check('relistTimeMs', expected.relistTimeMs, actual.relistTimeMs);
  check('podsToReinspect', expected.podsToReinspect ?? [], actual.podsToReinspect ?? []);
  check('getPodStatusCalls', [...((expected.getPodStatusCalls as string[] | undefined) ?? [])].sort(), [...((actual.getPodStatusCalls as string[] | undefined) ?? [])].sort());
  check('healthy', expected.healthy, actual.healthy);
  check('healthyError', expected.healthyError, actual.healthyError);
  check('cache', expected.cache ?? [], actual.cache ?? []);
  // Stricter than the README asks: the model's internal state and cache traffic match too.
  check('podRecords', expected.podRecords ?? [], actual.podRecords ?? []);
  const setKey = (s: Record<string, unknown>): string => canonical(s);
  check('cacheSets', sortBy((expected.cacheSets as Record<string, unknown>[] | undefined) ?? [], setKey), sortBy((actual.cacheSets as Record<string, unknown>[] | undefined) ?? [], setKey));
  check('cacheDeletes', [...((expected.cacheDeletes as string[] | undefined) ?? [])].sort(), [...((actual.cacheDeletes as string[] | undefined) ?? [])].sort());
  check('cacheUpdateTimeMs', expected.cacheUpdateTimeMs, actual.cacheUpdateTimeMs);
  // 1.36 corpus: the on-demand relist fields compare exactly (getPodCalls in queue order, FIFO).
  for (const field of ON_DEMAND_FIELDS) check(field, expected[field], actual[field]);
  // The same fields are present (the oracle omits empty ones; so must we).
  const keys = (s: Step): string[] => Object.keys(s).filter((k) => !(orderSensitive && ORDER_KEYS.has(k))).sort();
  check('fields', keys(expected), keys(actual));
  return problems;
}
