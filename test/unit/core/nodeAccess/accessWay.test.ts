import { describe, expect, it } from 'vitest';
import { chooseAccessWay, isAccessWay, wayLabel } from '../../../../src/core/nodeAccess/accessWay';

describe('chooseAccessWay', () => {
  it('prefers the agent when one runs on the node, then SSH', () => {
    expect(chooseAccessWay({ agentPod: 'pleg-doctor/a-1', sshConfigured: true })).toMatchObject({ ok: true, way: 'agent' });
    expect(chooseAccessWay({ sshConfigured: true })).toMatchObject({ ok: true, way: 'ssh' });
  });

  it('never picks a debug pod unless asked for by name', () => {
    const r = chooseAccessWay({ sshConfigured: false });
    expect(r.ok).toBe(false);
    expect(r.ok === false && r.error).toMatch(/--access debug-pod/);
    expect(chooseAccessWay({ requested: 'debug-pod', sshConfigured: false })).toMatchObject({ ok: true, way: 'debug-pod' });
  });

  it('refuses a requested way that is not allowed or not available, without falling back', () => {
    expect(chooseAccessWay({ requested: 'ssh', allowed: ['agent'], agentPod: 'ns/p', sshConfigured: true })).toMatchObject({ ok: false });
    expect(chooseAccessWay({ requested: 'agent', sshConfigured: true })).toMatchObject({ ok: false, error: expect.stringMatching(/no running pleg-doctor-agent pod/) });
    expect(chooseAccessWay({ requested: 'ssh', sshConfigured: false })).toMatchObject({ ok: false, error: expect.stringMatching(/not configured/) });
  });

  it('skips a way the user does not allow when choosing', () => {
    expect(chooseAccessWay({ allowed: ['ssh'], agentPod: 'ns/p', sshConfigured: true })).toMatchObject({ ok: true, way: 'ssh' });
    const none = chooseAccessWay({ allowed: ['agent'], sshConfigured: true });
    expect(none.ok === false && none.error).not.toMatch(/debug-pod|SSH to the node;/);
  });

  it('names the way', () => {
    expect(isAccessWay('debug-pod')).toBe(true);
    expect(isAccessWay('kubectl')).toBe(false);
    expect(wayLabel('agent', 'pleg-doctor/x')).toBe('via agent pod pleg-doctor/x');
  });
});
