import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS, KubeletConfigzError, parseKubeletConfigz } from '../../../../src/core/parse/kubeletConfigz';

const REAL = readFileSync(new URL('../../../fixtures/real-kubelet-1.32/configz.json', import.meta.url), 'utf8');

const withConfig = (config: Record<string, unknown>): string => JSON.stringify({ kubeletconfig: config });

describe('parseKubeletConfigz', () => {
  it('reads the real kubelet 1.32 /configz', () => {
    expect(parseKubeletConfigz(REAL)).toEqual({
      runtimeRequestTimeoutMs: 120_000,
      runtimeRequestTimeoutDefaulted: false,
      featureGates: {},
      containerRuntimeEndpoint: 'unix:///var/lib/kubelet-test/runtime/containerd/containerd.sock',
      maxPods: 110,
      nodeStatusUpdateFrequencyMs: 10_000,
      syncFrequencyMs: 60_000,
      cgroupDriver: 'cgroupfs',
      enableDebuggingHandlers: true,
      enableProfilingHandler: true,
      enableSystemLogQuery: false,
    });
  });

  it('parses Go durations exactly, fractions included', () => {
    const c = parseKubeletConfigz(withConfig({ runtimeRequestTimeout: '4m30.5s', syncFrequency: '1m0.000001s' }));
    expect(c.runtimeRequestTimeoutMs).toBe(270_500);
    expect(c.syncFrequencyMs).toBe(60_000.001);
  });

  it('assumes the 2m default when runtimeRequestTimeout is absent, and says so', () => {
    const c = parseKubeletConfigz(withConfig({}));
    expect(c).toEqual({ runtimeRequestTimeoutMs: DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS, runtimeRequestTimeoutDefaulted: true, featureGates: {} });
    expect(DEFAULT_RUNTIME_REQUEST_TIMEOUT_MS).toBe(120_000);
  });

  it('reads feature gates, EventedPLEG included', () => {
    const c = parseKubeletConfigz(withConfig({ featureGates: { EventedPLEG: true, KubeletTracing: false }, cgroupDriver: 'systemd' }));
    expect(c.featureGates).toEqual({ EventedPLEG: true, KubeletTracing: false });
    expect(c.cgroupDriver).toBe('systemd');
  });

  it('keeps a gate named __proto__ as data', () => {
    const gates = parseKubeletConfigz('{"kubeletconfig":{"featureGates":{"__proto__":true}}}').featureGates;
    expect(Object.getPrototypeOf(gates)).toBe(Object.prototype);
    expect(Object.entries(gates)).toEqual([['__proto__', true]]);
  });

  it('accepts the pre-1.8 "componentconfig" wrapper', () => {
    expect(parseKubeletConfigz(JSON.stringify({ componentconfig: { runtimeRequestTimeout: '2m0s', maxPods: 110 } })).maxPods).toBe(110);
  });

  const bad: [string, string, RegExp][] = [
    ['a body that is not JSON', '404 page not found', /configz: not JSON .*body starts "404 page not found"/],
    ['JSON that is not an object', '[1,2]', /expected an object, got an array/],
    ['no kubeletconfig', '{"kind":"Status","code":403}', /no "kubeletconfig" object \(top-level keys: kind, code\)/],
    ['a kubeletconfig that is not an object', '{"kubeletconfig":"x"}', /kubeletconfig is the string "x", expected an object/],
    ['a bad duration', withConfig({ runtimeRequestTimeout: '2 minutes' }), /kubeletconfig\.runtimeRequestTimeout: invalid Go duration "2 minutes"/],
    ['a duration given as a number', withConfig({ runtimeRequestTimeout: 120 }), /kubeletconfig\.runtimeRequestTimeout is a number, expected a string/],
    ['a gate that is not a boolean', withConfig({ featureGates: { EventedPLEG: 'true' } }), /featureGates\.EventedPLEG is the string "true", expected true or false/],
    ['featureGates as a list', withConfig({ featureGates: ['EventedPLEG'] }), /featureGates is an array, expected an object/],
    ['maxPods as a string', withConfig({ maxPods: '110' }), /kubeletconfig\.maxPods is the string "110", expected an integer/],
    ['a handler flag as a string', withConfig({ enableProfilingHandler: 'yes' }), /enableProfilingHandler is the string "yes", expected true or false/],
  ];
  it.each(bad)('names the cause for %s', (_what, text, message) => {
    expect(() => parseKubeletConfigz(text)).toThrow(KubeletConfigzError);
    expect(() => parseKubeletConfigz(text)).toThrow(message);
  });
});
