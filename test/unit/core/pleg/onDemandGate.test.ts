import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { summarizeKubeletMetrics } from '../../../../src/core/parse/kubeletMetrics';
import { readOnDemandGate } from '../../../../src/core/pleg/onDemandGate';

describe('readOnDemandGate', () => {
  it('the real v1.36.2 kubelet exports the gate on /metrics: on, from kubernetes_feature_enabled', () => {
    const text = readFileSync(new URL('../../../fixtures/real-kubelet-1.36/metrics-containerd2.3.txt', import.meta.url), 'utf8');
    expect(readOnDemandGate({ metricsGates: summarizeKubeletMetrics(text).featureGates, minor: 36 })).toEqual({ enabled: true, source: 'metrics' });
  });

  it('what the kubelet exports wins over its configz, which wins over the version default', () => {
    expect(readOnDemandGate({ metricsGates: { PLEGOnDemandRelist: false }, configzGates: { PLEGOnDemandRelist: true }, minor: 36 })).toEqual({ enabled: false, source: 'metrics' });
    expect(readOnDemandGate({ metricsGates: { EventedPLEG: false }, configzGates: { PLEGOnDemandRelist: false }, minor: 36 })).toEqual({ enabled: false, source: 'configz' });
    expect(readOnDemandGate({ configzGates: {}, minor: 36 })).toEqual({ enabled: true, source: 'versionDefault' });
  });

  it('before 1.36 there is no such code: no gate unless the kubelet exports one; nothing known → none', () => {
    expect(readOnDemandGate({ minor: 35 })).toBeUndefined();
    expect(readOnDemandGate({ minor: 26, metricsGates: { EventedPLEG: false } })).toBeUndefined();
    expect(readOnDemandGate({})).toBeUndefined();
  });
});
