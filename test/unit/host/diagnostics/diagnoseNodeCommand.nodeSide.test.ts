// Diagnose Node's node tier through the way resolveNodeAccess chose: the agent's snapshot named with its
// age, a confirmed debug pod's snapshot said to be the snapshot only (no probes: the pod has no hostPID),
// a declined pod or no way as the skip reason; never the SSH journal for the kubelet log off SSH.

import { describe, expect, it } from 'vitest';
import { localSnapshotCommand } from '../../../../src/cli/commands/localSnapshot';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import type { Logger } from '../../../../src/core/util/logger';
import { planNodeSide, type DiagnoseNodeDeps, type NodeSidePlan } from '../../../../src/host/diagnostics/diagnoseNodeCommand';
import { DIAGNOSTICS_DEFAULTS } from '../../../../src/host/diagnostics/diagnosticsSettings';
import type { AgentConnection } from '../../../../src/infra/nodeAccess/agent/agentConnection';
import { planDebugPodSnapshot } from '../../../../src/infra/nodeAccess/debugPod/debugPodSnapshot';
import { fakePodsApi } from '../../../support/fakePodsApi';
import { memoryIo } from '../../../support/memoryIo';

const entry = { kind: 'node', context: 'kind-a', name: 'n1', node: { metadata: { name: 'n1' }, status: { nodeInfo: { containerRuntimeVersion: 'containerd://1.7.2' } } } } as unknown as NodeEntry;
const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;
const deps = { logger } as unknown as DiagnoseNodeDeps;
const signal = new AbortController().signal;

function runs(plan: NodeSidePlan): Extract<NodeSidePlan, { viaSsh: boolean }> {
  if (!('nodeSide' in plan)) throw new Error(`skipped: ${plan.nodeSideSkipReason}`);
  return plan;
}

describe("Diagnose Node's node side through the chosen way", () => {
  it('the agent: its last snapshot, named with the pod and its age; no SSH journal', async () => {
    const snapshot = { time: '2026-11-28T12:00:00.000Z', source: 'grpc', sandboxes: [], containers: [], sandboxStatuses: [], containerStatuses: [], timings: [], errors: [], findings: [], durationMs: 12 };
    const connection = {
      label: 'via agent pod pleg-doctor/a-1',
      readDiagnosis: async () => ({ collectedAt: new Date(Date.now() - 70_500).toISOString(), diagnosis: {}, nodeSide: { status: 'ok', ms: 3, value: { host: 'n1', transport: { kind: 'grpc', endpoint: 'e', reason: 'r' }, connectMs: 1, snapshot } } }),
    } as unknown as AgentConnection;
    const plan = runs(planNodeSide(entry, DIAGNOSTICS_DEFAULTS, deps, { way: 'agent', connection, why: 'agent pod runs' }, () => undefined));
    expect(plan.viaSsh).toBe(false);
    expect((await plan.nodeSide(signal)).reachedBy).toMatch(/^via agent pod pleg-doctor\/a-1, taken 1m1[01]s ago$/);
  });

  it('a confirmed debug pod: the snapshot only, and the evidence says so; the pod is deleted', async () => {
    const io = memoryIo();
    await localSnapshotCommand(['--cri-socket', '/nonexistent/pleg-doctor-test.sock', '--timeout', '500'], io, 'usage');
    const api = fakePodsApi({ phases: [{ phase: 'Failed', containers: [{ name: 'snapshot', terminated: { exitCode: 1 } }] }], log: io.out() });
    const plan = await planDebugPodSnapshot(api, { node: entry.node, namespace: 'pleg-doctor', image: 'img:1', deadlineSeconds: 60, callDeadlineMs: 1000 }, signal);
    const side = runs(planNodeSide(entry, DIAGNOSTICS_DEFAULTS, deps, { way: 'debug-pod', api, plan, why: 'no agent; no SSH' }, () => undefined));
    expect(side.viaSsh).toBe(false);
    const evidence = await side.nodeSide(signal);
    expect(evidence.reachedBy).toBe(`via debug pod pleg-doctor/${plan.manifest.metadata.name} on n1: the CRI snapshot only, no probes (the debug pod has no hostPID)`);
    expect(evidence).not.toHaveProperty('probes');
    expect(evidence).not.toHaveProperty('access');
    expect(api.live.size).toBe(0);
  });

  it('declined or no way: skipped with the reason', () => {
    expect(planNodeSide(entry, DIAGNOSTICS_DEFAULTS, deps, { way: 'declined', why: 'a debug pod was offered and not confirmed; nothing was created' }, () => undefined)).toEqual({
      nodeSideSkipReason: 'a debug pod was offered and not confirmed; nothing was created',
    });
    expect(planNodeSide(entry, DIAGNOSTICS_DEFAULTS, deps, { way: 'none', why: 'no agent; no SSH' }, () => undefined)).toEqual({ nodeSideSkipReason: 'no agent; no SSH' });
  });
});
