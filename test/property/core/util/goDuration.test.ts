import { fc, test } from '@fast-check/vitest';
import { expect } from 'vitest';
import { formatGoDuration, parseGoDurationNs, MAX_GO_DURATION_NS } from '../../../../src/core/util/goDuration';

test.prop([fc.bigInt({ min: -MAX_GO_DURATION_NS, max: MAX_GO_DURATION_NS })])('parse(format(d)) = d', (ns) => {
  expect(parseGoDurationNs(formatGoDuration(ns))).toBe(ns);
});
