import { describe, expect, it } from 'vitest';
import { DEFAULT_WHAT_IF, runWhatIf } from '../../../src/core/whatIf/whatIfTimeline';
import { isWebviewMessage, whatIfParamsProblem } from '../../../src/shared/panelProtocol';

describe('what-if timeline', () => {
  it('a 300 s runtime freeze makes PLEG unhealthy about 3 minutes in, and the node NotReady', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 10, durationS: 600, freezeAtS: 60, freezeForS: 300 });
    expect(data.thresholdMs).toBe(180_000);
    const first = data.unhealthy[0];
    expect(first).toBeDefined();
    // The last good relist started just before the freeze; the threshold is crossed 3 min later.
    expect(first!.fromMs).toBeGreaterThan(60_000 + 170_000);
    expect(first!.fromMs).toBeLessThan(60_000 + 190_000);
    expect(data.notReady.length).toBeGreaterThan(0);
    expect(data.relists.some((r) => !r.ok)).toBe(true);
    expect(data.notes.join('\n')).toMatch(/first unhealthy/);
  });

  it('no freeze and fast calls stay healthy', () => {
    const data = runWhatIf({ ...DEFAULT_WHAT_IF, pods: 20, durationS: 120, freezeForS: 0 });
    expect(data.unhealthy).toEqual([]);
    expect(data.relists.every((r) => r.ok)).toBe(true);
    expect(data.notes.join('\n')).toMatch(/stayed healthy/);
  });
});

describe('panel protocol validation', () => {
  it('accepts well-formed messages and rejects the rest', () => {
    expect(isWebviewMessage({ type: 'ready' })).toBe(true);
    expect(isWebviewMessage({ type: 'simulate', requestId: 1, params: DEFAULT_WHAT_IF })).toBe(true);
    expect(isWebviewMessage({ type: 'simulate', requestId: 1, params: { ...DEFAULT_WHAT_IF, pods: -1 } })).toBe(false);
    expect(isWebviewMessage({ type: 'simulate', requestId: 'x', params: DEFAULT_WHAT_IF })).toBe(false);
    expect(isWebviewMessage({ type: 'exec', command: 'rm -rf /' })).toBe(false);
    expect(isWebviewMessage(null)).toBe(false);
    expect(whatIfParamsProblem({ ...DEFAULT_WHAT_IF, kubelet: '1.99' })).toMatch(/kubelet/);
  });
});
