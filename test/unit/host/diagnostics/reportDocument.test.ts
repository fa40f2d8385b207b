import { describe, expect, it } from 'vitest';
import { BoundedContents } from '../../../../src/host/nodeAccess/boundedContents';
import { MAX_REPORTS, REPORT_SCHEME, reportFileLabel, reportUriParts } from '../../../../src/host/diagnostics/reportDocument';

describe('report document URI', () => {
  it('is /{context}/{node}.pleg-report.md in the pleg-doctor-report scheme, made unique by its query', () => {
    const a = reportUriParts('prod-eu', 'prod-eu-node-07', 1, '2026-11-22T09:00:00.000Z');
    const b = reportUriParts('prod-eu', 'prod-eu-node-07', 2, '2026-11-22T09:00:00.000Z');
    expect(a).toEqual({ scheme: 'pleg-doctor-report', path: '/prod-eu/prod-eu-node-07.pleg-report.md', query: 'n=1&collected=2026-11-22T09:00:00.000Z' });
    expect(a.scheme).toBe(REPORT_SCHEME);
    expect(b.path).toBe(a.path);
    expect(b.query).not.toBe(a.query);
    expect(a.path.endsWith(`/${reportFileLabel('prod-eu-node-07')}`)).toBe(true);
  });

  it('keeps an EKS-style context with slashes as extra path segments', () => {
    expect(reportUriParts('arn:aws:eks:eu-west-1:1:cluster/prod', 'ip-10-0-0-7', 3, 't').path).toBe('/arn:aws:eks:eu-west-1:1:cluster/prod/ip-10-0-0-7.pleg-report.md');
  });
});

describe('bounded document contents', () => {
  it('keeps the newest `capacity` entries and reports which were evicted, oldest first', () => {
    const store = new BoundedContents(3);
    expect(store.set('a', '1')).toEqual([]);
    store.set('b', '2');
    store.set('c', '3');
    expect(store.set('d', '4')).toEqual(['a']);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('d')).toBe('4');
    expect(store.size).toBe(3);
  });

  it('re-setting a key makes it the newest', () => {
    const store = new BoundedContents(2);
    store.set('a', '1');
    store.set('b', '2');
    store.set('a', '1b');
    expect(store.set('c', '3')).toEqual(['b']);
    expect(store.get('a')).toBe('1b');
  });

  it('holds the last MAX_REPORTS (250) reports', () => {
    const store = new BoundedContents(MAX_REPORTS);
    for (let i = 1; i <= 255; i++) store.set(`r${i}`, String(i));
    expect(MAX_REPORTS).toBe(250);
    expect(store.size).toBe(250);
    expect(store.get('r5')).toBeUndefined();
    expect(store.get('r6')).toBe('6');
    store.clear();
    expect(store.size).toBe(0);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new BoundedContents(0)).toThrow(/positive integer, got 0/);
    expect(() => new BoundedContents(1.5)).toThrow(/positive integer/);
  });
});
