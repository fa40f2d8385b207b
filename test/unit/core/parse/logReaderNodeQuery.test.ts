import { describe, expect, it } from 'vitest';
import { classifyLogQueryStatus, isLogDirectoryListing, kubeletLogQueryPath } from '../../../../src/core/parse/logReaderNodeQuery';

describe('NodeLogQuery path', () => {
  it('asks for the kubelet unit since a whole-second RFC 3339 time, encoded', () => {
    expect(kubeletLogQueryPath(Date.UTC(2026, 10, 22, 3, 0, 44, 244))).toBe('/logs/?query=kubelet&sinceTime=2026-11-22T03%3A00%3A44Z');
  });
  it('maps proxy statuses to causes', () => {
    expect([404, 403, 503, 500].map(classifyLogQueryStatus)).toEqual(['not-enabled', 'forbidden', 'unreachable', 'other']);
  });
  it('tells the /var/log listing a kubelet without NodeLogQuery serves from a journal', () => {
    const oldGo = '<pre>\n<a href="alternatives.log">alternatives.log</a>\n<a href="apt/">apt/</a>\n</pre>\n';
    const newGo = '<!doctype html>\n<meta name="viewport" content="width=device-width">\n<pre>\n<a href="pods/">pods/</a>\n</pre>\n';
    const journal = 'Nov 22 03:00:44 node-1 kubelet[812]: I1122 03:00:44.244000     812 kubelet.go:2345] "SyncLoop (PLEG): event for pod"\n';
    expect([oldGo, newGo, journal, '', '<pre>no links</pre>'].map(isLogDirectoryListing)).toEqual([true, true, false, false, false]);
  });
});
