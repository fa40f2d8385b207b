// How Diagnose Node reads the kubelet log: over the node access only where the node side runs (one consent
// covers both), through the NodeLogQuery only with the node proxy on; the window, cap and deadline it asks.

import { describe, expect, it } from 'vitest';
import type { NodeEntry } from '../../../../src/core/tree/contextNodes';
import { planKubeletLog, type DiagnoseNodeDeps } from '../../../../src/host/diagnostics/diagnoseNodeCommand';
import { DIAGNOSTICS_DEFAULTS } from '../../../../src/host/diagnostics/diagnosticsSettings';

const entry = { context: 'prod-eu', name: 'node-a' } as NodeEntry;
const deps = {} as DiagnoseNodeDeps;

describe('planKubeletLog', () => {
  it('node side allowed: journalctl over SSH first, the NodeLogQuery as the fallback; 30 min, 16 MB, the proxy deadline', () => {
    const plan = planKubeletLog(entry, { ...DIAGNOSTICS_DEFAULTS, proxyTimeoutMs: 9_000 }, deps, true);
    expect(plan).toMatchObject({ windowMinutes: 30, maxBytes: 16 * 1024 * 1024, timeoutMs: 9_000, nodeLogQuery: true });
    expect(typeof plan.ssh).toBe('function');
  });

  it('node side not allowed: never SSH; the NodeLogQuery follows the node proxy setting', () => {
    expect(planKubeletLog(entry, DIAGNOSTICS_DEFAULTS, deps, false)).toEqual({ windowMinutes: 30, maxBytes: 16 * 1024 * 1024, timeoutMs: 15_000, nodeLogQuery: true });
    expect(planKubeletLog(entry, { ...DIAGNOSTICS_DEFAULTS, useNodeProxy: false }, deps, false).nodeLogQuery).toBe(false);
  });
});
