// The report's evidence table names the way the node side came by (an agent's snapshot with its age), so
// a two-minute-old snapshot never reads as one taken now.

import { describe, expect, it } from 'vitest';
import { sourceReports } from '../../../../src/core/diagnose/sourceNotes';
import { evidence, nodeSide } from '../../../support/diagnoseBuilders';

describe('the node side row of the evidence table', () => {
  it('shows the way as its detail when the evidence names it', () => {
    const side = nodeSide();
    if (side.status !== 'ok') throw new Error('builder changed');
    const e = evidence({ nodeSide: { ...side, value: { ...side.value, reachedBy: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago' } } });
    const row = sourceReports(e).find((r) => r.source === 'nodeSide');
    expect(row).toMatchObject({ status: 'ok', detail: 'via agent pod pleg-doctor/pleg-doctor-agent-x7k2, taken 1m10s ago' });
  });

  it('has no detail for older evidence without it', () => {
    const row = sourceReports(evidence({ nodeSide: nodeSide() })).find((r) => r.source === 'nodeSide');
    expect(row?.status).toBe('ok');
    expect(row).not.toHaveProperty('detail');
  });
});
