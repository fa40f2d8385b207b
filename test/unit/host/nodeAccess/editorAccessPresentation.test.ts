// What the editor shows around the node's way: the trust gate of the debug pod, its modal (the exact
// manifest's words), the "no way" error, and when SSH counts as configured.

import { describe, expect, it } from 'vitest';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { englishText } from '../../../../src/core/tree/localize';
import { debugPodGate, debugPodModal, noAccessPresentation, sshAccessFor } from '../../../../src/host/nodeAccess/editorAccessPresentation';
import { planDebugPodSnapshot } from '../../../../src/infra/nodeAccess/debugPod/debugPodSnapshot';
import { validateNodeAccessConfig } from '../../../../src/infra/ssh/nodeAccessSettings';
import { fakePodsApi } from '../../../support/fakePodsApi';

const node: KubeNode = { metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: 'containerd://1.7.2' } } };
const signal = new AbortController().signal;

describe('debugPodGate', () => {
  it('refuses in an untrusted workspace, saying so; allows in a trusted one', () => {
    expect(debugPodGate({ workspaceTrusted: false })).toEqual({ allowed: false, reason: 'a debug pod is not created from an untrusted workspace' });
    expect(debugPodGate({ workspaceTrusted: true })).toEqual({ allowed: true });
  });
});

describe('debugPodModal', () => {
  it('shows the confirmation of the exact manifest, the image source and why no other way', async () => {
    const api = fakePodsApi({ phases: [], daemonSet: [{ container: 'agent', image: 'reg/agent:2' }] });
    const plan = await planDebugPodSnapshot(api, { node, namespace: 'dbg', agentNamespace: 'agents', deadlineSeconds: 120, callDeadlineMs: 5000 }, signal);
    const modal = debugPodModal('n1', plan, 'no agent (none on n1); no SSH (no entry)', englishText);
    expect(modal.message).toBe('Reach node n1 through a debug pod?');
    expect(modal.confirm).toBe('Create Debug Pod');
    expect(modal.detail.startsWith(`${plan.confirmation}\n`)).toBe(true);
    expect(modal.detail).toContain(`Create pod dbg/${plan.manifest.metadata.name} on node n1?`);
    expect(modal.detail).toContain('image:      reg/agent:2');
    expect(modal.detail).toContain('image from: DaemonSet agents/pleg-doctor-agent');
    expect(modal.detail).toContain('Neither the agent nor SSH can be used: no agent (none on n1); no SSH (no entry)');
  });

  it("names the editor's setting when the image comes from it", async () => {
    const api = fakePodsApi({ phases: [] });
    const plan = await planDebugPodSnapshot(api, { node, namespace: 'dbg', image: 'mine:1', imageOption: 'the setting plegDoctor.nodeAccess.debugPod.image', deadlineSeconds: 120, callDeadlineMs: 5000 }, signal);
    expect(debugPodModal('n1', plan, 'x', englishText).detail).toContain('image from: the setting plegDoctor.nodeAccess.debugPod.image');
    expect(api.calls).toEqual([]);
  });
});

describe('noAccessPresentation', () => {
  it('says why and offers Configure Node Access and Open Settings', () => {
    expect(noAccessPresentation('n1', 'no agent (none on n1); no SSH (no entry)', englishText)).toEqual({
      message: 'CRI snapshot of n1: no way to reach the node: no agent (none on n1); no SSH (no entry)',
      actions: ['configure', 'settings'],
    });
  });
});

describe('sshAccessFor', () => {
  it('needs an entry for the context (unless asked not to), and no blocking problem for the node', () => {
    const none = validateNodeAccessConfig({});
    expect(sshAccessFor(none.config, none.problems, 'kind-a', 'n1')).toEqual({ configured: false, why: 'context "kind-a" has no entry in plegDoctor.nodeAccess.clusters' });
    expect(sshAccessFor(none.config, none.problems, 'kind-a', 'n1', true)).toEqual({ configured: true });

    const ok = validateNodeAccessConfig({ clusters: { 'kind-a': { user: 'core' } } });
    expect(ok.problems).toEqual([]);
    expect(sshAccessFor(ok.config, ok.problems, 'kind-a', 'n1')).toEqual({ configured: true });

    const bad = validateNodeAccessConfig({ clusters: { 'kind-a': { port: 'twenty-two' } } });
    expect(bad.problems.length).toBeGreaterThan(0);
    const answer = sshAccessFor(bad.config, bad.problems, 'kind-a', 'n1', true);
    expect(answer.configured).toBe(false);
    expect(!answer.configured && answer.why).toMatch(/^the node access settings have problems: .*port/);
  });
});
