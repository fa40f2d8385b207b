import { describe, expect, it } from 'vitest';
import { DIAGNOSTICS_DEFAULTS, decideNodeSide, validateDiagnosticsConfig } from '../../../../src/host/diagnostics/diagnosticsSettings';

describe('plegDoctor.diagnostics settings', () => {
  it('unset values take the defaults: node side auto, node proxy on, 15 s per endpoint, 5 s between scrapes', () => {
    const { config, problems } = validateDiagnosticsConfig({});
    expect(problems).toEqual([]);
    expect(config).toEqual({ nodeSide: 'auto', useNodeProxy: true, proxyTimeoutMs: 15_000, metricsIntervalMs: 5_000 });
    expect(config).toEqual(DIAGNOSTICS_DEFAULTS);
  });

  it('reads valid values, seconds to milliseconds; 0 s between scrapes means one scrape', () => {
    const { config, problems } = validateDiagnosticsConfig({ nodeSide: 'never', useNodeProxy: false, proxyTimeoutSeconds: 2.5, metricsIntervalSeconds: 0 });
    expect(problems).toEqual([]);
    expect(config).toEqual({ nodeSide: 'never', useNodeProxy: false, proxyTimeoutMs: 2_500, metricsIntervalMs: 0 });
  });

  it('accepts the bounds exactly: 1 and 300 s per endpoint, 60 s between scrapes', () => {
    expect(validateDiagnosticsConfig({ proxyTimeoutSeconds: 1 }).config.proxyTimeoutMs).toBe(1_000);
    expect(validateDiagnosticsConfig({ proxyTimeoutSeconds: 300 }).config.proxyTimeoutMs).toBe(300_000);
    expect(validateDiagnosticsConfig({ metricsIntervalSeconds: 60 }).config.metricsIntervalMs).toBe(60_000);
  });

  it('names each bad value with its setting, the rule and what was written', () => {
    const { problems, config } = validateDiagnosticsConfig({ nodeSide: 'sometimes', useNodeProxy: 'yes', proxyTimeoutSeconds: 0, metricsIntervalSeconds: 61 });
    expect(problems.map((p) => p.message)).toEqual([
      'plegDoctor.diagnostics.nodeSide must be "auto", "always" or "never", got "sometimes"',
      'plegDoctor.diagnostics.useNodeProxy must be true or false, got "yes"',
      'plegDoctor.diagnostics.proxyTimeoutSeconds must be a number of seconds from 1 to 300, got 0',
      'plegDoctor.diagnostics.metricsIntervalSeconds must be a number of seconds from 0 to 60, got 61',
    ]);
    expect(problems.map((p) => p.setting)).toEqual([
      'plegDoctor.diagnostics.nodeSide',
      'plegDoctor.diagnostics.useNodeProxy',
      'plegDoctor.diagnostics.proxyTimeoutSeconds',
      'plegDoctor.diagnostics.metricsIntervalSeconds',
    ]);
    // The command refuses to run with problems; the config still holds only valid values.
    expect(config).toEqual(DIAGNOSTICS_DEFAULTS);
  });

  it('rejects non-numbers and non-finite numbers for the durations', () => {
    for (const bad of ['15', null, Number.NaN, Number.POSITIVE_INFINITY, -1, [], {}]) {
      const { problems } = validateDiagnosticsConfig({ proxyTimeoutSeconds: bad });
      expect(problems, String(bad)).toHaveLength(1);
      expect(problems[0]!.message).toMatch(/^plegDoctor\.diagnostics\.proxyTimeoutSeconds must be a number of seconds from 1 to 300, got /);
    }
    expect(validateDiagnosticsConfig({ metricsIntervalSeconds: null }).problems[0]!.message).toMatch(/got null$/);
    expect(validateDiagnosticsConfig({ metricsIntervalSeconds: [] }).problems[0]!.message).toMatch(/got an array$/);
  });
});

describe('whether the diagnosis reads the node over SSH', () => {
  it('auto: only for a context configured in plegDoctor.nodeAccess.clusters, otherwise it says why not', () => {
    expect(decideNodeSide('auto', 'prod', true)).toEqual({ run: true });
    const skipped = decideNodeSide('auto', 'prod-eu', false);
    expect(skipped.run).toBe(false);
    if (!skipped.run) {
      expect(skipped.reason).toContain('"prod-eu"');
      expect(skipped.reason).toContain('plegDoctor.nodeAccess.clusters');
      expect(skipped.reason).toContain('plegDoctor.diagnostics.nodeSide is "auto"');
    }
  });

  it('always runs; never never does, naming the setting', () => {
    expect(decideNodeSide('always', 'x', false)).toEqual({ run: true });
    expect(decideNodeSide('never', 'x', true)).toEqual({ run: false, reason: 'plegDoctor.diagnostics.nodeSide is "never"' });
  });
});
