// The kubelet's config file as the agent reads it (infra/agent/kubeletConfigFile.ts), held against the
// same kubelet's /configz: the real kubelet 1.32 of test/fixtures/real-kubelet-1.32 ran with
// setup/kubelet-config.yaml (copied from ../shared/fixtures/real-kubelet-1.32/setup/) and served configz.json.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKubeletConfigz } from '../../../../src/core/parse/kubeletConfigz';
import { parseKubeletConfigFile } from '../../../../src/infra/agent/kubeletConfigFile';

const dir = join(__dirname, '../../../fixtures/real-kubelet-1.32');

describe('parseKubeletConfigFile', () => {
  it('reads the file the real kubelet ran with as its /configz says it ran', () => {
    const file = parseKubeletConfigFile(readFileSync(join(dir, 'setup/kubelet-config.yaml'), 'utf8'), 'kubelet-config.yaml');
    const configz = parseKubeletConfigz(readFileSync(join(dir, 'configz.json'), 'utf8'));
    expect(file.runtimeRequestTimeoutMs).toBe(configz.runtimeRequestTimeoutMs);
    expect(file.runtimeRequestTimeoutDefaulted).toBe(false);
    expect(file.featureGates).toEqual(configz.featureGates);
    expect(file.syncFrequencyMs).toBe(configz.syncFrequencyMs);
    expect(file.cgroupDriver).toBe(configz.cgroupDriver);
    // The file is not defaulted: maxPods (110 in /configz) is the kubelet's default or a flag; the Node's capacity says which.
    expect(file.maxPods).toBeUndefined();
  });

  it('reads JSON, the gates and a runtime request timeout; defaults the timeout to 2m as the kubelet does', () => {
    const file = parseKubeletConfigFile('{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","runtimeRequestTimeout":"20s","maxPods":250,"featureGates":{"EventedPLEG":true}}', 'c.json');
    expect(file).toMatchObject({ runtimeRequestTimeoutMs: 20_000, maxPods: 250, featureGates: { EventedPLEG: true } });
    expect(parseKubeletConfigFile('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n', 'c.yaml')).toMatchObject({ runtimeRequestTimeoutMs: 120_000, runtimeRequestTimeoutDefaulted: true });
  });

  it('names the file and the cause of what it cannot read', () => {
    expect(() => parseKubeletConfigFile('kind: KubeletConfiguration\napiVersion: v1\n', '/etc/k.yaml')).toThrow(/\/etc\/k\.yaml: apiVersion is "v1"/u);
    expect(() => parseKubeletConfigFile('kind: Pod\n', '/etc/k.yaml')).toThrow(/kind is "Pod", expected KubeletConfiguration/u);
    expect(() => parseKubeletConfigFile('a: [\n', '/etc/k.yaml')).toThrow(/\/etc\/k\.yaml: not YAML or JSON/u);
    expect(() => parseKubeletConfigFile('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nruntimeRequestTimeout: soon\n', '/etc/k.yaml')).toThrow(/\/etc\/k\.yaml\.runtimeRequestTimeout/u);
  });
});
