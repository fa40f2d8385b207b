import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { classifyNode, nanosToSeconds } from '../../../../src/core/classify/classifyNode';
import type { KubeNode } from '../../../../src/core/kube/objects';
import { parseReadyMessage } from '../../../../src/core/parse/readyMessage';
import { formatGoDuration, MAX_GO_DURATION_NS } from '../../../../src/core/util/goDuration';
import { propWithLoops } from '../../../support/loopTally';

const NOW = new Date('2026-11-22T03:00:00Z');
const NEVER_NS = 2_562_047n * 3_600_000_000_000n;

const r1 = (ago: string, thr: string): string => `PLEG is not healthy: pleg was last seen active ${ago} ago; threshold is ${thr}`;

/** Go prints µ; kubelets and users also give μ and us. */
const microSpelling = fc.constantFrom('µs', 'μs', 'us');

test.prop([fc.bigInt({ min: 1n, max: NEVER_NS - 1n }), fc.bigInt({ min: 1n, max: 3_600_000_000_000n }), microSpelling])(
  'any R1 message round-trips to the same seconds',
  (agoNs, thrNs, micro) => {
    const ago = formatGoDuration(agoNs).replace('µs', micro);
    const thr = formatGoDuration(thrNs);
    const node: KubeNode = {
      metadata: { name: 'n' },
      status: { conditions: [{ type: 'Ready', status: 'False', message: r1(ago, thr), lastTransitionTime: '2026-11-22T02:00:00Z' }] },
    };
    const c = classifyNode(node, NOW);
    expect(c.verdict).toBe('pleg');
    expect(c.plegLastSeenAgoSeconds).toBe(nanosToSeconds(agoNs));
    expect(c.plegThresholdSeconds).toBe(nanosToSeconds(thrNs));
    expect(c.warnings).toEqual([]);
  },
);

test.prop([fc.bigInt({ min: NEVER_NS, max: MAX_GO_DURATION_NS })])('R1 with ≥ 2562047h reads as never (null)', (agoNs) => {
  const c = classifyNode(
    { metadata: { name: 'n' }, status: { conditions: [{ type: 'Ready', status: 'False', message: r1(formatGoDuration(agoNs), '3m0s') }] } },
    NOW,
  );
  expect(c.plegLastSeenAgoSeconds).toBeNull();
});

const separators = fc.constantFrom(', ', ',', ' , ');
const knownErrors = fc.constantFrom(
  ['container runtime is down', 'runtime-down'],
  ['container runtime status check may not have completed yet', 'runtime-status-pending'],
  ['PLEG is not healthy: pleg has yet to be successful', 'pleg-never'],
  [r1('3m4.612899233s', '3m0s'), 'pleg-stale'],
  ['container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:a, b: c', 'network-not-ready'],
  ['node is shutting down', 'shutting-down'],
);

test.prop([fc.array(knownErrors, { minLength: 1, maxLength: 5 }), separators, fc.boolean()])(
  'joined errors come back in order, whatever the join',
  (errors, sep, bracketed) => {
    const joined = errors.map(([text]) => text).join(sep);
    const message = bracketed ? `[${joined}]` : joined;
    expect(parseReadyMessage(message).errors.map((e) => e.kind)).toEqual(errors.map(([, kind]) => kind));
  },
);

const statusValue = fc.oneof(fc.constantFrom('True', 'False', 'Unknown', 'true', '', 'Ready'), fc.anything());
const condition = fc.record(
  {
    type: fc.oneof(fc.constantFrom('Ready', 'DiskPressure', 'MemoryPressure', 'NetworkUnavailable'), fc.anything()),
    status: statusValue,
    reason: fc.anything(),
    message: fc.oneof(fc.string(), knownErrors.map(([t]) => t), fc.anything()),
    lastTransitionTime: fc.oneof(fc.date({ noInvalidDate: false }).map((d) => (Number.isNaN(d.getTime()) ? 'bad' : d.toISOString())), fc.anything()),
    lastHeartbeatTime: fc.anything(),
  },
  { requiredKeys: [] },
);
const nodeish = fc.oneof(
  fc.anything(),
  fc.record(
    {
      kind: fc.oneof(fc.constant('Node'), fc.anything()),
      metadata: fc.oneof(fc.record({ name: fc.oneof(fc.string(), fc.anything()) }), fc.anything()),
      spec: fc.oneof(fc.record({ unschedulable: fc.anything(), taints: fc.oneof(fc.array(fc.anything()), fc.anything()) }), fc.anything()),
      status: fc.oneof(
        fc.record(
          {
            conditions: fc.oneof(fc.array(condition, { maxLength: 6 }), fc.anything()),
            capacity: fc.anything(),
            allocatable: fc.anything(),
            nodeInfo: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  ),
);

test.prop([nodeish], { numRuns: 500 })('never throws on arbitrary JSON-ish input; verdict is ready iff Ready=True', (input) => {
  const c = classifyNode(input as KubeNode, NOW);
  expect(c.verdict === 'ready').toBe(c.readyStatus === 'True');
  expect(typeof c.summary).toBe('string');
  expect(c.summary).not.toBe('');
  expect(typeof c.message).toBe('string');
  expect(c.warnings.every((w) => !w.startsWith('internal error'))).toBe(true);
});

// At least 50 errors checked over the 100 runs (see ../loopTally.ts): most random strings parse to one.
propWithLoops([fc.string()], { numRuns: 100 }, { errors: 50 })('parseReadyMessage never throws and keeps every non-separator character in some error', (message, tally) => {
  const p = parseReadyMessage(message);
  for (const e of p.errors) {
    tally.hit('errors');
    expect(message).toContain(e.text);
  }
});
