// The report's gaps name the grant that would have let a refused kubelet endpoint be read: `nodes/proxy`
// through the API server (with its warning), `nodes/metrics` for the agent that reads its own kubelet.

import { describe, expect, it } from 'vitest';
import { collectGaps } from '../../../../src/core/diagnose/gaps';
import type { Fetched } from '../../../../src/core/diagnose/evidence';
import { missingNote } from '../../../../src/core/diagnose/sourceNotes';
import { evidence, FORBIDDEN } from '../../../support/diagnoseBuilders';

const AGENT_FORBIDDEN: Fetched<never> = { status: 'forbidden', message: '/metrics: the kubelet answered 403 (Forbidden): the service account needs get on nodes/metrics', ms: 3, grant: 'nodes/metrics' };

describe('a refused kubelet endpoint', () => {
  it('through the node proxy: needs get on nodes/proxy, with the warning', () => {
    const e = evidence({ metrics: FORBIDDEN, metricsLater: FORBIDDEN });
    expect(missingNote(e, 'metrics')).toBe('metrics: 403 — needs get on nodes/proxy');
    const gap = collectGaps(e, 'ready').find((g) => g.includes('403'));
    expect(gap).toMatch(/needs `get` on `nodes\/proxy`/u);
  });

  it('read by the agent from its own kubelet: needs get on nodes/metrics, and no node-proxy advice', () => {
    const e = evidence({ metrics: AGENT_FORBIDDEN, metricsLater: AGENT_FORBIDDEN });
    expect(missingNote(e, 'metrics')).toBe('metrics: 403 — needs get on nodes/metrics');
    const gaps = collectGaps(e, 'ready');
    expect(gaps.find((g) => g.includes('403'))).toBe('The kubelet endpoints /metrics, /metrics (second scrape) were refused (403): the service account needs `get` on `nodes/metrics`.');
    expect(gaps.join('\n')).not.toMatch(/nodes\/proxy/u);
  });
});
