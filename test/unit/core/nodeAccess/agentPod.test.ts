import { describe, expect, it } from 'vitest';
import { pickAgentPod } from '../../../../src/core/nodeAccess/agentPod';

const pod = (name: string, node: string, phase: string, ready: boolean, terminating = false): unknown => ({
  metadata: { name, namespace: 'pleg-doctor', labels: { 'app.kubernetes.io/name': 'pleg-doctor-agent' }, ...(terminating ? { deletionTimestamp: '2026-11-28T12:00:00Z' } : {}) },
  spec: { nodeName: node },
  status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

describe('pickAgentPod', () => {
  it('the Running, ready, not terminating pod on the node', () => {
    const items = [pod('a-old', 'n1', 'Running', true, true), pod('a-other', 'n2', 'Running', true), pod('a-new', 'n1', 'Running', true)];
    expect(pickAgentPod(items, 'n1', 'pleg-doctor')).toEqual({ found: true, pod: { namespace: 'pleg-doctor', name: 'a-new' } });
  });
  it('a pod without the agent\u2019s label is never the agent, even if the server returned it', () => {
    const other = { metadata: { name: 'web-1', labels: { app: 'web' } }, spec: { nodeName: 'n1' }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } };
    expect(pickAgentPod([other], 'n1', 'ns')).toEqual({ found: false, why: 'no pod labelled app.kubernetes.io/name=pleg-doctor-agent on node n1 in namespace ns' });
  });
  it('two usable (a rollout): the first by name, stable from one call to the next', () => {
    expect(pickAgentPod([pod('b', 'n1', 'Running', true), pod('a', 'n1', 'Running', true)], 'n1', 'ns')).toEqual({ found: true, pod: { namespace: 'ns', name: 'a' } });
  });
  it('none usable: says what is there instead', () => {
    expect(pickAgentPod([pod('a', 'n1', 'Pending', false)], 'n1', 'ns')).toEqual({ found: false, why: 'the agent pod on node n1 cannot answer: a (Pending, not ready)' });
    expect(pickAgentPod([pod('a', 'n1', 'Running', false)], 'n1', 'ns')).toEqual({ found: false, why: 'the agent pod on node n1 cannot answer: a (Running, not ready)' });
    expect(pickAgentPod([pod('a', 'n2', 'Running', true)], 'n1', 'ns')).toEqual({ found: false, why: 'no pod labelled app.kubernetes.io/name=pleg-doctor-agent on node n1 in namespace ns' });
  });
});
