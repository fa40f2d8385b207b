import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCESS_WAY_SETTINGS, parseAccessWaySettings } from '../../../../src/core/nodeAccess/accessWaySettings';

describe('parseAccessWaySettings', () => {
  it('defaults to every way, the agent namespace pleg-doctor and the DaemonSet image', () => {
    expect(parseAccessWaySettings({})).toEqual({ settings: DEFAULT_ACCESS_WAY_SETTINGS, problems: [] });
    expect(DEFAULT_ACCESS_WAY_SETTINGS.allowed).toEqual(['agent', 'ssh', 'debug-pod']);
  });

  it('keeps the listed ways in their fixed order and names the unknown ones', () => {
    const r = parseAccessWaySettings({ ways: ['ssh', 'kubectl', 'agent', 3] });
    expect(r.settings.allowed).toEqual(['agent', 'ssh']);
    expect(r.problems).toEqual(['plegDoctor.nodeAccess.ways: "kubectl", 3 are not one of agent, ssh, debug-pod (ignored)']);
    expect(parseAccessWaySettings({ ways: [] }).settings.allowed).toEqual([]);
  });

  it('refuses a list that is not one, and namespaces and images that are not names, saying what it uses instead', () => {
    const r = parseAccessWaySettings({ ways: 'agent', agentNamespace: 'Kube System', debugPodNamespace: 'ops', debugPodImage: 'a b' });
    expect(r.settings).toEqual({ allowed: ['agent', 'ssh', 'debug-pod'], agentNamespace: 'pleg-doctor', debugPod: { namespace: 'ops', image: '' } });
    expect(r.problems).toEqual([
      'plegDoctor.nodeAccess.ways must be a list of agent, ssh, debug-pod; using all three',
      'plegDoctor.nodeAccess.agentNamespace: "Kube System" is not a namespace name; using pleg-doctor',
      'plegDoctor.nodeAccess.debugPod.image: "a b" is not an image reference; using the agent DaemonSet\'s image',
    ]);
    expect(parseAccessWaySettings({ debugPodImage: ' registry.example/pleg-doctor-agent:1.0 ' }).settings.debugPod.image).toBe('registry.example/pleg-doctor-agent:1.0');
  });
});
