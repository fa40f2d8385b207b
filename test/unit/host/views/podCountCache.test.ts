import { describe, expect, it } from 'vitest';
import { expandPath } from '../../../../src/host/config/settings';
import { PodCountCache } from '../../../../src/host/views/podCountCache';

describe('PodCountCache', () => {
  it('shares one request between concurrent hovers and caches the count for a minute', async () => {
    let now = 0;
    let calls = 0;
    const cache = new PodCountCache(
      () => {
        calls++;
        return Promise.resolve(12);
      },
      1000,
      () => now,
    );
    const [a, b] = await Promise.all([cache.get('c', 'n'), cache.get('c', 'n')]);
    expect(a).toEqual({ kind: 'count', count: 12 });
    expect(b).toEqual({ kind: 'count', count: 12 });
    expect(calls).toBe(1);
    now = 59_000;
    expect(cache.peek('c', 'n')).toEqual({ kind: 'count', count: 12 });
    now = 61_000;
    expect(cache.peek('c', 'n')).toEqual({ kind: 'unknown' });
    await cache.get('c', 'n');
    expect(calls).toBe(2);
  });

  it('turns a hung API into a deadline error and does not cache failures', async () => {
    let calls = 0;
    const cache = new PodCountCache((_c, _n, signal) => {
      calls++;
      return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
    }, 50);
    expect(await cache.get('c', 'n')).toEqual({ kind: 'error', message: 'no answer within 0.05s' });
    expect(await cache.get('c', 'n')).toEqual({ kind: 'error', message: 'no answer within 0.05s' });
    expect(calls).toBe(2);
  });

  it('reports a cancelled hover and an API error by cause', async () => {
    const hung = new PodCountCache((_c, _n, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))), 10_000);
    const controller = new AbortController();
    const pending = hung.get('c', 'n', controller.signal);
    controller.abort();
    expect(await pending).toEqual({ kind: 'error', message: 'cancelled' });
    const refused = new PodCountCache(() => Promise.reject(new Error('403 Forbidden: cannot list pods')));
    expect(await refused.get('c', 'n')).toEqual({ kind: 'error', message: '403 Forbidden: cannot list pods' });
  });
});

describe('expandPath', () => {
  it('expands ~ and ${env:NAME} and makes paths absolute', () => {
    expect(expandPath('~/.kube/config', {}, '/home/u')).toBe('/home/u/.kube/config');
    expect(expandPath('~', {}, '/home/u')).toBe('/home/u');
    expect(expandPath('${env:KDIR}/a.yaml', { KDIR: '/etc/k' }, '/home/u')).toBe('/etc/k/a.yaml');
    expect(expandPath('/x/~/y', {}, '/home/u')).toBe('/x/~/y');
  });
});
